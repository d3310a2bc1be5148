package web_test

// Issue 16, the causes the TodoMVC matrix showed beyond the five
// pages, each as the smallest page that shows it and a .ad script, in
// testdata/realapps.

import (
	"testing"

	"github.com/adtest/adtest/runner/suite"
)

const realAppsDir = "testdata/realapps"

// TestRealAppPages runs the scripts of testdata/realapps:
//   - modules.ad: an app whose modules load from a timer after the load
//     event, as RequireJS's (TodoMVC flight, *_require): open waits for them.
//   - data.ad: an app that fetches its templates after the load event and
//     renders from them (TodoMVC sammyjs): open waits for those requests.
//   - timers.ad: an app that draws its count a chain of zero-delay timers
//     after the click (TodoMVC sammyjs again): `is` reads until it holds.
func TestRealAppPages(t *testing.T) {
	srv := serveDir(t, realAppsDir)
	tests := discoverIn(t, realAppsDir, "modules.ad", "data.ad", "timers.ad")
	res := regressRun(t, srv, suite.Config{Workers: 1}, nil, tests)
	if res.Stats.Total != 3 || res.Stats.Passed != 3 {
		t.Errorf("stats %+v, want 3 passed:\n%s", res.Stats, failures(res))
	}
}
