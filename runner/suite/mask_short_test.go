package suite

import (
	"testing"

	"github.com/adtest/adtest/drivers"
)

// TestMaskerShortSecrets: a secret shorter than drivers.ShortSecretLen is
// masked only as a whole token; a longer one everywhere; a mask is never
// masked again.
func TestMaskerShortSecrets(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		secrets []string
		in, out string
	}{
		{"one letter inside words", []string{"e"}, "Replay failed: fill e", "Replay failed: fill ***"},
		{"one letter as a value", []string{"e"}, `fill "id=pw" "e"`, `fill "id=pw" "***"`},
		{"short digits", []string{"12"}, "pin=12, port 1234, 12", "pin=***, port 1234, ***"},
		{"a star secret leaves masks alone", []string{"*", "hunter2"}, "typed hunter2 and * here", "typed *** and *** here"},
		{"adjacent masks do not merge", []string{"ab", "hunter2"}, "hunter2ab", "***ab"},
		{"long everywhere", []string{"hunter2"}, "xhunter2y", "x***y"},
		{"unicode neighbours", []string{"é"}, "café é", "café ***"},
	} {
		m := drivers.NewMasker(tc.secrets)
		if got := m.String(tc.in); got != tc.out {
			t.Errorf("%s: %q -> %q, want %q", tc.name, tc.in, got, tc.out)
		}
		if got := m.String(m.String(tc.in)); got != tc.out {
			t.Errorf("%s: masking twice gives %q", tc.name, got)
		}
	}
}
