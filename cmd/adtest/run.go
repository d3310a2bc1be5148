package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/adtest/adtest/cmd/internal/cmdline"
	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/drivers/web"
	exampleweb "github.com/adtest/adtest/examples/web"
	"github.com/adtest/adtest/internal/atomicfile"
	"github.com/adtest/adtest/internal/scriptpath"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/reporters"
	"github.com/adtest/adtest/runner"
	"github.com/adtest/adtest/runner/suite"
)

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// optInt is an int flag that remembers whether it was given.
type optInt struct{ v *int }

func (o *optInt) String() string {
	if o.v == nil {
		return ""
	}
	return fmt.Sprint(*o.v)
}
func (o *optInt) Set(s string) error {
	var n int
	if _, err := fmt.Sscan(s, &n); err != nil || fmt.Sprint(n) != s {
		return fmt.Errorf("not an integer: %q", s)
	}
	o.v = &n
	return nil
}

type runFlags struct {
	vars, reporters, devices, masks   listFlag
	platform, grep                    string
	retries, timeout                  optInt
	failFast, failOnFlaky, noColor    bool
	maxFailures, workers              int
	shard, shardWeights, artifactsDir string
	browser, cdpURL, adbServer        string
	grid                              gridFlags
	gridOpts                          *web.GridOptions // decided by planRun
	browserPerWorker                  bool
	isolation                         string
	order                             string
	serve, webServer, webServerURL    string
	serveExample, reuseWebServer      bool
	fakeDevice                        string
	androidSnapshot                   string
	maskScreenshots                   string
	debug                             bool
	paths                             []string
	stepTimeout, repeatEach           int
	// --last-failed, --list, --test-list
	lastFailed, list bool
	testList         string
	trace            traceFlag
	// --repair (repair.go)
	repair repairFlags
}

// hiddenFlags are test-only and left out of the usage text.
var hiddenFlags = map[string]bool{"fake-device": true}

func hiddenFlagNames() []string { return slices.Sorted(maps.Keys(hiddenFlags)) }

