package main

import (
	"context"
	"fmt"
	"github.com/adtest/adtest/cmd/internal/agentdevice"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/adtest/adtest/cmd/internal/cmdline"
	"github.com/adtest/adtest/daemon"
	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/internal/scriptpath"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner"
)

// `adtest replay FILE`: agent-device's replay (spec §4.2-§4.4) run in a
// session of the warm daemon, so that a failed replay leaves its session
// open and `replay FILE --from N --plan-digest SHA` continues it. Its exit
// codes are agent-device's: 0 on success, 1 on any error.

// replayInvalid is an INVALID_ARGS error raised before anything runs.
func replayInvalid(format string, a ...any) *runner.ErrorInfo {
	return &runner.ErrorInfo{Code: runner.CodeInvalidArgs, Reason: drivers.ReasonInvalidArgs, Message: fmt.Sprintf(format, a...)}
}

func runReplay(ctx context.Context, env *Env) int {
	return dropInExit(ctx, replay(ctx, env))
}

// replay is `adtest replay` before its exit code is mapped to
// agent-device's.
func replay(ctx context.Context, env *Env) int {
	args, err := agentdevice.ParseArgs("replay", env.Args, agentdevice.ReplayFlags)
	asJSON := args != nil && args.Has("json")
	if err != nil {
		return replayFail(env, asJSON, replayInvalid("%v", err))
	}
	if args.Has("help") {
		fmt.Fprint(env.Stdout, agentdevice.ReplayUsage)
		return ExitOK
	}
	req, ei := replayRequest(env, args)
	if ei != nil {
		return replayFail(env, asJSON, ei)
	}
	if args.Has("update") && !asJSON {
		fmt.Fprintln(env.Stderr, "adtest replay: note: --update is accepted and ignored (as in agent-device 0.20+): a failed step lists selector suggestions instead of rewriting the file")
	}
	c := daemonClient(gridEnv(env, args))
	timeout := DefaultReplayEnvelope
	if req.TimeoutMs > 0 {
		timeout = time.Duration(req.TimeoutMs) * time.Millisecond
	}
	cctx, cancel := context.WithTimeout(ctx, timeout+30*time.Second)
	defer cancel()
	resp, err := c.Do(cctx, req)
	if err != nil {
		// Interrupted (Ctrl-C, SIGTERM): 130, as adtest test exits.
		return replayFail(env, asJSON, daemon.ClientError(cctx, c, err))
	}
	if !asJSON {
		printTraceKept(env, req.Replay.TraceDir)
	}
	if resp.Error != nil {
		if !asJSON {
			defer daemon.WriteResume(env.Stderr, env.Cwd, req, resp.Error)
		}
		return replayFail(env, asJSON, resp.Error)
	}
	if asJSON {
		writeJSONLine(env.Stdout, map[string]any{"success": true, "data": resp.Data})
		return ExitOK
	}
	fmt.Fprintln(env.Stdout, resp.Text)
	if resp.Warning != "" {
		fmt.Fprintf(env.Stderr, "Warning: %s\n", resp.Warning)
	}
	return ExitOK
}

// DefaultReplayEnvelope is agent-device's whole-replay bound.
const DefaultReplayEnvelope = daemon.DefaultReplayTimeout

// replayRequest reads and parses the script, settles the effective platform,
// checks a resume and builds the daemon request: every INVALID_ARGS of
// spec §4.2-§4.4 is raised here, before any device is touched.
func replayRequest(env *Env, args *cmdline.Args) (*daemon.Request, *runner.ErrorInfo) {
	if len(args.Pos) != 1 {
		return nil, replayInvalid("replay accepts exactly one input path: replay <path>")
	}
	if args.Has("maestro") {
		return nil, replayInvalid("adtest runs native .ad scripts only: --maestro (Maestro YAML) is not supported")
	}
	if args.Has("save-script") {
		return nil, replayInvalid("replay --save-script (a repair recording) is not supported by adtest: replay without it, then repair interactively with `adtest open TARGET --save-script PATH`")
	}
	path, src, script, ei := readReplayScript(env, args.Pos[0])
	if ei != nil {
		return nil, ei
	}
	cfg, err := agentdevice.Load(adEnv(env), args)
	if err != nil {
		return nil, replayInvalid("%v", err)
	}
	platform := cfg.Str("platform")
	if platform == "" {
		platform = scriptPlatform(script)
	}
	target := cfg.Str("target")
	if target == "" {
		target = script.Metadata.Target
	}
	digest := lang.PlanDigest(script, platform, target)
	from, ei := replayFrom(args, script, digest)
	if ei != nil {
		return nil, ei
	}
	timeoutMs, ok := cfg.Int("timeoutMs")
	if ok && timeoutMs < 1 {
		return nil, replayInvalid("--timeout must be a positive number of milliseconds, got %d (from %s)", timeoutMs, cfg.From("timeoutMs"))
	}
	switch platform {
	case "", "web", "android":
	default:
		return nil, replayInvalid("replay: adtest drives web and android, not %q (set --platform web or android)", platform)
	}
	cli, err := lang.ParseCLIVars(args.All("env"))
	if err != nil {
		return nil, replayInvalid("%v", err)
	}
	var proc map[string]string
	if env.Environ != nil {
		proc = lang.ProcessVars(env.Environ())
	}
	session := cfg.Str("session")
	if session == "" {
		session = "default"
	}
	trace, traceDir, ei := replayTraceFlag(env, args, path)
	if ei != nil {
		return nil, ei
	}
	return &daemon.Request{Op: daemon.OpReplay, Session: session, Platform: platform, Device: cfg.Str("device"),
		TimeoutMs: timeoutMs, Cwd: env.Cwd, Replay: &daemon.ReplayRequest{
			Source: string(src), File: path, From: from, PlanDigest: digest,
			Vars: cli, ProcessVars: proc, KeepSession: args.Has("keep-session"),
			Trace: string(trace), TraceDir: traceDir, TraceDefault: trace == "" && traceDir != "",
		}}, nil
}

