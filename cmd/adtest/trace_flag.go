package main

import (
	"fmt"
	"github.com/adtest/adtest/cmd/internal/cmdline"
	"path/filepath"
	"strings"
	"time"

	"github.com/adtest/adtest/internal/scriptpath"
	"github.com/adtest/adtest/internal/shellquote"
	"github.com/adtest/adtest/runner"
	"github.com/adtest/adtest/runner/suite"
	"github.com/adtest/adtest/runner/trace"
)

// traceFlag is --trace MODE (trace.Mode): which attempts keep a trace
// of their steps under <attempt>/trace/. Unset, each test takes its
// platform's default (trace.DefaultMode); m is then the web's.
type traceFlag struct {
	m   trace.Mode
	set bool
}

func (t *traceFlag) String() string { return string(t.m) }

func (t *traceFlag) Set(s string) error {
	m, err := trace.ParseMode(s)
	if err != nil {
		return err
	}
	t.m, t.set = m, true
	return nil
}

// traceUsage is the --trace flag's help line.
const traceUsage = "keep a trace of every step (pictures before/after, tree, console, network) for the attempts `MODE` names: off, on, retain-on-failure (every attempt recorded, kept when it did not pass; a green run pays for it, docs/performance.md) or on-first-retry (the default: the first retry of a failed test, so a test that passes the first time records nothing)"

// defaultTrace is the mode of run, test and replay without --trace:
// on-first-retry (trace.DefaultMode), Playwright's default, so a green
// run pays nothing for traces. retain-on-failure, which records every
// attempt to show the failure a retry hides, is one flag away; its cost on
// a green run is in docs/performance.md.
const defaultTrace = trace.OnFirstRetry

// recordsFirstAttempts reports whether a run in mode records every
// attempt: its web pages then have their frames drawn by their sessions, so
// a picture costs the frames' work, not three of the browser's ticks
// (web.Options.FrameControl). Under on-first-retry, the default, a green
// run records nothing and its pages keep the browser's own frames: the
// sessions' frames cost it 1.3x the CPU and, on a loaded machine, 2.3x the
// wall time of the same run with them off (docs/performance.md); a retry's
// pictures pay the ticks.
func recordsFirstAttempts(m trace.Mode) bool { return m.Records(1) }

// replayTraceFlag reads replay's --trace and names the directory of this
// replay's trace: .adtest/traces/<file>-<time>. Without --trace, mode is ""
// and the session's platform chooses (trace.DefaultMode:
// on-first-retry, which records nothing, as a replay has no retry).
func replayTraceFlag(env *Env, args *cmdline.Args, script string) (mode trace.Mode, dir string, ei *runner.ErrorInfo) {
	if v := args.Last("trace"); v != "" {
		m, err := trace.ParseMode(v)
		if err != nil {
			return "", "", replayInvalid("--trace: %v", err)
		}
		if !m.Records(1) {
			return trace.Off, "", nil
		}
		mode = m
	}
	now := time.Now
	if env.Now != nil {
		now = env.Now
	}
	name := suite.Slug(strings.TrimSuffix(filepath.Base(script), ".ad")) + "-" + now().UTC().Format("20060102-150405.000")
	return mode, filepath.Join(scriptpath.Abs(env.Cwd, ".adtest"), "traces", name), nil
}

// printTraceKept names a replay's trace when the daemon kept it.
func printTraceKept(env *Env, dir string) {
	if dir == "" {
		return
	}
	if _, err := env.FS.Stat(filepath.Join(dir, trace.File)); err == nil {
		rel := scriptpath.Display(env.Cwd, dir)
		fmt.Fprintf(env.Stderr, "Trace: %s (%s)\n", rel, shellquote.Join("adtest", "show-trace", rel))
	}
}