func runFlagSet(f *runFlags, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("adtest run", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Var(&f.vars, "e", "set a script variable `KEY=VALUE` (repeatable; AD_VAR_KEY from the environment too)")
	fs.StringVar(&f.platform, "platform", "", "run only files declaring `PLATFORM` (web, android); files without `context platform=` run on it")
	fs.StringVar(&f.grep, "grep", "", "run only files whose path matches `REGEX`")
	fs.Var(&f.retries, "retries", "retry a failed test up to `N` times (0-10; overrides `context retries=`)")
	fs.Var(&f.timeout, "timeout", "hard wall-clock deadline per attempt in `MS` (overrides `context timeout=`)")
	fs.IntVar(&f.stepTimeout, "step-timeout", int(suite.DefaultStepTimeout.Milliseconds()), "bound of every single step in `MS`; a step that outlives it fails (step_timeout) and the suite goes on")
	fs.IntVar(&f.repeatEach, "repeat-each", 1, "run every test `N` times, each repetition its own entry \"name [k/N]\" (hunt flaky scripts)")
	f.trace.m = defaultTrace
	fs.Var(&f.trace, "trace", traceUsage)
	fs.BoolVar(&f.failFast, "fail-fast", false, "stop after the first failed test; the rest are notRun")
	fs.IntVar(&f.maxFailures, "max-failures", 0, "stop after `N` failed tests")
	fs.BoolVar(&f.failOnFlaky, "fail-on-flaky", false, "exit 1 when a test passed only on retry")
	fs.IntVar(&f.workers, "j", 1, "run `N` tests in parallel")
	fs.IntVar(&f.workers, "workers", 1, "run `N` tests in parallel (same as -j)")
	fs.StringVar(&f.order, "order", string(suite.OrderLongestFirst), "with several workers, take the tests in `ORDER`: longest-first (by the last run's durations, else by their steps) or file; reports keep file order")
	fs.StringVar(&f.shard, "shard", "", "run shard `I/N` of the suite (1-based)")
	fs.StringVar(&f.shardWeights, "shard-weights", "", "balance shards by the durations in a previous JSON result `FILE`")
	fs.StringVar(&f.artifactsDir, "artifacts-dir", ".adtest/artifacts", "artifacts root `DIR`; each run writes <DIR>/<run-id>/")
	fs.Var(&f.reporters, "reporter", "`NAME[=PATH]`: console, json, junit=PATH, github, html[=DIR] (repeatable; default console)")
	fs.BoolVar(&f.noColor, "no-color", false, "no colors in console output")
	fs.Var(&f.masks, "mask", "mask the value of variable `NAME` in every report (repeatable)")
	fs.StringVar(&f.maskScreenshots, "mask-screenshots", "secrets", "`WHAT` to paint over in pictures: secrets (where a secret shows), or all (every picture whole)")
	fs.StringVar(&f.browser, "browser", "", "Chromium/Chrome binary `PATH` (else ADTEST_CHROME, else PATH)")
	fs.StringVar(&f.cdpURL, "cdp-url", "", "attach to a remote browser over CDP at `URL`")
	f.grid.register(fs)
	fs.BoolVar(&f.browserPerWorker, "browser-per-worker", false, "one browser process per worker instead of one context each in a shared browser")
	fs.StringVar(&f.isolation, "isolation", web.IsolationFresh, "how a web test is kept apart from the worker's earlier ones: `MODE` fresh (a new browser context, as Playwright) or warm (experimental: the worker's context and renderer kept, cookies and site data cleared; faster)")
	fs.StringVar(&f.adbServer, "adb-server", "", "adb server `HOST:PORT` (Android)")
	fs.Var(&f.devices, "device", "run on device `SERIAL` (repeatable: one worker per device)")
	fs.StringVar(&f.androidSnapshot, "android-snapshot", "helper", "Android snapshots through the persistent `MODE`: helper (default) or dump (uiautomator dump, installs nothing)")
	fs.BoolVar(&f.debug, "debug", false, "log driver diagnostics (Android helper session events, adb commands) to stderr")
	fs.StringVar(&f.serve, "serve", "", "serve static `DIR` on 127.0.0.1 and pass its URL as AD_BASE_URL")
	fs.StringVar(&f.webServer, "web-server", "", "start `CMD` before the run (killed at the end); needs --web-server-url")
	fs.StringVar(&f.webServerURL, "web-server-url", "", "wait until `URL` answers; passed as AD_BASE_URL")
	fs.BoolVar(&f.reuseWebServer, "reuse-web-server", false, "when --web-server-url already answers, run against that server instead of refusing (the command is not started)")
	fs.BoolVar(&f.serveExample, "serve-example", false, "serve the bundled example app (examples/web) as AD_BASE_URL")
	fs.BoolVar(&f.lastFailed, "last-failed", false, "rerun only the tests that failed, timed out or did not run in the previous run (.adtest/last-run.json; each shard keeps its own)")
	fs.BoolVar(&f.list, "list", false, "print the tests the run would execute (after --grep, --platform, --shard, --last-failed, --test-list) and exit; no device is started")
	fs.StringVar(&f.testList, "test-list", "", "run the files listed in `FILE` (one path, directory or glob a line; # comments)")
	f.repair.register(fs)
	fs.StringVar(&f.fakeDevice, "fake-device", "", "test only: run every test on the in-memory fake device of SCREENS_FILE")
	return fs
}

func runUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintln(w, "usage: adtest run [flags] PATH...   (files, directories searched for *.ad, globs)")
	writeRunFlags(w, fs)
}

// writeRunFlags writes the flags of run (and repair) and the exit codes.
func writeRunFlags(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintln(w, "\nflags:")
	fs.VisitAll(func(f *flag.Flag) {
		if hiddenFlags[f.Name] {
			return
		}
		name, usage := flag.UnquoteUsage(f)
		dash := "--"
		if len(f.Name) == 1 {
			dash = "-"
		}
		fmt.Fprintf(w, "  %s\n      %s\n", strings.TrimSpace(dash+f.Name+" "+name), usage)
	})
	fmt.Fprintln(w, "\nexit codes: 0 all passed (flaky counts as passed unless --fail-on-flaky), 1 a test failed,")
	fmt.Fprintln(w, "2 usage or parse error, 3 infrastructure unavailable, 130 interrupted")
}

