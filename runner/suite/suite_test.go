package suite

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner"
)

// testParse is a tiny stand-in for lang.Parse: `context k=v` lines set
// metadata, `env K=V` lines set env, `bad` is a parse error, every other
// non-blank line is an action whose command is its first word.
func testParse(file string, src []byte) (*lang.Script, error) {
	s := &lang.Script{File: file}
	for i, line := range strings.Split(string(src), "\n") {
		line = strings.TrimSpace(line)
		pos := lang.Pos{Filename: file, Line: i + 1, Column: 1}
		switch {
		case line == "":
		case strings.HasPrefix(line, "context "):
			for _, f := range strings.Fields(line)[1:] {
				k, v, _ := strings.Cut(f, "=")
				switch k {
				case "platform":
					s.Metadata.Platform = v
				case "retries":
					n := 0
					fmt.Sscan(v, &n)
					s.Metadata.Retries = &n
				case "timeout":
					n := 0
					fmt.Sscan(v, &n)
					s.Metadata.TimeoutMs = &n
				}
			}
		case strings.HasPrefix(line, "env "):
			k, v, _ := strings.Cut(strings.TrimPrefix(line, "env "), "=")
			s.Env = append(s.Env, lang.EnvDirective{Pos: pos, Key: k, Value: v})
		case line == "bad":
			return nil, &lang.Error{Pos: pos, Code: "INVALID_ARGS", Message: "unknown command \"bad\""}
		default:
			f := strings.Fields(line)
			s.Actions = append(s.Actions, &lang.Action{Pos: pos, Command: f[0], Positionals: f[1:]})
		}
	}
	return s, nil
}

// world is the test double of a device farm: a provider handing out fake
// drivers and a replayer interpreting the commands of testParse.
type world struct {
	mu        sync.Mutex
	attempts  map[string]int // per file
	open      int            // sessions not closed yet
	maxOpen   int
	stuck     chan struct{} // closed at cleanup: releases "stuck" steps
	barrier   *barrier
	okRuns    int
	created   int           // sessions handed out
	noStart   bool          // NewSession fails as infrastructure
	slowStart time.Duration // NewSession takes this long (a browser launch under load)
	createdCh chan struct{} // a tick per session handed out
	gate      chan struct{} // closed after the 4th "ok" step
	onStart   func(file string)
	// warm sessions share state (drivers.StateSharer) unless asked Fresh;
	// fresh counts the sessions asked Fresh.
	warm  bool
	fresh int
}

func newWorld(t *testing.T) *world {
	w := &world{attempts: map[string]int{}, stuck: make(chan struct{}), createdCh: make(chan struct{}, 100)}
	t.Cleanup(func() { close(w.stuck) })
	return w
}

type barrier struct {
	mu   sync.Mutex
	n    int
	need int
	ch   chan struct{}
}

