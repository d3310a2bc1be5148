package web

import (
	"context"
	"testing"
	"time"
)

// TestPumpDozes (real Chromium, a page whose frames the session draws): a
// still page the session leaves alone gets its frames at the dozing pace
// (an interactive session's page between two commands: a frame a second),
// and the session's next call to it wakes the pump at once. The test makes
// the doze endless: only the call can end it.
func TestPumpDozes(t *testing.T) {
	s := openSession(t, framesProvider(t), "basic.html")
	defer s.Close(context.Background())
	p := s.frames
	if p == nil {
		t.Fatal("the session does not draw its page's frames")
	}
	p.dozePeriod.Store(int64(time.Hour))
	p.dozeAfter.Store(int64(300 * time.Millisecond))
	waitFor(t, "the pump to doze", func() bool { return p.dozing.Load() })

	// The idle pace would draw ten frames in a second.
	f0 := s.FramesDrawn()
	time.Sleep(time.Second)
	if n := s.FramesDrawn() - f0; n > 1 || !p.dozing.Load() {
		t.Fatalf("dozing pump drew %d frames in a second (dozing now: %v), want at most 1", n, p.dozing.Load())
	}

	// A call of the session's wakes it: a frame at once, the idle pace on.
	f0 = s.FramesDrawn()
	if got := textByID(t, s, "clicks"); got == "" {
		t.Fatal("no text read from the page")
	}
	waitFor(t, "the session's call to wake the pump", func() bool { return !p.dozing.Load() && s.FramesDrawn() > f0 })
}

// waitFor polls cond every 10 ms for at most 5 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
