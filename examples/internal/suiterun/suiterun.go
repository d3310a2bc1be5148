// Package suiterun runs the examples' suites from their Go tests as
// `adtest run` does: the scripts discovered, parsed and checked, then run by
// the suite runner on real Chromium against an app served on loopback. The
// example app's own suite (examples/web), the TodoMVC matrix and the
// component flows share it.
package suiterun

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers"
	webdrv "github.com/adtest/adtest/drivers/web"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner"
	"github.com/adtest/adtest/runner/suite"
)

// Discover loads the scripts at paths (files or directories, relative to
// cwd) as `adtest run` does: each parsed, then checked; a script that does
// not parse or check fails t.
func Discover(t testing.TB, cwd string, paths ...string) []*suite.Test {
	t.Helper()
	tests, err := suite.Discover(paths, suite.DiscoverOptions{
		Cwd:   cwd,
		Parse: Parse,
		Check: func(s *lang.Script, src []byte) []error {
			var errs []error
			for _, d := range lang.Check(s, string(src), lang.CheckOptions{}) {
				if d.Severity == lang.SeverityError {
					errs = append(errs, errors.New(d.Format(s.File)))
				}
			}
			return errs
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return tests
}

// Parse parses a script as `adtest run` does; its error is the first
// parse error.
func Parse(file string, src []byte) (*lang.Script, error) {
	s, errs := lang.ParseAll(file, src)
	if len(errs) > 0 {
		return nil, errs[0]
	}
	return s, nil
}

// Options are what the examples' runs differ in.
type Options struct {
	Name    string // the run's id, and what a failure calls the run
	Workers int    // as `adtest run -j`
	Cwd     string // the directory the scripts are named from
	BaseURL string // the served app
}

// Run runs tests through the suite runner on real Chromium. The run gets
// what is left of go test's -timeout, less a margin to report: a run that
// does not start, or does not finish, fails t with its counts rather than
// a panic.
func Run(t *testing.T, o Options, tests []*suite.Test) *runner.Result {
	t.Helper()
	budget := 9 * time.Minute
	if d, ok := t.Deadline(); ok {
		budget = time.Until(d) - 20*time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	res, err := suite.Run(ctx, suite.Config{
		Workers: o.Workers, RunDir: t.TempDir(), RunID: o.Name, Cwd: o.Cwd, BaseURL: o.BaseURL,
		Providers: func(ctx context.Context, platform string) (drivers.Provider, error) {
			// ADTEST_TEST_ISOLATION=warm runs the example suites in warm
			// isolation (web.IsolationWarm, experimental), as
			// `adtest run --isolation warm` does.
			return webdrv.NewProvider(webdrv.Options{Isolation: os.Getenv("ADTEST_TEST_ISOLATION")})
		},
		NewReplayer:    suite.RunnerReplayer,
		FormatSnapshot: suite.FormatSnapshot,
		Prefetch:       map[string]bool{drivers.PlatformWeb: true},
	}, tests)
	if err != nil {
		t.Fatalf("the %s run did not start (is Chromium installed? make setup): %v", o.Name, err)
	}
	if ctx.Err() != nil || res.Interrupted {
		t.Fatalf("the %s run did not finish within %s (%d of %d tests ran): is the machine overloaded? give go test a longer -timeout", o.Name, budget.Round(time.Second), res.Stats.Total-res.Stats.NotRun, res.Stats.Total)
	}
	return res
}
