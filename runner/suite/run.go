package suite

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner"
	"github.com/adtest/adtest/runner/trace"
)

// Replayer executes one script in one driver session: the seam between the
// suite runner and the step executor (runner.Session in production, a test
// double in tests).
type Replayer interface {
	Replay(ctx context.Context, s *lang.Script, p ReplayParams) runner.AttemptResult
	// Evidence is the session's evidence of a failure (runner.Session's),
	// the values of mask painted over in its screenshot.
	Evidence(ctx context.Context, mask []string) runner.Evidence
	// Close ends the session; the session owns its driver and closes it.
	Close(ctx context.Context) error
}

// ReplayParams are handed to a Replayer for one attempt.
type ReplayParams struct {
	Scope   *lang.Scope
	Secrets []string
	// Steps hears each step start and finish (never nil when the scheduler
	// calls a Replayer).
	Steps runner.Observer
	// StepTimeout bounds every step (Config.StepTimeout).
	StepTimeout time.Duration
}

// AttemptContext tells a Replayer which attempt it runs.
type AttemptContext struct {
	File         string
	Platform     string
	ArtifactsDir string
	Attempt      int
	Worker       int
	// Timing writes the attempt's steps to timing.ndjson (nil: none); it
	// encloses the other hooks.
	Timing runner.StepHook
	// Trace records the attempt's steps (nil: no trace; trace.Trace).
	Trace *trace.Trace
	// Journal hears every step of the attempt's session (nil: none;
	// --annotate).
	Journal runner.Journal
}

// NewReplayerFunc binds a Replayer to a fresh driver session.
type NewReplayerFunc func(d drivers.Driver, a AttemptContext) Replayer

// ProviderFunc opens the warm helper of a platform (one per run).
type ProviderFunc func(ctx context.Context, platform string) (drivers.Provider, error)

// SnapshotFormatter renders a snapshot as `snapshot` prints it.
type SnapshotFormatter func(s *drivers.Snapshot) string

// Config configures a suite run.
type Config struct {
	// Workers is the number of parallel workers (>= 1). With Devices, one
	// worker per device is used instead.
	Workers int
	Devices []string

	FailFast    bool
	MaxFailures int // 0: no limit

	// RunDir is the artifacts directory of this run (<root>/<run-id>).
	RunDir string
	// Cwd is the caller's working directory: artifact paths in the result
	// are shown relative to it.
	Cwd   string
	RunID string
	Shard ShardSpec

	// Vars: -e values and AD_VAR_* values (prefix stripped).
	CLIVars     map[string]string
	ProcessVars map[string]string
	// MaskNames are extra variable names whose values are secret (--mask).
	MaskNames []string
	// BlankPictures paints every picture over whole (failure screenshots,
	// trace pictures, repair screens): --mask-screenshots=all.
	BlankPictures bool
	BaseURL       string

	Providers ProviderFunc
	// NewReplayer binds each attempt's session (RunnerReplayer when nil);
	// FormatSnapshot renders snapshot.txt (FormatSnapshot, as `snapshot`
	// prints, when nil).
	NewReplayer    NewReplayerFunc
	FormatSnapshot SnapshotFormatter
	Listener       runner.Observer
	// Prefetch lists the platforms whose next session a worker opens while
	// its current test runs (web: a fresh browser context is independent of
	// the one in use). Never for devices, where a new session relaunches the
	// app under the running test.
	Prefetch map[string]bool

	// Now is the clock for timestamps and durations (time.Now by default).
	Now func() time.Time
	// Grace bounds how long a cancelled attempt and a session teardown may
	// take before they are abandoned (5 s by default: closing a browser
	// context takes several round trips, up to 1.5 s seen on a loaded 2-core
	// machine, and chromedp bounds its own close at 5 s).
	Grace time.Duration

	// StepTimeout bounds every step of every attempt (DefaultStepTimeout
	// when 0): a step that outlives it fails with reason step_timeout, its
	// session is torn down and the suite goes on. The hard per-attempt
	// deadline (Test.TimeoutMs) is separate.
	StepTimeout time.Duration
	// SessionStartTimeout bounds opening an attempt's session (when 0: the
	// step bound or DefaultSessionStartTimeout, whichever is longer).
	SessionStartTimeout time.Duration
	// RepeatEach runs every test this many times (RepeatEach), when > 1.
	RepeatEach int
	// Order is the order several workers take the tests in (schedule.go;
	// OrderLongestFirst when empty), Durations each file's expected
	// duration in ms (the last run's; the rest are estimated).
	Order     Order
	Durations Weights
	// Trace says which attempts keep a trace of their steps ("" = off;
	// trace.go). TraceDefault has each test take its platform's default
	// (trace.DefaultMode) instead.
	Trace        trace.Mode
	TraceDefault bool
	// InfraRetries is how many more attempts a test gets when its browser
	// went away under it (an attempt failed as infrastructure, not on a
	// device): a Grid node lost mid-test, its test run again on a new
	// session. These attempts come on top of the test's own retries; a
	// test that then passes is flaky.
	InfraRetries int
	// Repair, when set, repairs a failed test's target divergence
	// (--repair; repair.go).
	Repair *RepairConfig
	// Annotate, when set, annotates each passed test's selector steps with
	// target-v1 evidence (--annotate; annotate.go).
	Annotate *AnnotateConfig
}

