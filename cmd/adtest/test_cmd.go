package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/adtest/adtest/cmd/internal/agentdevice"
	"github.com/adtest/adtest/drivers/web"
	"path/filepath"
	"strings"

	"github.com/adtest/adtest/cmd/internal/cmdline"
	"github.com/adtest/adtest/reporters"
	"github.com/adtest/adtest/runner"
	"github.com/adtest/adtest/runner/suite"
)

// `adtest test PATH...`: agent-device's suite runner (spec §4.6) with its
// flags, on adtest's run machinery (discovery, retries, timeouts, artifacts,
// reports). A CI line `agent-device test suite/ --platform web --retries 2
// --report-junit out.xml` runs unchanged with adtest in its place. Exit
// codes are agent-device's: 1 when a test failed or the suite could not
// start, else 0.

// testInvalid refuses the command line: agent-device's error line, or
// with --json its {"success":false,"error":...} object on stdout.
func testInvalid(env *Env, format string, a ...any) int {
	if cmdline.Mentions(env.Args, "json") {
		writeJSONLine(env.Stdout, map[string]any{"success": false, "error": map[string]any{"code": "INVALID_ARGS", "message": fmt.Sprintf(format, a...)}})
		return ExitFailed
	}
	fmt.Fprintf(env.Stderr, "Error (INVALID_ARGS): "+format+"\n", a...)
	return ExitFailed
}

func runTest(ctx context.Context, env *Env) int {
	return dropInExit(ctx, testCommand(ctx, env))
}

// testCommand is `adtest test` before its exit code is mapped to
// agent-device's.
func testCommand(ctx context.Context, env *Env) int {
	args, err := agentdevice.ParseArgs("test", env.Args, agentdevice.TestFlags)
	if err != nil {
		return testInvalid(env, "%v", err)
	}
	if args.Has("help") {
		fmt.Fprint(env.Stdout, agentdevice.TestUsage)
		return ExitOK
	}
	if err := refuseTestArgs(args); err != nil {
		return testInvalid(env, "%v", err)
	}
	cfg, err := agentdevice.Load(adEnv(env), args)
	if err != nil {
		return testInvalid(env, "%v", err)
	}
	f, err := testRunFlags(env, args, cfg)
	if err != nil {
		return testInvalid(env, "%v", err)
	}
	shardAll, okAll := cfg.Int("shardAll")
	shardSplit, okSplit := cfg.Int("shardSplit")
	if okAll && okSplit {
		return testInvalid(env, "use only one of --shard-all and --shard-split")
	}
	asJSON := args.Has("json")
	plan, code := planTest(env, f, asJSON)
	if plan == nil {
		return code
	}
	if !okAll && !okSplit {
		if asJSON {
			return plan.executeJSON(ctx, env)
		}
		return plan.execute(ctx, env)
	}
	n := shardAll + shardSplit
	if n < 1 {
		from := cfg.From("shardAll")
		if okSplit {
			from = cfg.From("shardSplit")
		}
		return testInvalid(env, "shard count must be at least 1, got %d (from %s)", n, from)
	}
	return plan.executeShards(ctx, env, n, okAll, asJSON)
}

// refuseTestArgs refuses replay's flags, Maestro, video and a line
// without a path.
func refuseTestArgs(args *cmdline.Args) error {
	for _, name := range []string{"keep-session", "from", "plan-digest", "save-script", "force"} {
		if args.Has(name) {
			return fmt.Errorf("--%s is replay-only: test runs every file from its first step in a fresh session (use adtest replay FILE --%s)", name, name)
		}
	}
	switch {
	case args.Has("maestro"):
		return errors.New("adtest runs native .ad scripts only: --maestro (Maestro YAML) is not supported")
	case args.Has("record-video"):
		return errors.New("--record-video: adtest's web and android drivers cannot record video; drop the flag (a failed attempt keeps its screenshot, snapshot and timing in the artifacts dir)")
	case len(args.Pos) == 0:
		return errors.New("test requires at least one path or glob")
	}
	return nil
}

