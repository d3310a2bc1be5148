package runner

import (
	"testing"

	"github.com/adtest/adtest/drivers"
)

// A selector target that stays disabled is found again and retried until
// the wait timeout, all before the seam (the frame stays active, nothing is
// dispatched); the same element by ref fails on the first try (a ref is
// never re-resolved, ADR 0014).
func TestActionabilityRetriesSelectorsOnly(t *testing.T) {
	t.Parallel()
	screens := loginScreens + `
screen guarded
  button "Off" id=off disabled
open guarded -> guarded
`
	for _, tc := range []struct {
		name, line string
		retried    bool
	}{
		{"selector", `click id=off`, true},
		{"ref", `click @e1`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, screens)
			e.must(t, "open guarded")
			e.must(t, "snapshot -i")
			gen := e.sess.RefsGeneration()
			before := len(e.dev.Mutations())
			start := e.clock.Now()
			_, err := e.run(t, tc.line)
			if err == nil || err.Reason != drivers.ReasonTargetDisabled {
				t.Fatalf("got %+v, want %s", err, drivers.ReasonTargetDisabled)
			}
			a, _ := err.Details["actionability"].(map[string]any)
			if tc.retried {
				if n, _ := a["attempts"].(int); n < 2 {
					t.Errorf("details %v: want more than one attempt", err.Details)
				}
				if waited := e.clock.Now().Sub(start); waited < e.sess.cfg.WaitTimeout {
					t.Errorf("gave up after %v on the session clock, want the wait timeout %v", waited, e.sess.cfg.WaitTimeout)
				}
			} else if a != nil {
				t.Errorf("a ref was retried: details %v", err.Details)
			}
			if !e.sess.frame.IsActive() || e.sess.RefsGeneration() != gen {
				t.Errorf("the frame changed (active %v, generation %d -> %d)", e.sess.frame.IsActive(), gen, e.sess.RefsGeneration())
			}
			if n := len(e.dev.Mutations()) - before; n != 0 {
				t.Errorf("%d device operations dispatched", n)
			}
		})
	}
}
