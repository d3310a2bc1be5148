package web

import (
	"errors"
	"strings"
	"testing"

	"github.com/adtest/adtest/drivers"
)

// What adtest cannot see inside (another origin's frame, a canvas, a closed
// shadow root) is named as such when a press would land on it or a fill
// targets it: never a bare miss (issue 34, bad input).
func TestOpaqueCoversSayWhatCannotBeSeen(t *testing.T) {
	t.Parallel()
	s := session(t, "opaque.html")
	sn := snap(t, s, drivers.SnapshotOptions{})
	for _, tc := range []struct{ button, want string }{
		{"Under frame", `is covered by iframe#foreign (a cross-origin frame: adtest cannot see inside it)`},
		{"Under canvas", `is covered by canvas#paint (a canvas: adtest cannot see what it draws)`},
		{"Under closed", `is covered by x-closed#sealed (a custom element with no open shadow root: what a closed shadow root holds, adtest cannot see)`},
	} {
		a := tap(find(t, sn, "button", tc.button))
		a.Target.Describe = tc.button
		err := s.Act(testCtx(t), a)
		var te *drivers.TargetError
		if !errors.As(err, &te) || te.Reason != "target_covered" || !strings.HasPrefix(te.Message, tc.button+" "+tc.want+":") {
			t.Errorf("%s: got %v\nwant target_covered: %s %s: ...", tc.button, err, tc.button, tc.want)
		}
	}
	if got := textByID(t, s, "r"); got != "Nothing" {
		t.Errorf("a covered button was clicked: %q", got)
	}
	frame := &drivers.Node{}
	for i := range sn.Nodes {
		if sn.Nodes[i].ID == "foreign" {
			frame = &sn.Nodes[i]
		}
	}
	if frame.Handle == "" {
		t.Fatalf("no node with id foreign in the snapshot:\n%s", dump(sn))
	}
	err := s.Act(testCtx(t), drivers.Action{Kind: drivers.ActFill, Target: &drivers.Target{Node: frame, Describe: "id=foreign"}, Text: "x"})
	want := "id=foreign is not an editable field (a cross-origin frame: adtest cannot see inside it)"
	if targetReason(err) != "target_not_editable" || err.Error() != want {
		t.Errorf("fill into the frame: got %v\nwant target_not_editable: %s", err, want)
	}
}