// readFlags reads args with fs's flags through the one command-line reader
// (cmdline.FlagSet: flags and paths in any order) and binds them to fs: the
// positionals, cmdline.ErrHelp for -h, or an error naming the flag as
// written. hidden flags are read but never suggested.
func readFlags(fs *flag.FlagSet, args []string, hidden ...string) ([]string, error) {
	a, err := cmdline.FlagSet(fs, hidden...).Parse(args)
	if err != nil {
		return nil, err
	}
	if err := a.Apply(fs); err != nil {
		return nil, err
	}
	return a.Pos, nil
}

func runRun(ctx context.Context, env *Env) int {
	var f runFlags
	fs := runFlagSet(&f, env.Stderr)
	paths, err := readFlags(fs, env.Args, hiddenFlagNames()...)
	if errors.Is(err, cmdline.ErrHelp) {
		runUsage(env.Stdout, fs)
		return ExitOK
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "adtest run: %v\n", err)
		fmt.Fprintln(env.Stderr, "run 'adtest run -h' for the flags")
		return ExitUsage
	}
	f.paths = paths
	if err := applyAgentDeviceConfig(env, &f, fs); err != nil {
		fmt.Fprintf(env.Stderr, "adtest run: %v\n", err)
		return ExitUsage
	}
	plan, code := planRun(env, &f)
	if plan == nil {
		return code
	}
	if f.list {
		list := make([]reporters.Listed, len(plan.tests))
		for i, t := range plan.tests {
			list[i] = reporters.Listed{File: t.File, SkipReason: t.SkipReason}
		}
		reporters.WriteList(env.Stdout, list, plan.shard.String())
		return ExitOK
	}
	if f.lastFailed && len(plan.tests) == 0 {
		fmt.Fprintf(env.Stdout, "--last-failed: no test failed in the last run (%s); nothing to run\n", scriptpath.Display(env.Cwd, suite.LastRunPath(env.Cwd, plan.shard)))
		return ExitOK
	}
	return plan.execute(ctx, env)
}

// runPlan is everything decided before the first test starts.
type runPlan struct {
	f         *runFlags
	tests     []*suite.Test
	specs     []reporters.Spec
	shard     suite.ShardSpec
	cliVars   map[string]string
	procVars  map[string]string
	color     bool
	runID     string
	runDir    string
	providers suite.ProviderFunc
	grep      *regexp.Regexp
	// lastRun is the record of the last run of the shard (nil: none, or
	// unreadable): its durations order this run's tests.
	lastRun *suite.LastRun
}

func usageErr(env *Env, format string, a ...any) (*runPlan, int) {
	fmt.Fprintf(env.Stderr, "adtest run: "+format+"\n", a...)
	return nil, ExitUsage
}

// planRun decides everything before the first test starts, in named steps:
// the inputs, the flags' checks, the reporters, the shard, the variables,
// discovery, the drivers' flags, the shard's tests. A usage error is said
// on stderr with exit code 2; nil with ExitOK is nothing to run.
func planRun(env *Env, f *runFlags) (*runPlan, int) {
	p := &runPlan{f: f}
	fromLastRun, nothing, err := p.readInputs(env)
	if err != nil {
		return usageErr(env, "%v", err)
	}
	if nothing {
		return nil, ExitOK
	}
	for _, step := range []func(*Env) error{p.checkFlags, p.readSpecs, p.readShard, p.readVars} {
		if err := step(env); err != nil {
			return usageErr(env, "%v", err)
		}
	}
	tests, err := p.discover(env)
	if err != nil {
		fmt.Fprintln(env.Stderr, reporters.EscapeText(err.Error()))
		return nil, ExitUsage
	}
	if err := p.checkDrivers(env); err != nil {
		return usageErr(env, "%v", err)
	}
	if len(tests) == 0 {
		return usageErr(env, "no tests matched")
	}
	if p.tests, err = p.shardTests(env, tests, fromLastRun); err != nil {
		return usageErr(env, "%v", err)
	}
	if len(f.devices) == 0 && f.workers == 1 {
		f.devices = androidDevices(env, f, p.tests) // every online device gets a worker
	}
	// Only an order: a missing or broken record leaves the estimates.
	p.lastRun, _, _ = suite.ReadLastRun(env.FS, env.Cwd, p.shard)
	p.color = env.Color && !f.noColor && (env.Getenv == nil || env.Getenv("NO_COLOR") == "")
	p.runID = suite.NewRunID(env.Now())
	p.runDir = filepath.Join(scriptpath.Abs(env.Cwd, f.artifactsDir), p.runID)
	p.providers = providerFunc(env, f)
	return p, ExitOK
}