func (b *barrier) arrive(ctx context.Context) error {
	b.mu.Lock()
	b.n++
	if b.n == b.need {
		close(b.ch)
	}
	b.mu.Unlock()
	select {
	case <-b.ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (w *world) Platform() string { return "web" }
func (w *world) Close() error     { return nil }
func (w *world) NewSession(ctx context.Context, o drivers.SessionOptions) (drivers.Driver, error) {
	if w.slowStart > 0 {
		// The start's own duration is what is simulated here, not a wait
		// for another goroutine.
		select {
		case <-time.After(w.slowStart):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.noStart {
		return nil, fmt.Errorf("%w: browser exited", drivers.ErrInfrastructure)
	}
	w.open++
	w.created++
	select {
	case w.createdCh <- struct{}{}:
	default:
	}
	w.maxOpen = max(w.maxOpen, w.open)
	if o.Fresh {
		w.fresh++
	}
	if w.warm {
		return &sharingDriver{fakeDriver{w: w}, !o.Fresh}, nil
	}
	return &fakeDriver{w: w}, nil
}

// sharingDriver is a fakeDriver that may share the worker's state.
type sharingDriver struct {
	fakeDriver
	shares bool
}

func (d *sharingDriver) SharesState() bool { return d.shares }

// fakeOf is the fakeDriver d is or holds.
func fakeOf(d drivers.Driver) *fakeDriver {
	if sd, ok := d.(*sharingDriver); ok {
		return &sd.fakeDriver
	}
	return d.(*fakeDriver)
}

type fakeDriver struct {
	w      *world
	closed bool
	hang   bool
}

func (d *fakeDriver) Platform() string                                      { return "web" }
func (d *fakeDriver) Open(ctx context.Context, r drivers.OpenRequest) error { return nil }
func (d *fakeDriver) Act(ctx context.Context, a drivers.Action) error       { return nil }
func (d *fakeDriver) Close(ctx context.Context) error {
	if d.hang {
		<-d.w.stuck
	}
	d.w.mu.Lock()
	defer d.w.mu.Unlock()
	if !d.closed {
		d.closed = true
		d.w.open--
	}
	return nil
}
func (d *fakeDriver) Snapshot(ctx context.Context, o drivers.SnapshotOptions) (*drivers.Snapshot, error) {
	return &drivers.Snapshot{Nodes: []drivers.Node{{Role: "button", Label: "Sign in", Parent: -1}}}, nil
}
func (d *fakeDriver) Screenshot(ctx context.Context, o drivers.ScreenshotOptions) ([]byte, error) {
	return []byte("\x89PNG fake"), nil
}
func (d *fakeDriver) LogTail(n int) []string { return []string{"console: hello"} }

type fakeReplayer struct {
	w *world
	d *fakeDriver
	// timing is the attempt's timing.ndjson hook (AttemptContext.Timing),
	// called around each step as a session calls its hooks.
	timing runner.StepHook
}

// Evidence is the production session's, over the fake driver.
func (r *fakeReplayer) Evidence(ctx context.Context, mask []string) runner.Evidence {
	return runner.NewSession(r.d, runner.SessionConfig{}).Evidence(ctx, mask)
}
func (r *fakeReplayer) Close(ctx context.Context) error { return nil }
func (r *fakeReplayer) Replay(ctx context.Context, s *lang.Script, p ReplayParams) runner.AttemptResult {
	r.w.mu.Lock()
	r.w.attempts[s.File]++
	attempt := r.w.attempts[s.File]
	r.w.mu.Unlock()
	if r.w.onStart != nil {
		r.w.onStart(s.File)
	}
	res := runner.AttemptResult{Status: runner.StatusPassed}
	for i, a := range s.Actions {
		step := runner.StepResult{Step: i + 1, Line: a.Line(), Command: a.Command, Status: runner.StatusPassed}
		p.Steps.StepStarted(runner.StepEvent{Step: i + 1, Line: a.Line(), Command: a.Command, Action: lang.FormatAction(a)})
		rec := &runner.JournalEntry{Step: i + 1, Line: a.Line(), Written: a, Text: lang.FormatAction(a)}
		if r.timing != nil {
			r.timing.BeginStep(ctx, &runner.HookStep{Record: rec})
		}
		var err *runner.ErrorInfo
		switch a.Command {
		case "ok":
			r.w.mu.Lock()
			r.w.okRuns++
			if r.w.okRuns == 4 && r.w.gate != nil {
				close(r.w.gate)
			}
			r.w.mu.Unlock()
		case "waitcreated": // until the provider handed out N sessions
			n, _ := strconv.Atoi(a.Positionals[0])
			for {
				r.w.mu.Lock()
				c := r.w.created
				r.w.mu.Unlock()
				if c >= n {
					break
				}
				select {
				case <-r.w.createdCh:
					continue
				case <-ctx.Done():
					err = &runner.ErrorInfo{Code: "COMMAND_FAILED", Message: "no prefetch"}
				}
				break
			}
		case "waitothers":
			select {
			case <-r.w.gate:
			case <-ctx.Done():
			}
		case "fail":
			err = &runner.ErrorInfo{Code: "COMMAND_FAILED", Reason: "selector_not_found", Message: "no element matches label=Go", Hint: "take a snapshot"}
		case "flaky":
			if attempt == 1 {
				err = &runner.ErrorInfo{Code: "COMMAND_FAILED", Reason: "selector_not_found", Message: "flaked"}
			}
		case "lostonce": // the browser goes away under the first attempt
			if attempt == 1 {
				err = &runner.ErrorInfo{Code: runner.CodeInfra, Reason: drivers.ReasonInfrastructure, Message: "the CDP connection to the browser broke"}
			}
		case "echo":
			v, _ := p.Scope.Lookup(a.Positionals[0])
			err = &runner.ErrorInfo{Code: "COMMAND_FAILED", Reason: "assert", Message: "value is " + v}
		case "hang":
			<-ctx.Done()
			err = &runner.ErrorInfo{Code: "COMMAND_FAILED", Message: ctx.Err().Error()}
		case "stuck":
			<-r.w.stuck
		case "hangclose":
			r.d.hang = true
		case "barrier":
			if e := r.w.barrier.arrive(ctx); e != nil {
				err = &runner.ErrorInfo{Code: "COMMAND_FAILED", Message: e.Error()}
			}
		}
		if err != nil {
			step.Status = runner.StatusFailed
			err.Step, err.Line, err.Command = step.Step, step.Line, step.Command
			res.Status = runner.StatusFailed
			res.Error = err
		}
		res.Steps = append(res.Steps, step)
		if r.timing != nil {
			rec.Status, rec.Error = step.Status, err
			r.timing.EndStep(ctx, &runner.HookStep{Record: rec})
		}
		p.Steps.StepFinished(runner.StepEvent{Step: i + 1, Line: a.Line(), Command: a.Command, Action: lang.FormatAction(a), Status: step.Status, Error: err})
		if err != nil {
			break
		}
	}
	return res
}

// recorder is an Observer that keeps the order of events.
type recorder struct {
	events []string
	steps  []string // step events, apart so that the suite-level order reads plainly
}

func (r *recorder) StepStarted(e runner.StepEvent) {
	r.steps = append(r.steps, fmt.Sprintf("start %s %q attempt=%d worker=%d %d/%d line %d: %s", e.File, e.Name, e.Attempt, e.Worker, e.Step, e.Total, e.Line, e.Action))
}
func (r *recorder) StepFinished(e runner.StepEvent) {
	s := fmt.Sprintf("end %s %d %s", e.File, e.Step, e.Status)
	if e.Error != nil {
		s += " " + string(e.Error.Reason)
	}
	r.steps = append(r.steps, s)
}

func (r *recorder) SuiteStarted(e runner.SuiteStarted) {
	r.events = append(r.events, fmt.Sprintf("start total=%d workers=%d", e.Total, e.Workers))
}
func (r *recorder) AttemptFinished(e runner.AttemptFinished) {
	r.events = append(r.events, fmt.Sprintf("attempt %s %d/%d %s retry=%v", e.File, e.Attempt, e.Of, e.Result.Status, e.WillRetry))
}
func (r *recorder) TestFinished(e runner.TestFinished) {
	r.events = append(r.events, fmt.Sprintf("test [%d/%d] %s %s", e.Index, e.Total, e.Test.File, e.Test.Status))
}

// writeFiles creates files (path -> content) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func files(tests []*Test) []string {
	var out []string
	for _, t := range tests {
		s := t.File + ":" + t.Platform
		if t.SkipReason != "" {
			s += ":skip"
		}
		out = append(out, s)
	}
	return out
}

func TestDiscover(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a/z.ad":       "context platform=web\nok\n",
		"a/b/y.ad":     "context platform=web\nok\n",
		"a/x.txt":      "ignored",
		"c/android.ad": "context platform=android\nok\n",
		"c/none.ad":    "ok\n",
		"c/glob1.ad":   "context platform=web\nok\n",
	})
	tests := []struct {
		name     string
		paths    []string
		platform string
		grep     string
		want     []string
	}{
		{"directory recursive and sorted", []string{"a"}, "", "", []string{"a/b/y.ad:web", "a/z.ad:web"}},
		{"duplicates removed", []string{"a/z.ad", "a", "./a/z.ad"}, "", "", []string{"a/b/y.ad:web", "a/z.ad:web"}},
		{"glob", []string{"c/g*.ad"}, "", "", []string{"c/glob1.ad:web"}},
		{"no platform is skipped", []string{"c"}, "", "", []string{"c/android.ad:android", "c/glob1.ad:web", "c/none.ad::skip"}},
		{"--platform filters and adopts", []string{"c"}, "web", "", []string{"c/glob1.ad:web", "c/none.ad:web"}},
		{"--grep matches the path", []string{"a", "c"}, "", "/[yz]\\.ad$", []string{"a/b/y.ad:web", "a/z.ad:web"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := DiscoverOptions{Cwd: dir, Platform: tc.platform, Parse: testParse}
			if tc.grep != "" {
				opts.Grep = regexp.MustCompile(tc.grep)
			}
			got, err := Discover(tc.paths, opts)
			if err != nil {
				t.Fatal(err)
			}
			if g := strings.Join(files(got), " "); g != strings.Join(tc.want, " ") {
				t.Errorf("got  %s\nwant %s", g, strings.Join(tc.want, " "))
			}
		})
	}
}

func TestDiscoverErrors(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"s/one.ad":  "context platform=web\nok\nbad\n",
		"s/two.ad":  "bad\n",
		"s/fine.ad": "context platform=web\nok\n",
		"x.txt":     "",
	})
	tests := []struct {
		name  string
		paths []string
		want  string
	}{
		{"every parse error, nothing runs", []string{"s"}, "s/one.ad:3:1: unknown command \"bad\"\ns/two.ad:1:1: unknown command \"bad\""},
		{"missing input", []string{"nope.ad"}, "test input not found: nope.ad"},
		{"wrong extension", []string{"x.txt"}, "run does not support this file type: x.txt (expected a .ad script)"},
		{"empty glob", []string{"s/*.yaml"}, "glob matched no .ad file: s/*.yaml"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Discover(tc.paths, DiscoverOptions{Cwd: dir, Parse: testParse})
			var de *DiscoveryError
			if !errors.As(err, &de) {
				t.Fatalf("err = %v, want *DiscoveryError", err)
			}
			if err.Error() != tc.want {
				t.Errorf("got  %q\nwant %q", err.Error(), tc.want)
			}
		})
	}
}

