package repair

import (
	"context"
	"strings"
	"testing"

	"github.com/adtest/adtest/runner"
)

// repairOn records src on app, replays it on drift and repairs it with opts.
func repairOn(t *testing.T, app, drift, src string, opts Options) *Result {
	t.Helper()
	r := fakeRig{}
	annotated := record(t, r, app, src)
	script := parse(t, annotated)
	sess := r.open(t, drift, nil)
	defer sess.Close(context.Background())
	ro := runner.ReplayOptions{Scope: scope(script)}
	ar := sess.Replay(context.Background(), script, ro)
	if ar.Status == runner.StatusPassed {
		t.Fatal("the drift does not make the script fail")
	}
	opts.Replay = ro
	opts.Open = func(context.Context) (*runner.Session, error) { return r.open(t, drift, nil), nil }
	return Repair(context.Background(), sess, script, []byte(annotated), ar, opts)
}

func TestRepairBounds(t *testing.T) {
	t.Parallel()
	twoDrifts := edit(t, fakeApp, `button "Sign in" id=signin`, `button "Log in" id=signin`, `button "Profile" id=profile`, `button "My profile" id=profile`)
	// The element with the old id now deletes; the one with the old label
	// is the save button: the first candidate (id) fails later on, the
	// second (role and label) passes from a fresh session.
	decoy := edit(t, fakeApp, "  button \"Save\" id=save -> goto saved\n", "  button \"Delete\" id=save -> goto home\n  button \"Save\" -> goto saved\n")
	tests := []struct {
		name    string
		drift   string
		opts    Options
		status  string
		refusal string
		tries   []string // each try's selector and outcome prefix
	}{
		{name: "two drifts, limit 1 step", drift: twoDrifts, opts: Options{MaxSteps: 1}, status: StatusRefused,
			refusal: "past the limit of 1 repaired steps",
			tries:   []string{`role=button label="Log in": dropped`}},
		{name: "two drifts, default limit", drift: twoDrifts, status: StatusRepaired,
			tries: []string{`role=button label="Log in": passed`, `role=button label="My profile": passed`}},
		{name: "first candidate fails later, second passes", drift: decoy, status: StatusRepaired,
			tries: []string{`role=button label="Delete": dropped`, `role=button label="Save": passed`}},
		{name: "first candidate fails later, one try allowed", drift: decoy, opts: Options{MaxTries: 1}, status: StatusRefused,
			refusal: "no candidate made the rest of the script pass",
			tries:   []string{`role=button label="Delete": dropped`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := repairOn(t, fakeApp, tc.drift, fakeScript, tc.opts)
			if res.Status != tc.status || !strings.Contains(res.Refusal, tc.refusal) {
				t.Fatalf("status %s (%s), want %s (%q)", res.Status, res.Refusal, tc.status, tc.refusal)
			}
			var got []string
			for _, tr := range res.Tries {
				got = append(got, tr.Selector+": "+tr.Outcome)
			}
			if len(got) != len(tc.tries) {
				t.Fatalf("tries %q, want %q", got, tc.tries)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tc.tries[i]) {
					t.Errorf("try %d: %q, want %q...", i+1, got[i], tc.tries[i])
				}
			}
			if res.Status == StatusRepaired && (!res.Verified || res.Patch == "") {
				t.Errorf("repaired but not verified: %+v", res)
			}
		})
	}
}
