package runner

import (
	"testing"

	"github.com/adtest/adtest/lang"
)

// TestRedactorMarkersNeverMix: variable values become <var:NAME> and secrets
// ***, in one pass, so a short value never rewrites a marker already written,
// and a value shorter than drivers.ShortSecretLen is replaced only as a
// whole token.
func TestRedactorMarkersNeverMix(t *testing.T) {
	t.Parallel()
	scope := &lang.Scope{CLI: map[string]string{"USER": "ada", "A": "v"}}
	r := stepMasker(scope, []string{"e", "hunter2"})
	for in, want := range map[string]string{
		"Replay failed at step 2":    "Replay failed at step 2",
		"fill ada then hunter2":      "fill <var:USER> then ***",
		"user ada, secret e, flag v": "user <var:USER>, secret ***, flag <var:A>",
		"adamant evil vivid":         "adamant evil vivid",
		"hunter2ada":                 "***ada",
	} {
		if got := r.String(in); got != want {
			t.Errorf("apply(%q) = %q, want %q", in, got, want)
		}
	}
}