func TestEffectiveRetriesAndTimeout(t *testing.T) {
	i := func(v int) *int { return &v }
	tests := []struct {
		name         string
		flag, header *int
		want         int
	}{
		{"default", nil, nil, 0},
		{"header", nil, i(2), 2},
		{"header capped at 3", nil, i(9), 3},
		{"flag wins", i(1), i(3), 1},
		{"flag allowed up to 10", i(10), nil, 10},
		{"flag capped at 10", i(50), nil, 10},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := effectiveRetries(tc.flag, tc.header); got != tc.want {
				t.Errorf("retries = %d, want %d", got, tc.want)
			}
		})
	}
	if got := effectiveTimeout(i(100), i(5000)); got != 100 {
		t.Errorf("timeout flag should win: %d", got)
	}
	if got := effectiveTimeout(nil, i(5000)); got != 5000 {
		t.Errorf("timeout header: %d", got)
	}
}

// runSuite discovers files and runs them against w.
func runSuite(t *testing.T, w *world, fs map[string]string, cfg Config, disc DiscoverOptions) (*runner.Result, *recorder, string) {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, fs)
	disc.Cwd, disc.Parse = dir, testParse
	tests, err := Discover([]string{"."}, disc)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	cfg.Listener = rec
	if cfg.RunDir == "" {
		cfg.RunDir = filepath.Join(dir, ".adtest", "run1")
	}
	cfg.Providers = func(ctx context.Context, p string) (drivers.Provider, error) { return w, nil }
	cfg.NewReplayer = func(d drivers.Driver, ac AttemptContext) Replayer {
		return &fakeReplayer{w: w, d: fakeOf(d), timing: ac.Timing}
	}
	res, err := Run(context.Background(), cfg, tests)
	if err != nil {
		t.Fatal(err)
	}
	return res, rec, dir
}