// readInputs adds --test-list's files to the paths, or for --last-failed
// alone the files the last run (of this shard) left failed: fromLastRun,
// and nothing when none did (said on stdout).
func (p *runPlan) readInputs(env *Env) (fromLastRun, nothing bool, err error) {
	f := p.f
	if f.testList != "" {
		listed, err := suite.ReadTestList(env.FS, env.Cwd, f.testList)
		if err != nil {
			return false, false, err
		}
		f.paths = append(f.paths, listed...)
	}
	if len(f.paths) == 0 && f.lastFailed {
		shard, err := suite.ParseShard(orDefault(f.shard, "1/1"))
		if err != nil {
			return false, false, err
		}
		if f.shard == "" {
			shard = suite.ShardSpec{}
		}
		lr, shown, err := suite.ReadLastRun(env.FS, env.Cwd, shard)
		if err != nil {
			return false, false, err
		}
		if len(lr.FailedTests) == 0 {
			fmt.Fprintf(env.Stdout, "--last-failed: no test failed in the last run (%s); nothing to run\n", shown)
			return false, true, nil
		}
		f.paths = lr.FailedTests
		fromLastRun = true
	}
	if len(f.paths) == 0 {
		return false, false, suite.ErrNoInputs
	}
	return fromLastRun, false, nil
}

// checkFlags refuses numbers out of range and flags that do not go
// together.
func (p *runPlan) checkFlags(env *Env) error {
	f := p.f
	switch {
	case f.workers < 1:
		return fmt.Errorf("-j/--workers must be at least 1, got %d", f.workers)
	case f.maskScreenshots != "" && f.maskScreenshots != "secrets" && f.maskScreenshots != "all":
		return fmt.Errorf("--mask-screenshots is secrets or all, got %q", f.maskScreenshots)
	case f.retries.v != nil && (*f.retries.v < 0 || *f.retries.v > suite.MaxFlagRetries):
		return fmt.Errorf("--retries must be between 0 and %d, got %d", suite.MaxFlagRetries, *f.retries.v)
	case f.timeout.v != nil && *f.timeout.v < 1:
		return fmt.Errorf("--timeout must be at least 1 ms, got %d", *f.timeout.v)
	case f.maxFailures < 0:
		return errors.New("--max-failures must not be negative")
	case f.stepTimeout < 1:
		return fmt.Errorf("--step-timeout must be at least 1 ms, got %d", f.stepTimeout)
	case f.repeatEach < 1 || f.repeatEach > suite.MaxRepeatEach:
		return fmt.Errorf("--repeat-each must be between 1 and %d, got %d", suite.MaxRepeatEach, f.repeatEach)
	case f.reuseWebServer && f.webServer == "":
		return errors.New("--reuse-web-server goes with --web-server")
	case (f.webServer == "") != (f.webServerURL == ""):
		return errors.New("--web-server and --web-server-url go together")
	case btoi(f.serve != "")+btoi(f.webServer != "")+btoi(f.serveExample) > 1:
		return errors.New("use only one of --serve, --web-server, --serve-example")
	}
	if f.serve != "" {
		if st, err := env.FS.Stat(scriptpath.Abs(env.Cwd, f.serve)); err != nil || !st.IsDir() {
			return fmt.Errorf("--serve %s: not a directory", f.serve)
		}
	}
	return nil
}

// readSpecs reads the --reporter flags (each output once); without any,
// the console, and in GitHub Actions its workflow commands (::error, a
// repair's ::notice) as check prints them.
func (p *runPlan) readSpecs(env *Env) error {
	for _, r := range p.f.reporters {
		s, err := reporters.ParseSpec(r)
		if err != nil {
			return err
		}
		if !slices.Contains(p.specs, s) {
			p.specs = append(p.specs, s)
		}
	}
	if len(p.specs) == 0 {
		p.specs = []reporters.Spec{{Name: "console"}}
		if env.Getenv != nil && env.Getenv("GITHUB_ACTIONS") == "true" {
			p.specs = append(p.specs, reporters.Spec{Name: "github"})
		}
	}
	return nil
}

