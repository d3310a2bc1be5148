package lang

import (
	"math"
	"testing"
)

// A count or depth beyond int's range is kept as the number agent-device's
// JavaScript keeps, and read back saturated, never wrapped to a negative.
func TestHugeIntegerFlagsSaturate(t *testing.T) {
	s, err := Parse("huge.ad", []byte("click @e1 --count 1e30\nopen --metro-port 9e18\n"))
	if err != nil {
		t.Fatal(err)
	}
	if n, ok := s.Actions[0].Flags.Int("count"); !ok || n != math.MaxInt {
		t.Errorf("count = %d, %v; want MaxInt", n, ok)
	}
	if n, ok := s.Actions[1].Runtime.Int("metroPort"); !ok || n <= 0 {
		t.Errorf("metroPort = %d, %v; want a positive number", n, ok)
	}
}
