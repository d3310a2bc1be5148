package web_test

// Issue 16 ("real web apps behave under adtest as under a person's hands"):
// the pages of its causes 1 and 2 as .ad scripts, in testdata/userinput.

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner/suite"
)

const userInputDir = "testdata/userinput"

func TestUserInputPages(t *testing.T) {
	srv := httptest.NewServer(http.FileServer(http.Dir(userInputDir)))
	t.Cleanup(srv.Close)
	var paths []string
	for _, n := range []string{"change.ad", "globals.ad", "keys.ad"} {
		paths = append(paths, filepath.Join(userInputDir, n))
	}
	cwd, _ := os.Getwd()
	tests, err := suite.Discover(paths, suite.DiscoverOptions{
		Cwd: cwd,
		Parse: func(file string, src []byte) (*lang.Script, error) {
			s, errs := lang.ParseAll(file, src)
			if len(errs) > 0 {
				return nil, errs[0]
			}
			return s, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	res := regressRun(t, srv, suite.Config{Workers: 2}, nil, tests)
	if res.Stats.Total != 3 || res.Stats.Passed != 3 {
		t.Errorf("stats %+v, want 3 passed:\n%s", res.Stats, failures(res))
	}
}