// readShard reads --shard I/N.
func (p *runPlan) readShard(*Env) error {
	if p.f.shard == "" {
		return nil
	}
	s, err := suite.ParseShard(p.f.shard)
	p.shard = s
	return err
}

// readVars checks --grep and reads the variables of -e and AD_VAR_*.
func (p *runPlan) readVars(env *Env) error {
	if p.f.grep != "" {
		re, err := regexp.Compile(p.f.grep)
		if err != nil {
			return fmt.Errorf("--grep: %v", err)
		}
		p.grep = re
	}
	cli, err := lang.ParseCLIVars(p.f.vars)
	if err != nil {
		return err
	}
	p.cliVars = cli
	if env.Environ != nil {
		p.procVars = lang.ProcessVars(env.Environ())
	}
	return nil
}

// discover finds, parses and checks the tests (suite.Discover); --list
// starts nothing, so a secret it is not given is no error.
func (p *runPlan) discover(env *Env) ([]*suite.Test, error) {
	f := p.f
	external := maps.Clone(p.procVars)
	if external == nil {
		external = map[string]string{}
	}
	maps.Copy(external, p.cliVars)
	return suite.Discover(f.paths, suite.DiscoverOptions{
		Cwd: env.Cwd, Platform: f.platform, Grep: p.grep,
		Retries: f.retries.v, TimeoutMs: f.timeout.v,
		Parse: parseAll, Skip: outputDirs(f.artifactsDir, p.specs),
		Check: func(s *lang.Script, src []byte) []error {
			var errs []error
			for _, d := range lang.Check(s, string(src), lang.CheckOptions{Vars: external, Platform: f.platform}) {
				if d.Severity == lang.SeverityError && !(f.list && d.Rule == "unresolved-variable") {
					errs = append(errs, errors.New(d.Format(s.File)))
				}
			}
			return errs
		},
	})
}

// checkDrivers reads the Grid's options and refuses driver flags that do
// not go together.
func (p *runPlan) checkDrivers(env *Env) error {
	f := p.f
	var err error
	if f.gridOpts, err = f.grid.options(env); err != nil {
		return err
	}
	if f.gridOpts != nil && (f.cdpURL != "" || f.browser != "" || f.browserPerWorker) {
		return errors.New("--grid goes without --cdp-url, --browser and --browser-per-worker: the Grid's nodes run the browsers, one per worker")
	}
	if f.androidSnapshot != "helper" && f.androidSnapshot != "dump" {
		return fmt.Errorf("--android-snapshot must be helper or dump, got %q", f.androidSnapshot)
	}
	if f.isolation != web.IsolationWarm && f.isolation != web.IsolationFresh {
		return fmt.Errorf("--isolation must be warm or fresh, got %q", f.isolation)
	}
	if _, ok := suite.ParseOrder(f.order); !ok && f.order != "" {
		return fmt.Errorf("--order must be longest-first or file, got %q", f.order)
	}
	return nil
}

// shardTests are this shard's tests (balanced by --shard-weights), and
// with --last-failed only those its last run left failed. Tests read from
// the last run are this shard's already: sharding them again would drop
// some.
func (p *runPlan) shardTests(env *Env, tests []*suite.Test, fromLastRun bool) ([]*suite.Test, error) {
	f := p.f
	switch {
	case fromLastRun:
	case f.shardWeights != "":
		b, err := env.FS.ReadFile(scriptpath.Abs(env.Cwd, f.shardWeights))
		if err != nil {
			return nil, fmt.Errorf("--shard-weights: %v", err)
		}
		prev, err := reporters.ReadJSON(strings.NewReader(string(b)))
		if err != nil {
			return nil, fmt.Errorf("--shard-weights %s: %v", f.shardWeights, err)
		}
		tests = suite.Shard(tests, p.shard, suite.WeightsFromResult(prev))
	default:
		tests = suite.Shard(tests, p.shard, nil)
	}
	if !f.lastFailed {
		return tests, nil
	}
	// After sharding: a shard reruns its own failures.
	tests, _, err := suite.KeepLastFailed(env.FS, env.Cwd, p.shard, tests)
	return tests, err
}

