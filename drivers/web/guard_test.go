package web

import (
	"errors"
	"strings"
	"testing"

	"github.com/adtest/adtest/drivers"
)

// A press that landed on the target is followed where the browser sends
// the rest of it: the sheet the press opened over the button gets the
// release, and the click passes (issue 34, cause 6). A second press of the
// same action that would land on the sheet is a press on another element:
// it is held back and the action fails, saying a press had landed.
func TestGuardFollowsALandedPress(t *testing.T) {
	t.Parallel()
	s := session(t, "popunder.html")
	n := find(t, snap(t, s, drivers.SnapshotOptions{}), "button", "Open")
	if err := s.Act(testCtx(t), tap(n)); err != nil {
		t.Fatalf("click whose press opened a sheet under the pointer: %v", err)
	}
	waitText(t, s, "log", "open sheet mouseup")

	open(t, s, "popunder.html")
	n = find(t, snap(t, s, drivers.SnapshotOptions{}), "button", "Open")
	a := tap(n)
	a.Count, a.Target.Describe = 2, "@e1"
	err := s.Act(testCtx(t), a)
	var te *drivers.TargetError
	if err == nil || errors.As(err, &te) || !strings.Contains(err.Error(), "@e1 moved or was covered by div#sheet during the click, after 1 press(es) had landed on it") {
		t.Fatalf("second press on the sheet: got %v, want a plain error: moved or was covered by div#sheet ... after 1 press(es) had landed", err)
	}
	if got := textByID(t, s, "log"); got != "open sheet mouseup" {
		t.Errorf("log %q, want %q: the second press reached the sheet", got, "open sheet mouseup")
	}
}
