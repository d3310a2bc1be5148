package web_test

// Issue 34, the names family: each cause as the smallest page that shows
// it and a .ad script, in testdata/names.

import (
	"strings"
	"testing"

	"github.com/adtest/adtest/runner/suite"
)

const namesDir = "testdata/names"

// TestNamePages runs the scripts of testdata/names, in one run (one
// browser):
//   - shadow-labelledby.ad (cause 1): aria-labelledby resolves in the
//     control's own shadow root, a hidden label still names.
//   - aria-label-text.ad (cause 4): label= finds an element named by
//     aria-label that also holds text.
//   - grid-content.ad (cause 5): gridcell, row, option, tab, menu and tree
//     items are named from their content.
//   - button-blocks.ad (cause 8): exact text= finds the words of a block
//     inside a button and of nested blocks in a cell.
//   - below-fold.ad: `is visible`, a wait for visible=true and a
//     selector's visible=true agree on an element below the fold
//     (visible: on the page), hidden is an element not shown, in view is
//     hittable=true (the rule in the is command's reference).
//   - unseen.ad fails on purpose: its miss says that adtest cannot see
//     inside a closed shadow root and a cross-origin frame (bad input),
//     never a silent miss.
func TestNamePages(t *testing.T) {
	pass := []string{"shadow-labelledby.ad", "aria-label-text.ad", "grid-content.ad", "button-blocks.ad", "below-fold.ad"}
	srv := serveDir(t, namesDir)
	tests := discoverIn(t, namesDir, append(pass, "unseen.ad")...)
	res := regressRun(t, srv, suite.Config{Workers: 1}, nil, tests)
	if res.Stats.Total != len(pass)+1 || res.Stats.Passed != len(pass) || res.Stats.Failed != 1 {
		t.Errorf("stats %+v, want %d passed and unseen failed:\n%s", res.Stats, len(pass), failures(res))
	}
	got := failures(res)
	for _, want := range []string{
		`unseen: failed: Replay failed at step 2 (wait "role=button label=Secret" 1500): Timed out after 1500ms waiting for role=button label=Secret; adtest cannot see inside a closed shadow root at generic id="vault", a cross-origin frame (http://localhost:`,
		`) at iframe "Payment" id="pay"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("failures %q\nwant them to contain %q", got, want)
		}
	}
}