// readReplayScript reads and parses replay's script input (~ expanded,
// relative to cwd): Maestro YAML and JSON payloads are refused.
func readReplayScript(env *Env, input string) (path string, src []byte, script *lang.Script, ei *runner.ErrorInfo) {
	path = scriptpath.Abs(env.Cwd, agentdevice.ExpandHome(env.Getenv, input))
	if ext := strings.ToLower(filepath.Ext(path)); ext == ".yaml" || ext == ".yml" {
		return "", nil, nil, replayInvalid("Maestro YAML requires explicit --maestro routing: replay <path> --maestro")
	}
	src, err := env.FS.ReadFile(path)
	if err != nil {
		return "", nil, nil, replayInvalid("replay script not found: %s", input)
	}
	if t := strings.TrimLeft(string(src), " \t\r\n"); strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
		return "", nil, nil, replayInvalid("replay accepts .ad script files. JSON replay payloads are no longer supported.")
	}
	script, errs := lang.ParseAll(scriptpath.Display(env.Cwd, path), src)
	if len(errs) > 0 {
		ei := replayInvalid("%s", errs[0].Error())
		ei.Hint = errs[0].Hint
		return "", nil, nil, ei
	}
	return path, src, script, nil
}

// replayFrom is the step a resume starts at (--from N --plan-digest SHA;
// 0 without): in range, and the digest the script's plan has now.
func replayFrom(args *cmdline.Args, script *lang.Script, digest string) (int, *runner.ErrorInfo) {
	if args.Has("from") != args.Has("plan-digest") {
		return 0, replayInvalid("replay --from requires --plan-digest (and --plan-digest requires --from).")
	}
	if !args.Has("from") {
		return 0, nil
	}
	n, err := strconv.Atoi(args.Last("from"))
	if err != nil || n < 1 {
		return 0, replayInvalid("replay --from must be an integer >= 1, got %q", args.Last("from"))
	}
	if n > len(script.Actions) {
		return 0, replayInvalid("replay --from %d is out of range for a %d-step plan.", n, len(script.Actions))
	}
	if args.Last("plan-digest") != digest {
		ei := replayInvalid("replay --plan-digest does not match the current plan digest; the script or its effective platform changed since the failure was reported.")
		ei.Hint = "Run a fresh full replay to get a new digest."
		return 0, ei
	}
	return n, nil
}

// scriptPlatform is the platform a script selects itself (spec §4.2 step
// 5): the --platform hint of the first open (or of a runtime line before
// it), else `context platform=`.
func scriptPlatform(s *lang.Script) string {
	for _, a := range s.Actions {
		if p, ok := a.Runtime.String("platform"); ok && p != "" {
			return p
		}
		if lang.TraitsOf(a.Command).OpensSession {
			break
		}
	}
	return s.Metadata.Platform
}

// replayFail prints an error as agent-device does and returns 1 (the
// caller maps it with dropInExit).
func replayFail(env *Env, asJSON bool, e *runner.ErrorInfo) int {
	if asJSON {
		writeJSONLine(env.Stdout, map[string]any{"success": false, "error": e})
		return ExitFailed
	}
	fmt.Fprintf(env.Stderr, "Error (%s): %s\n", e.Code, e.Message)
	if e.Hint != "" {
		fmt.Fprintf(env.Stderr, "Hint: %s\n", e.Hint)
	}
	return ExitFailed
}

// gridEnv hands --grid, --grid-capabilities and --grid-timeout to the
// daemon a command starts, through its environment (ADTEST_GRID...).
func gridEnv(env *Env, args *cmdline.Args) *Env {
	var extra []string
	for _, f := range [][2]string{{"grid", "ADTEST_GRID"}, {"grid-capabilities", "ADTEST_GRID_CAPABILITIES"}, {"grid-timeout", "ADTEST_GRID_TIMEOUT"}} {
		if v := args.Last(f[0]); v != "" {
			if f[0] == "grid-capabilities" && strings.HasPrefix(v, "@") {
				v = "@" + scriptpath.Abs(env.Cwd, v[1:]) // the daemon runs elsewhere
			}
			extra = append(extra, f[1]+"="+v)
		}
	}
	if len(extra) == 0 {
		return env
	}
	e := *env
	base := env.Environ
	e.Environ = func() []string {
		var out []string
		if base != nil {
			out = base()
		}
		return append(out, extra...)
	}
	return &e
}
