package web_test

// Issue 16 ("real web apps behave under adtest as under a person's hands"):
// the pages of its causes 1 and 2 as .ad scripts, in testdata/userinput.

import (
	"testing"

	"github.com/adtest/adtest/runner/suite"
)

const userInputDir = "testdata/userinput"

func TestUserInputPages(t *testing.T) {
	srv := serveDir(t, userInputDir)
	tests := discoverIn(t, userInputDir, "change.ad", "globals.ad", "keys.ad")
	res := regressRun(t, srv, suite.Config{Workers: 2}, nil, tests)
	if res.Stats.Total != 3 || res.Stats.Passed != 3 {
		t.Errorf("stats %+v, want 3 passed:\n%s", res.Stats, failures(res))
	}
}