func parseAll(file string, src []byte) (*lang.Script, error) {
	s, errs := lang.ParseAll(file, src)
	if len(errs) == 0 {
		return s, nil
	}
	out := make([]error, len(errs))
	for i, e := range errs {
		out[i] = e
	}
	return nil, errors.Join(out...)
}

func providerFunc(env *Env, f *runFlags) suite.ProviderFunc {
	return func(ctx context.Context, platform string) (drivers.Provider, error) {
		o := providerOptions{
			fakeDevice: f.fakeDevice, browser: f.browser, cdpURL: f.cdpURL, browserPerWorker: f.browserPerWorker,
			adbServer: f.adbServer, devices: f.devices, androidSnapshot: f.androidSnapshot,
			frameControl: recordsFirstAttempts(f.trace.m), grid: f.gridOpts, isolation: f.isolation,
		}
		if f.debug {
			o.debugf = func(format string, a ...any) { fmt.Fprintf(env.Stderr, "debug: "+format+"\n", a...) }
		}
		return openProvider(ctx, env, o, platform)
	}
}

func (p *runPlan) execute(ctx context.Context, env *Env) int {
	f := p.f
	baseURL, stop, code := p.startServer(ctx, env)
	if code != ExitOK {
		return code
	}
	defer stop()

	// Output of each reporter: console and github default to stdout.
	var closers []io.Closer
	defer func() {
		for _, c := range closers {
			c.Close()
		}
	}()
	streams := map[reporters.Spec]reporters.Streamer{}
	var listeners reporters.Listeners
	for _, s := range p.specs {
		rep, _ := reporters.Lookup(s.Name)
		if rep.Stream == nil {
			continue
		}
		w := env.Stdout
		if s.Path != "" {
			file, err := env.FS.Create(scriptpath.Abs(env.Cwd, s.Path))
			if err != nil {
				fmt.Fprintf(env.Stderr, "adtest run: reporter %s: %v\n", s.Name, err)
				return ExitUsage
			}
			closers = append(closers, file)
			w = file
		}
		live := s.Path == "" && env.Terminal
		streams[s] = rep.Stream(w, reporters.StreamOptions{Color: p.color && s.Path == "", Live: live, Width: env.TermWidth})
		if t, ok := streams[s].(interface{ Tick() }); ok && live {
			stopTicks := tickEvery(200*time.Millisecond, t.Tick)
			defer stopTicks()
		}
		listeners = append(listeners, streams[s])
	}

	markOutputDir(env, filepath.Dir(p.runDir))
	res, err := suite.Run(ctx, p.suiteConfig(env, p.shard, listeners, baseURL), p.tests)
	if err != nil {
		// The run could not start: a browser or device helper is missing.
		fmt.Fprintf(env.Stderr, "adtest run: %v\n", err)
		return ExitInfra
	}

	failedReport := false
	if err := writeLastRun(env.FS, suite.LastRunPath(env.Cwd, p.shard), p.newLastRun(env, res)); err != nil {
		fmt.Fprintf(env.Stderr, "adtest run: last run: %v\n", err)
	}
	// The run's own result.json, for --shard-weights and merge-reports.
	if err := atomicfile.Write(filepath.Join(p.runDir, "result.json"), atomicfile.Options{MkdirAll: true}, func(w io.Writer) error {
		return reporters.WriteJSON(w, res)
	}); err != nil {
		fmt.Fprintf(env.Stderr, "adtest run: %v\n", err)
		failedReport = true
	}
	for _, s := range p.specs {
		if err := p.writeReport(env, s, res, streams[s]); err != nil {
			fmt.Fprintf(env.Stderr, "adtest run: reporter %s: %v\n", s.Name, err)
			failedReport = true
			continue
		}
		reporters.WriteReportPath(reportPathWriter(env, p.specs), env.Cwd, s, true)
	}
	return exitCode(res, f.failOnFlaky, failedReport)
}

