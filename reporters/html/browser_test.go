package html_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	_ "github.com/sebdah/goldie/v2" // owns the -update flag that refreshes docs/report.png

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/drivers/web"
	"github.com/adtest/adtest/internal/testsupport/webtest"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/reporters"
	"github.com/adtest/adtest/reporters/html"
	"github.com/adtest/adtest/runner"
	"github.com/adtest/adtest/runner/suite"
	"github.com/adtest/adtest/runner/trace"
)

// TestReportInBrowser checks the report the way a person would, with
// adtest's own .ad scripts (testdata/check) in headless Chromium: a real run
// of testdata/fixture (a passed, a failed, a flaky and a timed-out test
// against a small page) is rendered into a report, the check scripts open it
// from file:// and assert the counts, the failed filter, the search, the
// failing step's line and reason, the screenshot, the attempt tabs, the
// trace viewer; and the browser logged no error while they did. With -update, the screenshot the
// failure check takes becomes docs/report.png (the README's picture).
func TestReportInBrowser(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	work := t.TempDir()
	fixture, _ := filepath.Abs("testdata/fixture")

	site, err := suite.ServeFS(os.DirFS(filepath.Join(fixture, "site")))
	if err != nil {
		t.Fatal(err)
	}
	defer site.Close()
	res, _ := runSuite(ctx, t, fixture, "suite", suite.Config{BaseURL: site.URL, RunDir: filepath.Join(work, "fixture-art"),
		Trace: trace.RetainOnFailure})
	want := map[string]runner.Status{"checkout": runner.StatusFailed, "flaky": runner.StatusFlaky, "login": runner.StatusPassed, "slow": runner.StatusTimedOut}
	// The checks read these reasons off the report (attempts.ad, failure.ad).
	wantReason := map[string]string{"checkout": "selector_not_found", "flaky": "selector_not_found", "slow": "timeout"}
	for _, tr := range res.Tests {
		if tr.Status != want[tr.Name] {
			t.Fatalf("fixture %s is %s, want %s: the report would not show what the checks expect\n%s", tr.Name, tr.Status, want[tr.Name], summary(res))
		}
		if r := wantReason[tr.Name]; r != "" && (len(tr.Attempts) == 0 || tr.Attempts[0].Error == nil || string(tr.Attempts[0].Error.Reason) != r) {
			t.Fatalf("fixture %s: its first attempt did not fail with %s: the report would not show what the checks expect\n%s", tr.Name, r, summary(res))
		}
	}
	reportDir := filepath.Join(work, "report")
	if err := html.WriteDir(reportDir, res, html.Options{
		ReadFile: func(name string) ([]byte, error) { return os.ReadFile(name) },
	}); err != nil {
		t.Fatal(err)
	}

	// The same tests as two CI shards, merged: one report, a lane per
	// shard and worker in its timeline.
	var shards [2]*runner.Result
	for k := range shards {
		shards[k] = &runner.Result{Version: 1, StartedAt: res.StartedAt, DurationMs: res.DurationMs, Shard: fmt.Sprintf("%d/2", k+1)}
	}
	for i, tr := range res.Tests {
		sh := shards[i%2]
		for j := range tr.Attempts {
			tr.Attempts[j].Shard = sh.Shard
		}
		sh.Tests = append(sh.Tests, tr)
	}
	merged, err := suite.Merge(shards[:])
	if err != nil {
		t.Fatal(err)
	}
	mergedDir := filepath.Join(work, "merged")
	if err := html.WriteDir(mergedDir, merged, html.Options{}); err != nil {
		t.Fatal(err)
	}

	shots := filepath.Join(work, "shots")
	if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	checks, logs := runSuite(ctx, t, filepath.Dir(fixture), "check", suite.Config{
		RunDir: filepath.Join(work, "check-art"),
		CLIVars: map[string]string{
			"REPORT":        "file://" + filepath.ToSlash(filepath.Join(reportDir, "index.html")),
			"MERGED_REPORT": "file://" + filepath.ToSlash(filepath.Join(mergedDir, "index.html")),
			"SHOTS":         shots,
		},
	})
	if checks.Stats.Passed != checks.Stats.Total || checks.Stats.Total != 5 {
		t.Errorf("the report checks did not all pass:\n%s", summary(checks))
	}
	for file, lines := range logs {
		for _, l := range lines {
			if pageError(l) {
				t.Errorf("%s: the report page logged an error: %s", file, l)
			}
		}
	}
	checkTraceKeys(ctx, t, "file://"+filepath.ToSlash(filepath.Join(reportDir, "index.html")))
	png, err := os.ReadFile(filepath.Join(shots, "report.png"))
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Fatalf("the failure check took no screenshot of the report: %v", err)
	}
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		if err := os.WriteFile(filepath.Join("..", "..", "docs", "report.png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// pageError reports a browser log line of an uncaught exception, a
// console.error call or an error of the browser itself (a blocked or failed
// load: a broken image, a violated content policy).
func pageError(line string) bool {
	for _, p := range []string{"uncaught:", "console.error:", "browser.error:"} {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}

// runSuite discovers dir (below cwd) and runs it in one fresh Chromium,
// returning the result and every attempt's browser log, by file. The
// browser must be gone afterwards.
func runSuite(ctx context.Context, t *testing.T, cwd, dir string, cfg suite.Config) (*runner.Result, map[string][]string) {
	t.Helper()
	tests, err := suite.Discover([]string{dir}, suite.DiscoverOptions{Cwd: cwd, Parse: parse})
	if err != nil {
		t.Fatal(err)
	}
	var rec webtest.ProfileRecorder
	var mu sync.Mutex
	logs := map[string][]string{}
	cfg.Workers = 2
	// A session's teardown is several browser round trips (detach, close the
	// tab, wait until it is gone, dispose of its browser context); measured
	// up to 1.45 s under load on 2 cores, and past the runner's default 2 s
	// grace in 2 of 20 runs, which turned the fixture's failure into
	// timeout_cleanup_pending. chromedp bounds the same close by 5 s.
	cfg.Grace = 5 * time.Second
	cfg.Cwd = cwd
	cfg.RunID = "browser-test"
	cfg.FormatSnapshot = suite.FormatSnapshot
	cfg.Prefetch = map[string]bool{drivers.PlatformWeb: true}
	cfg.Providers = func(ctx context.Context, platform string) (drivers.Provider, error) {
		return web.NewProvider(web.Options{Logf: rec.Logf, BrowserPath: readersBrowser()})
	}
	cfg.NewReplayer = func(d drivers.Driver, a suite.AttemptContext) suite.Replayer {
		return &logKeeper{Replayer: suite.RunnerReplayer(d, a), d: d, keep: func(lines []string) {
			mu.Lock()
			logs[a.File] = append(logs[a.File], lines...)
			mu.Unlock()
		}}
	}
	res, err := suite.Run(ctx, cfg, tests)
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.Leaks(); err != nil {
		t.Error(err)
	}
	return res, logs
}

// logKeeper hands the session's browser log to keep before it closes.
type logKeeper struct {
	suite.Replayer
	d    drivers.Driver
	keep func([]string)
}

func (l *logKeeper) Close(ctx context.Context) error {
	if lt, ok := l.d.(drivers.LogTailer); ok {
		l.keep(lt.LogTail(0))
	}
	return l.Replayer.Close(ctx)
}

func parse(file string, src []byte) (*lang.Script, error) {
	s, errs := lang.ParseAll(file, src)
	if len(errs) > 0 {
		all := make([]error, len(errs))
		for i, e := range errs {
			all[i] = e
		}
		return nil, errors.Join(all...)
	}
	return s, nil
}

func summary(r *runner.Result) string {
	var b strings.Builder
	reporters.WriteSummary(&b, r, false)
	return b.String()
}

// readersBrowser is the browser a person reads the report in: full
// Chromium when it is installed ("" leaves the choice to the web driver,
// which prefers the headless shell). The shell has no clipboard, and the
// report's copy button is part of what these tests check.
func readersBrowser() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}
