package web_test

// Issue 34, pointer input on composed trees and editing in frames: each
// cause as the smallest page that shows it and a .ad script, in
// testdata/composed.

import (
	"testing"

	"github.com/adtest/adtest/runner/suite"
)

const composedDir = "testdata/composed"

// TestComposedPages runs the scripts of testdata/composed:
//   - slotted.ad: a click on a web component whose words are slotted
//     light-DOM text (a button, a checkbox, a switch) lands on it.
//   - iframeedit.ad: fill replaces the text of a contenteditable body in a
//     same-origin frame.
//   - popup.ad: a field that opens its calendar over itself on mousedown:
//     the release lands on the calendar, and the click passes.
//   - listbox.ad: a dual list box that moves the pressed option away on
//     mousedown: the release lands on the next option, and the click passes.
//   - dnd.ad: a pan carries a native HTML5 drag between two lists and within
//     one; a slider dragged with pointer events still follows.
func TestComposedPages(t *testing.T) {
	srv := serveDir(t, composedDir)
	names := []string{"slotted.ad", "iframeedit.ad", "popup.ad", "listbox.ad", "dnd.ad"}
	tests := discoverIn(t, composedDir, names...)
	res := regressRun(t, srv, suite.Config{Workers: 1}, nil, tests)
	if res.Stats.Total != len(names) || res.Stats.Passed != len(names) {
		t.Errorf("stats %+v, want %d passed:\n%s", res.Stats, len(names), failures(res))
	}
}