// testRunFlags are run's flags for a test command line and the merged
// agent-device configuration.
func testRunFlags(env *Env, args *cmdline.Args, cfg *agentdevice.Config) (*runFlags, error) {
	f := &runFlags{paths: args.Pos, artifactsDir: ".agent-device/test-artifacts", workers: 1, repeatEach: 1,
		stepTimeout: int(suite.DefaultStepTimeout.Milliseconds()), androidSnapshot: "helper", isolation: web.IsolationFresh}
	f.vars = listFlag(args.All("env"))
	f.platform = cfg.Str("platform")
	f.failFast = cfg.Bool("failFast")
	if d := cfg.Str("device"); d != "" {
		f.devices = strings.Split(d, ",")
	}
	if v, ok := cfg.Int("retries"); ok {
		if v < 0 || v > 3 {
			return nil, fmt.Errorf("retries must be an integer from 0 to 3, got %d (from %s)", v, cfg.From("retries"))
		}
		f.retries.v = &v
	}
	if v, ok := cfg.Int("timeoutMs"); ok {
		if v < 1 {
			return nil, fmt.Errorf("timeout must be a positive number of milliseconds, got %d (from %s)", v, cfg.From("timeoutMs"))
		}
		f.timeout.v = &v
	}
	if d := cfg.Str("artifactsDir"); d != "" {
		f.artifactsDir = d
	}
	f.serveExample = args.Has("serve-example")
	f.trace.m = defaultTrace
	if v := args.Last("trace"); v != "" {
		if err := f.trace.Set(v); err != nil {
			return nil, fmt.Errorf("--trace: %v", err)
		}
	}
	f.serve = args.Last("serve")
	f.grid = gridFlags{url: args.Last("grid"), capabilities: args.Last("grid-capabilities"), timeout: args.Last("grid-timeout")}
	f.grid.fill(env, cfg)
	return f, testReporters(f, args)
}

// testReporters are agent-device's --reporter default|junit:PATH and
// --report-junit PATH as run's reporters.
func testReporters(f *runFlags, args *cmdline.Args) error {
	for _, r := range args.All("reporter") {
		switch {
		case r == "default":
			f.reporters = append(f.reporters, "console")
		case strings.HasPrefix(r, "junit:") && len(r) > len("junit:"):
			f.reporters = append(f.reporters, "junit="+strings.TrimPrefix(r, "junit:"))
		default:
			return fmt.Errorf("--reporter %q: adtest test takes default or junit:<path> (custom ES module reporters are agent-device's; use adtest run --reporter for adtest's json, github and html reports)", r)
		}
	}
	if p := args.Last("report-junit"); p != "" {
		if len(f.reporters) == 0 {
			f.reporters = append(f.reporters, "console")
		}
		f.reporters = append(f.reporters, "junit="+p)
	}
	return nil
}

// planTest plans the run; with --json, what planning refuses is said as
// agent-device's JSON error on stdout.
func planTest(env *Env, f *runFlags, asJSON bool) (*runPlan, int) {
	var perr strings.Builder
	stderr := env.Stderr
	if asJSON {
		env.Stderr = &perr
	}
	plan, code := planRun(env, f)
	env.Stderr = stderr
	if plan == nil && asJSON {
		writeJSONLine(env.Stdout, map[string]any{"success": false, "error": map[string]any{"code": "INVALID_ARGS", "message": strings.TrimSpace(perr.String())}})
	}
	return plan, code
}

// executeJSON runs the plan with its reporters (their terminal output on
// stderr), then prints agent-device's {"success":true,"data":...} envelope
// around adtest's result on stdout.
func (p *runPlan) executeJSON(ctx context.Context, env *Env) int {
	out := env.Stdout
	env.Stdout = env.Stderr // stdout holds the one JSON object; reporters write to stderr
	code := p.execute(ctx, env)
	env.Stdout = out
	res, err := reporters.ReadJSON(strings.NewReader(readResult(env, p)))
	if err != nil {
		writeJSONLine(out, map[string]any{"success": false, "error": map[string]any{"code": runner.CodeCommandFailed, "message": err.Error()}})
		return ExitFailed
	}
	writeJSONLine(out, map[string]any{"success": true, "data": res})
	return code
}

func readResult(env *Env, p *runPlan) string {
	b, _ := env.FS.ReadFile(filepath.Join(p.runDir, "result.json"))
	return string(b)
}

// executeShards runs n shards in parallel (suite.RunShards) as
// agent-device's --shard-split / --shard-all, and writes the reports once,
// from the merged result.
func (p *runPlan) executeShards(ctx context.Context, env *Env, n int, all, asJSON bool) int {
	baseURL, stop, code := p.startServer(ctx, env)
	if code != ExitOK {
		return code
	}
	defer stop()
	markOutputDir(env, filepath.Dir(p.runDir)) // as run does: discovery never walks into it
	mode := suite.ShardSplit
	if all {
		mode = suite.ShardAll
	}
	res, err := suite.RunShards(ctx, p.suiteConfig(env, suite.ShardSpec{}, nil, baseURL), p.tests, n, mode)
	if err != nil {
		fmt.Fprintf(env.Stderr, "adtest test: %v\n", err)
		return ExitInfra
	}
	failed := false
	out := env.Stdout
	if asJSON {
		env.Stdout = env.Stderr
	}
	defer func() { env.Stdout = out }()
	for _, s := range p.specs {
		if err := reporters.WriteFinal(reportOutput(env), s, res, p.color && s.Path == ""); err != nil {
			fmt.Fprintf(env.Stderr, "adtest test: reporter %s: %v\n", s.Name, err)
			failed = true
		}
	}
	if asJSON {
		writeJSONLine(out, map[string]any{"success": true, "data": res})
	}
	return exitCode(res, false, failed)
}