func statuses(r *runner.Result) string {
	var out []string
	for _, t := range r.Tests {
		s := fmt.Sprintf("%s=%s/%d", t.File, t.Status, len(t.Attempts))
		if t.Reason != "" {
			s += "(" + t.Reason + ")"
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

func TestRunStatusesAndRetries(t *testing.T) {
	w := newWorld(t)
	res, rec, _ := runSuite(t, w, map[string]string{
		"a_pass.ad":  "context platform=web\nok\nok\n",
		"b_fail.ad":  "context platform=web retries=1\nok\nfail\n",
		"c_flaky.ad": "context platform=web retries=2\nflaky\n",
		"d_skip.ad":  "ok\n",
	}, Config{Workers: 1}, DiscoverOptions{})
	want := "a_pass.ad=passed/1 b_fail.ad=failed/2 c_flaky.ad=flaky/2 d_skip.ad=skipped/0(missing platform metadata: add `context platform=web` (or android) or pass --platform)"
	if got := statuses(res); got != want {
		t.Errorf("statuses\ngot  %s\nwant %s", got, want)
	}
	wantStats := runner.Stats{Total: 4, Passed: 1, Failed: 1, Flaky: 1, Skipped: 1}
	if res.Stats != wantStats {
		t.Errorf("stats = %+v, want %+v", res.Stats, wantStats)
	}
	wantEvents := []string{
		"start total=4 workers=1",
		"test [1/4] d_skip.ad skipped",
		"attempt a_pass.ad 1/1 passed retry=false",
		"test [2/4] a_pass.ad passed",
		"attempt b_fail.ad 1/2 failed retry=true",
		"attempt b_fail.ad 2/2 failed retry=false",
		"test [3/4] b_fail.ad failed",
		"attempt c_flaky.ad 1/3 failed retry=true",
		"attempt c_flaky.ad 2/3 passed retry=false",
		"test [4/4] c_flaky.ad flaky",
	}
	if got := strings.Join(rec.events, "\n"); got != strings.Join(wantEvents, "\n") {
		t.Errorf("events\ngot:\n%s\nwant:\n%s", got, strings.Join(wantEvents, "\n"))
	}
	// Step events reach the listener with the test and attempt filled in.
	wantSteps := []string{
		`start a_pass.ad "a_pass" attempt=1 worker=0 1/0 line 2: ok`, "end a_pass.ad 1 passed",
		`start a_pass.ad "a_pass" attempt=1 worker=0 2/0 line 3: ok`, "end a_pass.ad 2 passed",
		`start b_fail.ad "b_fail" attempt=1 worker=0 1/0 line 2: ok`, "end b_fail.ad 1 passed",
		`start b_fail.ad "b_fail" attempt=1 worker=0 2/0 line 3: fail`, "end b_fail.ad 2 failed selector_not_found",
		`start b_fail.ad "b_fail" attempt=2 worker=0 1/0 line 2: ok`, "end b_fail.ad 1 passed",
		`start b_fail.ad "b_fail" attempt=2 worker=0 2/0 line 3: fail`, "end b_fail.ad 2 failed selector_not_found",
		`start c_flaky.ad "c_flaky" attempt=1 worker=0 1/0 line 2: flaky`, "end c_flaky.ad 1 failed selector_not_found",
		`start c_flaky.ad "c_flaky" attempt=2 worker=0 1/0 line 2: flaky`, "end c_flaky.ad 1 passed",
	}
	if got := strings.Join(rec.steps, "\n"); got != strings.Join(wantSteps, "\n") {
		t.Errorf("step events\ngot:\n%s\nwant:\n%s", got, strings.Join(wantSteps, "\n"))
	}
	if w.open != 0 {
		t.Errorf("%d sessions left open", w.open)
	}
	if e := res.Tests[1].Attempts[1].Error; e == nil || e.Line != 3 || e.Reason != "selector_not_found" {
		t.Errorf("failure error = %+v, want line 3 selector_not_found", e)
	}
}

func TestRunTimeouts(t *testing.T) {
	w := newWorld(t)
	res, _, _ := runSuite(t, w, map[string]string{
		"a_hang.ad":  "context platform=web timeout=50\nok\nhang\n",
		"b_stuck.ad": "context platform=web timeout=50\nstuck\n",
		"c_after.ad": "context platform=web\nok\n",
	}, Config{Workers: 1, Grace: 50e6}, DiscoverOptions{})
	want := "a_hang.ad=timedOut/1 b_stuck.ad=timedOut/1 c_after.ad=passed/1"
	if got := statuses(res); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	e := res.Tests[0].Attempts[0].Error
	if e == nil || e.Message != "TIMEOUT after 50ms" || e.Reason != "timeout" || e.Line != 3 || e.Command != "hang" {
		t.Errorf("timeout error = %+v", e)
	}
	e = res.Tests[1].Attempts[0].Error
	if e == nil || e.Reason != "timeout_cleanup_pending" || e.Details["timeoutCleanupPending"] != true {
		t.Errorf("stuck error = %+v", e)
	}
	if res.Stats.TimedOut != 2 {
		t.Errorf("stats = %+v", res.Stats)
	}
}

// A test's timeout measures the test: the session it runs on (a browser
// launch on a worker's first test) is opened under the step bound before the
// attempt's deadline starts.
func TestRunTimeoutExcludesSessionStart(t *testing.T) {
	w := newWorld(t)
	w.slowStart = 200 * time.Millisecond
	res, _, _ := runSuite(t, w, map[string]string{
		"a.ad": "context platform=web timeout=100\nok\n",
	}, Config{Workers: 1, Grace: 50e6}, DiscoverOptions{})
	if got, want := statuses(res), "a.ad=passed/1"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// A short step bound does not bound the launch (a step is not a launch).
	w3 := newWorld(t)
	w3.slowStart = 200 * time.Millisecond
	res, _, _ = runSuite(t, w3, map[string]string{
		"a.ad": "context platform=web\nok\n",
	}, Config{Workers: 1, Grace: 50e6, StepTimeout: 100 * time.Millisecond}, DiscoverOptions{})
	if got, want := statuses(res), "a.ad=passed/1"; got != want {
		t.Errorf("a session start past a short step bound: got %s, want %s", got, want)
	}
	// The start is still bounded: by its own bound.
	w2 := newWorld(t)
	w2.slowStart = time.Minute
	res, _, _ = runSuite(t, w2, map[string]string{
		"a.ad": "context platform=web timeout=100\nok\n",
	}, Config{Workers: 1, Grace: 50e6, StepTimeout: 100 * time.Millisecond, SessionStartTimeout: 100 * time.Millisecond}, DiscoverOptions{})
	if e := res.Tests[0].Attempts[0].Error; e == nil || e.Reason != drivers.ReasonSessionStart {
		t.Errorf("a session start past its bound: error = %+v", e)
	}
}

func TestRunHungTeardownIsAbandoned(t *testing.T) {
	w := newWorld(t)
	res, _, _ := runSuite(t, w, map[string]string{
		"a.ad": "context platform=web retries=2\nhangclose\nfail\n",
		"b.ad": "context platform=web\nhangclose\n",
		"c.ad": "context platform=web\nok\n",
	}, Config{Workers: 1, Grace: 50e6}, DiscoverOptions{})
	// b passed: its session closes in the background and is abandoned there.
	if got, want := statuses(res), "a.ad=failed/1 b.ad=passed/1 c.ad=passed/1"; got != want {
		t.Errorf("got  %s\nwant %s (a hung teardown is infrastructure: no retry, the suite goes on)", got, want)
	}
	if e := res.Tests[0].Attempts[0].Error; e == nil || e.Reason != "timeout_cleanup_pending" {
		t.Errorf("error = %+v", e)
	}
}

func TestRunStopsEarly(t *testing.T) {
	fs := map[string]string{
		"a.ad": "context platform=web\nfail\n",
		"b.ad": "context platform=web\nfail\n",
		"c.ad": "context platform=web\nok\n",
	}
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"fail-fast", Config{FailFast: true}, "a.ad=failed/1 b.ad=notRun/0(not run: --fail-fast stopped the run after a failure) c.ad=notRun/0(not run: --fail-fast stopped the run after a failure)"},
		{"max-failures 2", Config{MaxFailures: 2}, "a.ad=failed/1 b.ad=failed/1 c.ad=notRun/0(not run: --max-failures 2 reached)"},
		{"no limit", Config{}, "a.ad=failed/1 b.ad=failed/1 c.ad=passed/1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, _, _ := runSuite(t, newWorld(t), fs, tc.cfg, DiscoverOptions{})
			if got := statuses(res); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestRunStopsOnInfrastructure(t *testing.T) {
	w := newWorld(t)
	w.noStart = true
	res, _, _ := runSuite(t, w, map[string]string{
		"a.ad": "context platform=web retries=2\nok\n",
		"b.ad": "context platform=web\nok\n",
	}, Config{}, DiscoverOptions{})
	want := "a.ad=failed/1 b.ad=notRun/0(not run: infrastructure failure: could not start a session: infrastructure failure: browser exited)"
	if got := statuses(res); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestRunInterrupted(t *testing.T) {
	w := newWorld(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a.ad": "context platform=web\nok\n",
		"b.ad": "context platform=web\nhang\n",
		"c.ad": "context platform=web\nok\n",
	})
	tests, err := Discover([]string{"."}, DiscoverOptions{Cwd: dir, Parse: testParse})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w.onStart = func(file string) {
		if file == "b.ad" {
			cancel() // SIGINT while b is in flight
		}
	}
	res, err := Run(ctx, Config{
		Workers: 1, RunDir: filepath.Join(dir, "run"), Grace: 50e6,
		Providers: func(context.Context, string) (drivers.Provider, error) { return w, nil },
		NewReplayer: func(d drivers.Driver, ac AttemptContext) Replayer {
			return &fakeReplayer{w: w, d: fakeOf(d), timing: ac.Timing}
		},
	}, tests)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := statuses(res), "a.ad=passed/1 b.ad=notRun/1(interrupted) c.ad=notRun/0(interrupted)"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if !res.Interrupted || res.Stats.NotRun != 2 {
		t.Errorf("interrupted=%v stats=%+v", res.Interrupted, res.Stats)
	}
	if w.open != 0 {
		t.Errorf("%d sessions left open after interrupt", w.open)
	}
}

func TestRunWorkersInParallel(t *testing.T) {
	// Four tests wait at a barrier that opens only when all four have
	// arrived: with -j 4 they pass; a serial runner would time out.
	w := newWorld(t)
	w.barrier = &barrier{need: 4, ch: make(chan struct{})}
	fs := map[string]string{}
	for i := range 4 {
		fs[fmt.Sprintf("t%d.ad", i)] = "context platform=web timeout=5000\nbarrier\n"
	}
	res, _, _ := runSuite(t, w, fs, Config{Workers: 4}, DiscoverOptions{})
	if got, want := statuses(res), "t0.ad=passed/1 t1.ad=passed/1 t2.ad=passed/1 t3.ad=passed/1"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if w.maxOpen != 4 {
		t.Errorf("max concurrent sessions = %d, want 4 (one per worker)", w.maxOpen)
	}
	workers := map[int]bool{}
	for _, tr := range res.Tests {
		workers[tr.Attempts[0].Worker] = true
	}
	if len(workers) != 4 {
		t.Errorf("tests ran on %d workers, want 4", len(workers))
	}
}

func TestRunFasterWorkerTakesMore(t *testing.T) {
	// a.ad blocks its worker until the four quick tests have run: the other
	// worker takes all of them from the shared queue.
	w := newWorld(t)
	w.gate = make(chan struct{})
	res, _, _ := runSuite(t, w, map[string]string{
		"a.ad": "context platform=web timeout=5000\nwaitothers\n",
		"b.ad": "context platform=web\nok\n",
		"c.ad": "context platform=web\nok\n",
		"d.ad": "context platform=web\nok\n",
		"e.ad": "context platform=web\nok\n",
	}, Config{Workers: 2}, DiscoverOptions{})
	if got, want := statuses(res), "a.ad=passed/1 b.ad=passed/1 c.ad=passed/1 d.ad=passed/1 e.ad=passed/1"; got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	slow := res.Tests[0].Attempts[0].Worker
	for _, tr := range res.Tests[1:] {
		if tr.Attempts[0].Worker == slow {
			t.Errorf("%s ran on the busy worker %d", tr.File, slow)
		}
	}
}

func TestRunPrefetch(t *testing.T) {
	// With prefetching a worker opens its next session while a test runs;
	// no session is opened after the last attempt, and none is left open.
	w := newWorld(t)
	res, _, _ := runSuite(t, w, map[string]string{
		// a runs until the next session was opened for b.
		"a.ad": "context platform=web timeout=2000\nwaitcreated 2\n",
		"b.ad": "context platform=web retries=1\nflaky\n",
		"c.ad": "context platform=web\nok\n",
	}, Config{Workers: 1, Prefetch: map[string]bool{"web": true}}, DiscoverOptions{})
	if got, want := statuses(res), "a.ad=passed/1 b.ad=flaky/2 c.ad=passed/1"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if w.created != 4 || w.open != 0 {
		t.Errorf("sessions created %d (want 4: one per attempt), open after the run %d", w.created, w.open)
	}
}

// A retry asks for a session that shares nothing with the attempts before
// it, and does not take the one opened ahead of it when that one shares
// the worker's state (a web worker's warm browser context).
func TestRunRetryIsFresh(t *testing.T) {
	for _, warm := range []bool{false, true} {
		w := newWorld(t)
		w.warm = warm
		res, _, _ := runSuite(t, w, map[string]string{
			"a.ad": "context platform=web\nok\n",
			"b.ad": "context platform=web retries=1\nflaky\n",
			"c.ad": "context platform=web\nok\n",
		}, Config{Workers: 1, Prefetch: map[string]bool{"web": true}}, DiscoverOptions{})
		if got, want := statuses(res), "a.ad=passed/1 b.ad=flaky/2 c.ad=passed/1"; got != want {
			t.Errorf("got  %s\nwant %s", got, want)
		}
		// Four attempts. A warm session opened ahead for the retry is not
		// taken: the retry opens one more, Fresh. One that shares nothing
		// is.
		wantCreated, wantFresh := 4, 0
		if warm {
			wantCreated, wantFresh = 5, 1
		}
		if w.fresh != wantFresh || w.created != wantCreated || w.open != 0 {
			t.Errorf("warm %v: sessions asked Fresh %d (want %d), created %d (want %d), open after the run %d", warm, w.fresh, wantFresh, w.created, wantCreated, w.open)
		}
	}
}

func TestRunDevicesOneWorkerEach(t *testing.T) {
	w := newWorld(t)
	res, _, _ := runSuite(t, w, map[string]string{
		"a.ad": "context platform=web\nok\n",
		"b.ad": "context platform=web\nok\n",
	}, Config{Workers: 8, Devices: []string{"emulator-5554"}}, DiscoverOptions{})
	for _, tr := range res.Tests {
		if a := tr.Attempts[0]; a.Device != "emulator-5554" || a.Worker != 0 {
			t.Errorf("%s ran on worker %d device %q", tr.File, a.Worker, a.Device)
		}
	}
}

func TestArtifacts(t *testing.T) {
	w := newWorld(t)
	fs := map[string]string{
		"dir/Login Flow.ad": "context platform=web retries=1\nenv API_TOKEN=s3cr3t-value\nenv PLAIN=visible\necho API_TOKEN\n",
	}
	dir := t.TempDir()
	runDir := filepath.Join(dir, "run")
	var res *runner.Result
	for range 2 { // the same run dir twice: nothing is overwritten
		res, _, _ = runSuite(t, w, fs, Config{RunDir: runDir, RunID: "r1"}, DiscoverOptions{})
	}
	var got []string
	filepath.WalkDir(runDir, func(p string, d os.DirEntry, err error) error {
		if !d.IsDir() {
			rel, _ := filepath.Rel(runDir, p)
			got = append(got, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(got)
	var want []string
	for _, a := range []string{"attempt-1", "attempt-1~2", "attempt-2", "attempt-2~2"} {
		for _, f := range []string{"failure.png", "log.txt", "result.json", "script.ad", "snapshot.json", "snapshot.txt", "timing.ndjson"} {
			want = append(want, "dir__login-flow.ad/"+a+"/"+f)
		}
	}
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("files\ngot:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Secrets are masked everywhere; other values are not.
	a := res.Tests[0].Attempts[0]
	if a.Error.Message != "value is ***" {
		t.Errorf("message = %q", a.Error.Message)
	}
	for _, f := range got {
		b, _ := os.ReadFile(filepath.Join(runDir, f))
		if strings.Contains(string(b), "s3cr3t-value") {
			t.Errorf("%s leaks the secret", f)
		}
	}
	script, _ := os.ReadFile(filepath.Join(runDir, "dir__login-flow.ad/attempt-1/script.ad"))
	if !strings.Contains(string(script), "env API_TOKEN=***\nenv PLAIN=visible") {
		t.Errorf("script.ad = %q", script)
	}
	// timing.ndjson: attempt start, step start/stop, attempt stop.
	tb, _ := os.ReadFile(filepath.Join(runDir, "dir__login-flow.ad/attempt-1/timing.ndjson"))
	var events []string
	for _, line := range strings.Split(strings.TrimSpace(string(tb)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("bad ndjson line %q: %v", line, err)
		}
		events = append(events, fmt.Sprint(m["event"]))
	}
	if got, want := strings.Join(events, " "), "attempt_start step_start step_stop attempt_stop"; got != want {
		t.Errorf("timing events = %s, want %s", got, want)
	}
	if a.Screenshot == "" || !strings.HasSuffix(a.Screenshot, "attempt-1~2/failure.png") {
		t.Errorf("screenshot = %q", a.Screenshot)
	}
}

func TestArtifactsShortSecretKeepsJSONValid(t *testing.T) {
	// A one-character secret must not corrupt numbers in JSON artifacts.
	w := newWorld(t)
	dir := t.TempDir()
	runDir := filepath.Join(dir, "run")
	runSuite(t, w, map[string]string{"a.ad": "context platform=web\nfail\n"},
		Config{RunDir: runDir, CLIVars: map[string]string{"PIN": "1"}, MaskNames: []string{"PIN"}}, DiscoverOptions{})
	n := 0
	filepath.WalkDir(runDir, func(p string, d os.DirEntry, err error) error {
		if d.IsDir() || !strings.HasSuffix(p, "json") {
			return nil
		}
		b, _ := os.ReadFile(p)
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if strings.HasSuffix(p, ".ndjson") && !json.Valid([]byte(line)) {
				t.Errorf("%s: invalid line %q", p, line)
			}
		}
		if !strings.HasSuffix(p, ".ndjson") && !json.Valid(b) {
			t.Errorf("%s is not valid JSON", p)
		}
		n++
		return nil
	})
	if n != 3 {
		t.Errorf("checked %d JSON files, want 3 (result, snapshot, timing)", n)
	}
}

func TestShard(t *testing.T) {
	var tests []*Test
	for i := range 7 {
		tests = append(tests, &Test{File: fmt.Sprintf("t%d.ad", i)})
	}
	names := func(ts []*Test) string {
		var out []string
		for _, t := range ts {
			out = append(out, t.File)
		}
		return strings.Join(out, ",")
	}
	cases := []struct {
		name    string
		weights Weights
		want    []string
	}{
		{"round robin without weights", nil, []string{"t0.ad,t3.ad,t6.ad", "t1.ad,t4.ad", "t2.ad,t5.ad"}},
		{"longest first onto the least loaded", Weights{"t0.ad": 100, "t1.ad": 60, "t2.ad": 50, "t3.ad": 40, "t4.ad": 10, "t5.ad": 10, "t6.ad": 10},
			[]string{"t0.ad", "t1.ad,t4.ad,t5.ad,t6.ad", "t2.ad,t3.ad"}}, // loads 100, 90, 90
		{"unknown files get the median", Weights{"t0.ad": 100, "t1.ad": 1, "t2.ad": 2},
			[]string{"t0.ad", "t2.ad,t4.ad,t6.ad", "t1.ad,t3.ad,t5.ad"}}, // median 2
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			seen := map[string]int{}
			for i := 1; i <= 3; i++ {
				got := Shard(tests, ShardSpec{Index: i, Count: 3}, tc.weights)
				if names(got) != tc.want[i-1] {
					t.Errorf("shard %d = %s, want %s", i, names(got), tc.want[i-1])
				}
				for _, x := range got {
					seen[x.File]++
				}
			}
			for _, x := range tests {
				if seen[x.File] != 1 {
					t.Errorf("%s is in %d shards, want exactly 1", x.File, seen[x.File])
				}
			}
		})
	}
}

func TestParseShard(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
	}{
		{"1/4", "1/4"}, {"4/4", "4/4"},
		{"0/4", `invalid --shard "0/4": expected I/N with 1 <= I <= N, e.g. 2/4`},
		{"5/4", `invalid --shard "5/4": expected I/N with 1 <= I <= N, e.g. 2/4`},
		{"x", `invalid --shard "x": expected I/N with 1 <= I <= N, e.g. 2/4`},
	} {
		s, err := ParseShard(tc.in)
		got := s.String()
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("ParseShard(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestMerge(t *testing.T) {
	t0 := mustTime(t, "2026-01-01T10:00:00Z")
	r1 := &runner.Result{Version: 1, StartedAt: t0, DurationMs: 5000, Shard: "1/2", Tests: []runner.TestResult{
		{File: "b.ad", Status: runner.StatusFailed}, {File: "d.ad", Status: runner.StatusFlaky}}}
	r2 := &runner.Result{Version: 1, StartedAt: t0.Add(time.Second), DurationMs: 7000, Shard: "2/2", Tests: []runner.TestResult{
		{File: "a.ad", Status: runner.StatusPassed}, {File: "c.ad", Status: runner.StatusTimedOut}}}
	m, err := Merge([]*runner.Result{r1, r2})
	if err != nil {
		t.Fatal(err)
	}
	if got := statuses(m); got != "a.ad=passed/0 b.ad=failed/0 c.ad=timedOut/0 d.ad=flaky/0" {
		t.Errorf("merged = %s", got)
	}
	if m.DurationMs != 8000 || !m.StartedAt.Equal(t0) {
		t.Errorf("span = %v + %dms", m.StartedAt, m.DurationMs)
	}
	if want := (runner.Stats{Total: 4, Passed: 1, Failed: 1, Flaky: 1, TimedOut: 1}); m.Stats != want {
		t.Errorf("stats = %+v", m.Stats)
	}
	if _, err := Merge([]*runner.Result{r1, r1}); err == nil || err.Error() != "b.ad appears in result 1 and result 2: shards must be disjoint" {
		t.Errorf("duplicate err = %v", err)
	}
}

func TestMasker(t *testing.T) {
	m := drivers.NewMasker([]string{"abc", "abcdef", ""})
	if got := m.String("x abcdef y abc"); got != "x *** y ***" {
		t.Errorf("got %q", got)
	}
	for _, n := range []string{"API_TOKEN", "DB_PASSWORD", "MY_SECRET", "APIKEY", "api_key"} {
		if !IsSecretName(n) {
			t.Errorf("%s should be secret", n)
		}
	}
	details := map[string]any{"candidates": []map[string]any{{"label": "abcdef"}}, "n": 3}
	e := &runner.ErrorInfo{Details: details}
	e.Mask(m)
	b, _ := json.Marshal(e.Details)
	if string(b) != `{"candidates":[{"label":"***"}],"n":3}` {
		t.Errorf("details = %s", b)
	}
	if IsSecretName("USERNAME") {
		t.Error("USERNAME is not secret")
	}
}

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestInfraRetries: a test whose browser went away under it (a Grid node
// lost) runs again when the run allows infrastructure retries, and is then
// flaky; without them it fails; a test's own failure never gets one.
func TestInfraRetries(t *testing.T) {
	files := map[string]string{"lost.ad": "context platform=web\nlostonce\n", "fail.ad": "context platform=web\nfail\n"}
	for _, tc := range []struct {
		retries int
		want    string
	}{
		{0, "fail.ad=failed/1 lost.ad=failed/1"},
		{2, "fail.ad=failed/1 lost.ad=flaky/2"},
	} {
		w := newWorld(t)
		res, _, _ := runSuite(t, w, files, Config{Workers: 1, InfraRetries: tc.retries}, DiscoverOptions{})
		if got := statuses(res); got != tc.want {
			t.Errorf("InfraRetries %d: got %s, want %s", tc.retries, got, tc.want)
		}
	}
}
