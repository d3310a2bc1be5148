package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/adtest/adtest/internal/shellquote"
	"github.com/adtest/adtest/runner"
	"github.com/adtest/adtest/runner/suite"
)

// traceFlag is --trace MODE (runner.TraceMode): which attempts keep a trace
// of their steps under <attempt>/trace/. Unset, each test takes its
// platform's default (runner.DefaultTraceMode); m is then the web's.
type traceFlag struct {
	m   runner.TraceMode
	set bool
}

func (t *traceFlag) String() string { return string(t.m) }

func (t *traceFlag) Set(s string) error {
	m, err := runner.ParseTraceMode(s)
	if err != nil {
		return err
	}
	t.m, t.set = m, true
	return nil
}

// traceUsage is the --trace flag's help line.
const traceUsage = "keep a trace of every step (pictures before/after, tree, console, network) for the attempts `MODE` names: off, on, retain-on-failure (the default: recorded always, kept for attempts that did not pass) or on-first-retry (the first retry of a failed test; the default on Android, whose pictures are the device's screencap)"

// defaultTrace is the mode of run, test and replay without --trace on the
// web: retain-on-failure, so that a flaky failure its retry hides, or a
// replay that failed, can be seen. Every attempt is recorded and a passing
// one's trace dropped; the pages of a run that records, and the daemon's,
// have their frames drawn by their sessions (drivers/web/frames.go), which
// makes a picture cheap enough for that (README, "Traces"). Android's
// default is on-first-retry (runner.DefaultTraceMode).
const defaultTrace = runner.TraceRetainOnFailure

// replayTraceFlag reads replay's --trace and names the directory of this
// replay's trace: .adtest/traces/<file>-<time>. Without --trace, mode is ""
// and the session's platform chooses (runner.DefaultTraceMode: on the web
// retain-on-failure, kept when the replay failed; on Android nothing, as a
// replay has no retry).
func replayTraceFlag(env *Env, args *adArgs, script string) (mode runner.TraceMode, dir string, ei *runner.ErrorInfo) {
	if v := args.last("trace"); v != "" {
		m, err := runner.ParseTraceMode(v)
		if err != nil {
			return "", "", replayInvalid("--trace: %v", err)
		}
		if !m.Records(1) {
			return runner.TraceOff, "", nil
		}
		mode = m
	}
	now := time.Now
	if env.Now != nil {
		now = env.Now
	}
	name := suite.Slug(strings.TrimSuffix(filepath.Base(script), ".ad")) + "-" + now().UTC().Format("20060102-150405.000")
	return mode, filepath.Join(abs(env.Cwd, ".adtest"), "traces", name), nil
}

// printTraceKept names a replay's trace when the daemon kept it.
func printTraceKept(env *Env, dir string) {
	if dir == "" {
		return
	}
	if _, err := env.FS.Stat(filepath.Join(dir, runner.TraceFile)); err == nil {
		rel := displayRel(env.Cwd, dir)
		fmt.Fprintf(env.Stderr, "Trace: %s (%s)\n", rel, shellquote.Join("adtest", "show-trace", rel))
	}
}