// DefaultStepTimeout is the step bound when Config.StepTimeout is 0 (as
// agent-device bounds every request).
const DefaultStepTimeout = 60 * time.Second

// DefaultSessionStartTimeout bounds opening an attempt's session (a browser
// or device helper start on a worker's first test) when the step bound is
// shorter: a launch is not a step.
const DefaultSessionStartTimeout = 60 * time.Second

// sessionStartBound is the bound of opening an attempt's session.
func (c Config) sessionStartBound() time.Duration {
	if c.SessionStartTimeout > 0 {
		return c.SessionStartTimeout
	}
	return max(c.StepTimeout, DefaultSessionStartTimeout)
}

// lostDevice reports a test whose last attempt lost its device.
func lostDevice(res runner.TestResult) bool {
	if n := len(res.Attempts); n > 0 {
		return res.Attempts[n-1].Error.Unavailable()
	}
	return false
}

// deviceLost counts a device whose worker stopped; when none is left the
// rest of the suite is not run.
func (s *scheduler) deviceLost(device string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lost++
	if s.lost >= len(s.cfg.Devices) && s.stopped == "" {
		s.stopped = "not run: infrastructure failure: every device is gone (last: " + device + ")"
	}
}

// ErrNoProvider wraps drivers.ErrInfrastructure for a platform without driver.
var ErrNoProvider = fmt.Errorf("%w: no driver for platform", drivers.ErrInfrastructure)

// Run runs tests and returns the result. The error is non-nil only when the
// run could not start (a helper could not be opened); it then wraps the
// provider's error (drivers.ErrInfrastructure for a missing browser). An
// interrupted ctx stops the run: in-flight attempts are cancelled, the rest
// is notRun and Result.Interrupted is set.
func Run(ctx context.Context, cfg Config, tests []*Test) (*runner.Result, error) {
	tests = RepeatEach(tests, cfg.RepeatEach)
	s := newScheduler(cfg, tests)
	if err := s.openProviders(ctx); err != nil {
		s.closeProviders()
		return nil, err
	}
	defer s.closeProviders()
	return s.run(ctx), nil
}

type scheduler struct {
	cfg   Config
	tests []*Test
	order []int // the order the workers take tests in (takeOrder)
	now   func() time.Time
	grace time.Duration

	providers map[string]drivers.Provider
	bg        sync.WaitGroup // background teardowns of passed attempts

	mu       sync.Mutex // guards below and serialises listener calls
	next     int
	finished int
	failures int
	stopped  string // reason the queue stopped early
	results  []runner.TestResult
	done     []bool
	executed int // running count of tests started, for session names
	lost     int // devices whose worker stopped after losing them
}

func newScheduler(cfg Config, tests []*Test) *scheduler {
	s := &scheduler{cfg: cfg, tests: tests, now: cfg.Now, grace: cfg.Grace}
	if s.now == nil {
		s.now = time.Now
	}
	if s.grace <= 0 {
		s.grace = 5 * time.Second
	}
	if s.cfg.Workers < 1 {
		s.cfg.Workers = 1
	}
	if len(cfg.Devices) > 0 {
		s.cfg.Workers = len(cfg.Devices)
	}
	if s.cfg.NewReplayer == nil {
		s.cfg.NewReplayer = RunnerReplayer
	}
	if s.cfg.FormatSnapshot == nil {
		s.cfg.FormatSnapshot = FormatSnapshot
	}
	if s.cfg.StepTimeout <= 0 {
		s.cfg.StepTimeout = DefaultStepTimeout
	}
	s.results = make([]runner.TestResult, len(tests))
	s.done = make([]bool, len(tests))
	s.order = takeOrder(tests, s.cfg.Workers, s.cfg.Order, s.cfg.Durations)
	return s
}

