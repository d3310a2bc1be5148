package web_test

// Issue 34, the names family: each cause as the smallest page that shows
// it and a .ad script, in testdata/names.

import (
	"testing"

	"github.com/adtest/adtest/runner/suite"
)

const namesDir = "testdata/names"

// TestNamePages runs the scripts of testdata/names:
//   - shadow-labelledby.ad (cause 1): aria-labelledby resolves in the
//     control's own shadow root, a hidden label still names.
//   - aria-label-text.ad (cause 4): label= finds an element named by
//     aria-label that also holds text.
//   - grid-content.ad (cause 5): gridcell, row, option, tab, menu and tree
//     items are named from their content.
//   - button-blocks.ad (cause 8): exact text= finds the words of a block
//     inside a button and of nested blocks in a cell.
func TestNamePages(t *testing.T) {
	names := []string{"shadow-labelledby.ad", "aria-label-text.ad", "grid-content.ad", "button-blocks.ad"}
	srv := serveDir(t, namesDir)
	tests := discoverIn(t, namesDir, names...)
	res := regressRun(t, srv, suite.Config{Workers: 1}, nil, tests)
	if res.Stats.Total != len(names) || res.Stats.Passed != len(names) {
		t.Errorf("stats %+v, want %d passed:\n%s", res.Stats, len(names), failures(res))
	}
}
