package webtest

import (
	"errors"
	"path/filepath"
	"testing"
)

func TestProfileRecorder(t *testing.T) {
	t.Parallel()
	gone := filepath.Join(t.TempDir(), "gone")
	still := t.TempDir()
	tests := []struct {
		name  string
		lines []string // what the provider logs, as format strings with one %s
		want  string   // Leaks' error text, "" for nil
	}{
		{"nothing logged: blind", nil, ErrBlind.Error()},
		{"other lines only: blind", []string{"web: browser generation 1 is gone (pid 7); starting a new one %s"}, ErrBlind.Error()},
		{"profile removed", []string{"web: browser started (pid 1, profile " + gone + ", remote %s)"}, ""},
		{"profile left on disk", []string{"web: browser started (pid 1, profile " + still + ", remote %s)"},
			"leak after the provider closed: directory " + still},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var r ProfileRecorder
			for _, l := range tc.lines {
				r.Logf(l, "false")
			}
			err := r.Leaks()
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Errorf("Leaks() = %q, want %q", got, tc.want)
			}
			if tc.want == ErrBlind.Error() && !errors.Is(err, ErrBlind) {
				t.Errorf("Leaks() = %v, want ErrBlind", err)
			}
		})
	}
}
