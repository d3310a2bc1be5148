package main

import "github.com/adtest/adtest/runner"

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
const traceUsage = "keep a trace of every step (pictures before/after, tree, console, network) for the attempts `MODE` names: off, on, retain-on-failure (default: recorded always, kept for attempts that did not pass) or on-first-retry"

// defaultTrace is the mode of run and test without --trace.
const defaultTrace = runner.TraceRetainOnFailure
