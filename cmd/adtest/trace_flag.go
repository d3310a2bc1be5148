package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/adtest/adtest/runner"
	"github.com/adtest/adtest/runner/suite"
)

// traceFlag is --trace MODE (runner.TraceMode): which attempts keep a trace
// of their steps under <attempt>/trace/.
type traceFlag struct{ m runner.TraceMode }

func (t *traceFlag) String() string { return string(t.m) }

func (t *traceFlag) Set(s string) error {
	m, err := runner.ParseTraceMode(s)
	if err != nil {
		return err
	}
	t.m = m
	return nil
}

// traceUsage is the --trace flag's help line.
const traceUsage = "keep a trace of every step (pictures before/after, tree, console, network) for the attempts `MODE` names: off, on, retain-on-failure (recorded always, kept for attempts that did not pass) or on-first-retry (the default: the first retry of a failed test)"

// defaultTrace is the mode of run, test and replay without --trace:
// on-first-retry, as Playwright Test's own CI set-up, since recording costs
// a picture per step (the example suite runs about 1.3x its time with every
// attempt recorded, README "Traces") and a run whose tests pass the first
// time should not pay for it. A replay has no retries: without --trace it records nothing.
const defaultTrace = runner.TraceOnFirstRetry

// replayTraceFlag reads replay's --trace (default on-first-retry) and
// names the directory of this replay's trace: .adtest/traces/<file>-<time>.
func replayTraceFlag(env *Env, args *adArgs, script string) (runner.TraceMode, string, *runner.ErrorInfo) {
	mode := defaultTrace
	if v := args.last("trace"); v != "" {
		m, err := runner.ParseTraceMode(v)
		if err != nil {
			return "", "", replayInvalid("--trace: %v", err)
		}
		mode = m
	}
	if !mode.Records(1) {
		return runner.TraceOff, "", nil
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
		fmt.Fprintf(env.Stderr, "Trace: %s (adtest show-trace %s)\n", rel, rel)
	}
}
