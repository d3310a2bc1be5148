package web_test

// Issue 34, the names family: each cause as the smallest page that shows
// it and a .ad script, in testdata/names.

import (
	"strings"
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

// TestUnseenSaysWhy: a selector that misses on a page with a closed shadow
// root and a cross-origin frame says that adtest cannot see inside them
// (issue 34, bad input), never a silent miss.
func TestUnseenSaysWhy(t *testing.T) {
	srv := serveDir(t, namesDir)
	res := regressRun(t, srv, suite.Config{Workers: 1}, nil, discoverIn(t, namesDir, "unseen.ad"))
	if res.Stats.Failed != 1 {
		t.Fatalf("stats %+v, want 1 failed", res.Stats)
	}
	got := failures(res)
	for _, want := range []string{
		`Timed out after 1500ms waiting for role=button label=Secret; adtest cannot see inside a closed shadow root at generic id="vault", a cross-origin frame (http://localhost:`,
		`) at iframe "Payment" id="pay"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("failure %q\nwant it to contain %q", got, want)
		}
	}
}

// TestVisibleRule runs testdata/names/below-fold.ad: `is visible`, a wait
// for visible=true and a selector's visible=true agree on an element below
// the fold (visible: on the page), hidden is an element not shown, and in
// view is hittable=true (issue 34, the semantics settled in the is
// command's reference).
func TestVisibleRule(t *testing.T) {
	srv := serveDir(t, namesDir)
	res := regressRun(t, srv, suite.Config{Workers: 1}, nil, discoverIn(t, namesDir, "below-fold.ad"))
	if res.Stats.Passed != 1 {
		t.Errorf("stats %+v, want 1 passed:\n%s", res.Stats, failures(res))
	}
}