// startServer starts the app server the flags ask for (none: baseURL "");
// stop ends it.
func (p *runPlan) startServer(ctx context.Context, env *Env) (baseURL string, stop func(), code int) {
	f := p.f
	var server *suite.Server
	var err error
	switch {
	case f.serve != "":
		server, err = suite.ServeFS(env.FS.Sub(scriptpath.Abs(env.Cwd, f.serve)))
	case f.serveExample:
		server, err = serveExample()
	case f.webServer != "":
		server, err = suite.StartCommand(ctx, suite.WebServer{Command: f.webServer, Dir: env.Cwd, URL: f.webServerURL,
			Timeout: 60 * time.Second, Reuse: f.reuseWebServer})
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "adtest run: %v\n", err)
		if ctx.Err() != nil {
			return "", nil, ExitInterrupted
		}
		return "", nil, ExitInfra
	}
	if server == nil {
		return "", func() {}, ExitOK
	}
	return server.URL, func() { server.Close() }, ExitOK
}

// suiteConfig is the suite configuration of the plan for one shard.
func (p *runPlan) suiteConfig(env *Env, shard suite.ShardSpec, listener runner.Observer, baseURL string) suite.Config {
	f := p.f
	return suite.Config{
		Workers: f.workers, Devices: f.devices,
		FailFast: f.failFast, MaxFailures: f.maxFailures,
		RunDir: p.runDir, RunID: p.runID, Shard: shard, Cwd: env.Cwd,
		CLIVars: p.cliVars, ProcessVars: p.procVars, MaskNames: f.masks, BlankPictures: f.maskScreenshots == "all",
		BaseURL:     baseURL,
		Providers:   p.providers,
		Listener:    listener,
		Prefetch:    map[string]bool{drivers.PlatformWeb: f.fakeDevice == ""},
		StepTimeout: time.Duration(f.stepTimeout) * time.Millisecond,
		RepeatEach:  f.repeatEach,
		Order:       suite.Order(f.order),
		Durations:   p.lastDurations(),
		Trace:       f.trace.m,
		// Without --trace each test takes its platform's default.
		TraceDefault: !f.trace.set,
		Repair:       f.repair.config(),
		Annotate:     f.repair.annotateConfig(),
		// A Grid's session may wait in its queue for the whole
		// --grid-timeout; a test whose browser's node went away is run
		// again on a new session (another node), as infrastructure.
		SessionStartTimeout: gridSessionBound(f.gridOpts),
		InfraRetries:        gridInfraRetries(f.gridOpts),
	}
}

// lastDurations are the tests' durations in the last run of the shard.
func (p *runPlan) lastDurations() suite.Weights {
	if p.lastRun == nil {
		return nil
	}
	return p.lastRun.Durations
}

// newLastRun is the record of res, with the durations the last record
// held of files this run did not run and that are still there.
func (p *runPlan) newLastRun(env *Env, res *runner.Result) suite.LastRun {
	lr := suite.NewLastRun(res, p.runID)
	suite.KeepDurations(&lr, p.lastRun, func(file string) bool {
		_, err := env.FS.Stat(scriptpath.Abs(env.Cwd, file))
		return err == nil
	})
	return lr
}

func gridSessionBound(g *web.GridOptions) time.Duration {
	if g == nil {
		return 0
	}
	return cmp.Or(g.Timeout, web.DefaultGridTimeout) + suite.DefaultSessionStartTimeout
}

// gridInfraRetries: a worker's browser lost with its node is replaced
// (another Grid session); the test it ran goes again, at most twice.
func gridInfraRetries(g *web.GridOptions) int {
	if g == nil {
		return 0
	}
	return 2
}

func (p *runPlan) writeReport(env *Env, s reporters.Spec, res *runner.Result, stream reporters.Streamer) error {
	if stream != nil {
		return stream.Summary(res)
	}
	return reporters.WriteFinal(reportOutput(env), s, res, false)
}

// exitCode is the run's exit code (runner.Result.Exit), or 1 when it passed
// but a report could not be written.
func exitCode(res *runner.Result, failOnFlaky, reportFailed bool) int {
	if code := res.Exit(failOnFlaky); code != ExitOK || !reportFailed {
		return code
	}
	return ExitFailed
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// serveExample serves the bundled example app (examples/web).
func serveExample() (*suite.Server, error) { return suite.ServeFS(exampleweb.App) }