func (s *scheduler) openProviders(ctx context.Context) error {
	s.providers = map[string]drivers.Provider{}
	var platforms []string
	seen := map[string]bool{}
	for _, t := range s.tests {
		// One provider a platform: a provider opened twice would leave the
		// first one unclosed (and, on a Grid, its session held).
		if t.SkipReason == "" && !seen[t.Platform] {
			seen[t.Platform] = true
			platforms = append(platforms, t.Platform)
		}
	}
	sort.Strings(platforms)
	for _, p := range platforms {
		if s.cfg.Providers == nil {
			return fmt.Errorf("%w %q", ErrNoProvider, p)
		}
		prov, err := s.cfg.Providers(ctx, p)
		if err != nil {
			delete(s.providers, p)
			return err
		}
		s.providers[p] = prov
	}
	return nil
}

// releaseWorker gives back what a worker without more tests holds (a Grid's
// slot: drivers.WorkerReleaser). Its sessions still closing in the
// background end with it.
func (s *scheduler) releaseWorker(worker int) {
	for _, p := range s.providers {
		if r, ok := p.(drivers.WorkerReleaser); ok {
			r.ReleaseWorker(worker)
		}
	}
}

func (s *scheduler) closeProviders() {
	for _, p := range s.providers {
		if p != nil {
			p.Close()
		}
	}
}

func (s *scheduler) run(ctx context.Context) *runner.Result {
	start := s.now()
	s.emitStart(start)
	// Skipped entries finish first, in order.
	for i, t := range s.tests {
		if t.SkipReason != "" {
			s.finish(i, runner.TestResult{
				File: t.File, Name: t.Name, Platform: t.Platform,
				Status: runner.StatusSkipped, Reason: t.SkipReason,
				Attempts: []runner.AttemptResult{},
			})
		}
	}
	var wg sync.WaitGroup
	for w := 0; w < s.cfg.Workers; w++ {
		wg.Add(1)
		go func(worker int) {
			defer wg.Done()
			device := ""
			if worker < len(s.cfg.Devices) {
				device = s.cfg.Devices[worker]
			}
			ws := &workerState{}
			defer s.releaseWorker(worker)
			defer s.dropPrefetched(ws)
			for {
				i, ok := s.take(ctx)
				if !ok {
					return
				}
				res := s.runTest(ctx, ws, worker, device, i)
				s.finish(i, res)
				if device != "" && len(s.cfg.Devices) > 1 && lostDevice(res) {
					s.deviceLost(device)
					return // its device is gone: this worker takes no more tests
				}
			}
		}(w)
	}
	wg.Wait()
	s.bg.Wait() // background teardowns, each bounded by the grace period

	res := &runner.Result{
		Version:   1,
		StartedAt: start,
		Shard:     s.cfg.Shard.String(),
	}
	reason := s.stopped
	if ctx.Err() != nil {
		res.Interrupted = true
		reason = string(drivers.ReasonInterrupted)
	}
	for i, t := range s.tests {
		if !s.done[i] {
			s.results[i] = runner.TestResult{
				File: t.File, Name: t.Name, Platform: t.Platform,
				Status: runner.StatusNotRun, Reason: reason,
				Attempts: []runner.AttemptResult{},
			}
		}
	}
	res.Tests = s.results
	res.Stats = ComputeStats(res.Tests)
	res.DurationMs = s.now().Sub(start).Milliseconds()
	return res
}

// browserLost reports an attempt that failed because its browser went away
// (not a device: a device's worker does not get it back by retrying).
func browserLost(ar runner.AttemptResult, device string) bool {
	return device == "" && ar.Status != runner.StatusPassed && ar.Error != nil && ar.Error.Reason == drivers.ReasonInfrastructure
}

