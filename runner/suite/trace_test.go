package suite

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/drivers/fake"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner/trace"
)

// traceScreens: "late" exists from the second session on, so flaky.ad fails
// its first attempt and passes its second; pass.ad passes, fail.ad fails
// every attempt.
const traceScreens = `
open demo -> home
screen home
  heading "Home"
  button "Ok" id=ok
  button "Late" id=late from-session=2
`

// TestTraceModes runs a passing, a flaky and a failing test on the fake
// device under each mode and lists which attempts kept a trace (and that a
// kept trace is named in the attempt's result).
func TestTraceModes(t *testing.T) {
	scripts := map[string]string{
		"pass.ad":  "context platform=web\nopen demo\nclick id=ok\n",
		"flaky.ad": "context platform=web retries=1\nopen demo\nclick id=late\n",
		"fail.ad":  "context platform=web retries=1\nopen demo\nclick @e9\n",
	}
	for _, c := range []struct {
		mode trace.Mode
		want string
	}{
		{trace.Off, ""},
		{trace.On, "fail.ad/1 fail.ad/2 flaky.ad/1 flaky.ad/2 pass.ad/1"},
		{trace.RetainOnFailure, "fail.ad/1 fail.ad/2 flaky.ad/1"},
		{trace.OnFirstRetry, "fail.ad/2 flaky.ad/2"},
	} {
		t.Run(string(c.mode), func(t *testing.T) {
			dir := t.TempDir()
			var tests []*Test
			names := []string{"fail.ad", "flaky.ad", "pass.ad"}
			for _, n := range names {
				if err := os.WriteFile(filepath.Join(dir, n), []byte(scripts[n]), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			tests, err := Discover(names, DiscoverOptions{Cwd: dir, Parse: lang.Parse})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, tc := range tests {
				// One provider per test: "late" shows from a test's second session.
				sc, err := fake.ParseScreens("screens.txt", traceScreens)
				if err != nil {
					t.Fatal(err)
				}
				prov := fake.NewProvider(sc, nil)
				res, err := Run(context.Background(), Config{
					Workers: 1, RunDir: filepath.Join(dir, "run-"+tc.File), Cwd: dir, Trace: c.mode,
					Providers:   func(context.Context, string) (drivers.Provider, error) { return prov, nil },
					NewReplayer: RunnerReplayer, Grace: DefaultStepTimeout,
				}, []*Test{tc})
				if err != nil {
					t.Fatal(err)
				}
				for i, a := range res.Tests[0].Attempts {
					_, statErr := os.Stat(filepath.Join(dir, a.ArtifactsDir, trace.DirName, trace.File))
					_, dirErr := os.Stat(filepath.Join(dir, a.ArtifactsDir, trace.DirName))
					switch {
					case statErr == nil && a.Trace == filepath.Join(a.ArtifactsDir, trace.DirName):
						got = append(got, tc.File+"/"+string(rune('0'+i+1)))
					case statErr == nil || a.Trace != "" || dirErr == nil:
						t.Errorf("%s attempt %d: trace %q, trace.json %v, dir %v: a trace is kept whole or not at all", tc.File, i+1, a.Trace, statErr, dirErr)
					}
				}
			}
			sort.Strings(got)
			if g := strings.Join(got, " "); g != c.want {
				t.Errorf("traces kept: %q, want %q", g, c.want)
			}
		})
	}
}