// ComputeStats counts tests by final status.
func ComputeStats(tests []runner.TestResult) runner.Stats {
	st := runner.Stats{Total: len(tests)}
	for _, t := range tests {
		switch t.Status {
		case runner.StatusPassed:
			st.Passed++
		case runner.StatusFailed:
			st.Failed++
		case runner.StatusFlaky:
			st.Flaky++
		case runner.StatusSkipped:
			st.Skipped++
		case runner.StatusTimedOut:
			st.TimedOut++
		case runner.StatusNotRun:
			st.NotRun++
		}
	}
	return st
}

func (s *scheduler) emitStart(start time.Time) {
	if s.cfg.Listener == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cfg.Listener.SuiteStarted(runner.SuiteStarted{
		StartedAt: start, Total: len(s.tests), Workers: s.cfg.Workers, Shard: s.cfg.Shard.String(),
	})
}

// take hands the next runnable test (in s.order) to a worker; a faster
// worker simply comes back sooner and takes more.
func (s *scheduler) take(ctx context.Context) (int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for s.next < len(s.order) {
		if ctx.Err() != nil || s.stopped != "" {
			return 0, false
		}
		i := s.order[s.next]
		s.next++
		if s.tests[i].SkipReason != "" {
			continue
		}
		s.executed++
		return i, true
	}
	return 0, false
}

func (s *scheduler) finish(i int, res runner.TestResult) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if res.Status == runner.StatusNotRun {
		// Interrupted while running: reported with the unfinished tests.
		s.results[i] = res
		s.done[i] = true
		return
	}
	s.results[i] = res
	s.done[i] = true
	s.finished++
	if n := len(res.Attempts); n > 0 && s.stopped == "" {
		if e := res.Attempts[n-1].Error; e != nil && e.Reason == drivers.ReasonSessionStart && len(s.cfg.Devices) <= 1 {
			// The browser or device is gone: the rest cannot run either.
			// (With several devices only that device's worker stops.)
			s.stopped = "not run: infrastructure failure: " + e.Message
		}
	}
	if res.Status == runner.StatusFailed || res.Status == runner.StatusTimedOut {
		s.failures++
		if s.cfg.FailFast && s.stopped == "" {
			s.stopped = "not run: --fail-fast stopped the run after a failure"
		}
		if s.cfg.MaxFailures > 0 && s.failures >= s.cfg.MaxFailures && s.stopped == "" {
			s.stopped = fmt.Sprintf("not run: --max-failures %d reached", s.cfg.MaxFailures)
		}
	}
	if s.cfg.Listener != nil {
		s.cfg.Listener.TestFinished(runner.TestFinished{Index: s.finished, Total: len(s.tests), Test: res})
	}
}

func (s *scheduler) emitAttempt(ev runner.AttemptFinished) {
	if s.cfg.Listener == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cfg.Listener.AttemptFinished(ev)
}

func (s *scheduler) runTest(ctx context.Context, ws *workerState, worker int, device string, i int) runner.TestResult {
	t := s.tests[i]
	s.mu.Lock()
	n := s.executed
	s.mu.Unlock()
	tr := runner.TestResult{File: t.File, Name: t.Name, Platform: t.Platform}
	max := t.Retries + 1
	extra := s.cfg.InfraRetries
	var total int64
	for a := 1; a <= max; a++ {
		ar, infra := s.runAttempt(ctx, t, attemptInfo{worker: worker, device: device, attempt: a, max: max, n: n, ws: ws})
		total += ar.DurationMs
		tr.Attempts = append(tr.Attempts, ar)
		if ctx.Err() != nil && ar.Status != runner.StatusPassed {
			tr.Status = runner.StatusNotRun
			tr.Reason = string(drivers.ReasonInterrupted)
			break
		}
		retry := ar.Status != runner.StatusPassed && !infra && a < max
		if !retry && extra > 0 && browserLost(ar, device) {
			extra--
			max++
			retry = true
		}
		s.emitAttempt(runner.AttemptFinished{File: t.File, Name: t.Name, Attempt: a, Of: max, Result: ar, WillRetry: retry})
		if !retry {
			break
		}
	}
	tr.DurationMs = total
	if tr.Status == "" {
		last := tr.Attempts[len(tr.Attempts)-1].Status
		switch {
		case last == runner.StatusPassed && len(tr.Attempts) > 1:
			tr.Status = runner.StatusFlaky
		default:
			tr.Status = last
		}
	}
	return tr
}
