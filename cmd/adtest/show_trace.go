package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/adtest/adtest/internal/scriptpath"
	"io"
	"path/filepath"
	"strconv"

	"github.com/adtest/adtest/cmd/internal/cmdline"
	"github.com/adtest/adtest/reporters/html"
	"github.com/adtest/adtest/runner"
	"github.com/adtest/adtest/runner/trace"
)

// runShowTrace writes the HTML report of one attempt's trace (DIR is the
// trace directory or the attempt's artifacts directory holding trace/) and
// serves it as show-report does; --no-serve only writes it.
func runShowTrace(ctx context.Context, env *Env) int {
	fs := flag.NewFlagSet("adtest show-trace", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	port := fs.Int("port", 0, "listen on `PORT` (default: a free port)")
	out := fs.String("out", "", "write the report into `DIR` (default: DIR/report of the trace)")
	noServe := fs.Bool("no-serve", false, "write the report and exit")
	args, err := readFlags(fs, env.Args)
	if errors.Is(err, cmdline.ErrHelp) {
		fmt.Fprintln(env.Stdout, "usage: adtest show-trace [--port PORT] [--out DIR] [--no-serve] DIR   (a trace directory, or an attempt's artifacts directory)")
		return ExitOK
	}
	if err == nil && len(args) != 1 {
		err = fmt.Errorf("give one trace directory, got %d", len(args))
	}
	if err == nil && (*port < 0 || *port > 65535) {
		err = fmt.Errorf("--port must be between 0 and 65535, got %d", *port)
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "adtest show-trace: %v\n", err)
		return ExitUsage
	}
	res, traceDir, err := traceResult(env, args[0])
	if err != nil {
		fmt.Fprintf(env.Stderr, "adtest show-trace: %v\n", err)
		fmt.Fprintln(env.Stderr, "hint: traces are kept under <artifacts>/<run>/<test>/attempt-N/trace/ by `adtest run` for a failed test's first retry (on-first-retry, the default; --trace retain-on-failure keeps every failed attempt's, --trace on every attempt's)")
		return ExitUsage
	}
	dir := *out
	if dir == "" {
		dir = filepath.Join(traceDir, "report")
	}
	root := scriptpath.Abs(env.Cwd, dir)
	if err := html.WriteDir(root, res, html.Options{Title: "adtest trace", ReadFile: env.FS.ReadFile}); err != nil {
		fmt.Fprintf(env.Stderr, "adtest show-trace: %v\n", err)
		return ExitInfra
	}
	fmt.Fprintf(env.Stdout, "Wrote the trace report %s (the test's page: index.html#t=t1)\n", filepath.Join(dir, "index.html"))
	if *noServe {
		return ExitOK
	}
	serve := *env
	serve.Args = []string{"--port", strconv.Itoa(*port), dir}
	return runShowReport(ctx, &serve)
}

// traceResult builds a one-test result around the trace in dir: the
// attempt's result.json when the attempt directory has one, else what
// trace.json says. It returns the trace directory too.
func traceResult(env *Env, dir string) (*runner.Result, string, error) {
	traceDir, attemptDir := dir, filepath.Dir(dir)
	if _, err := env.FS.Stat(filepath.Join(scriptpath.Abs(env.Cwd, dir), trace.File)); err != nil {
		traceDir, attemptDir = filepath.Join(dir, trace.DirName), dir
	}
	b, err := env.FS.ReadFile(filepath.Join(scriptpath.Abs(env.Cwd, traceDir), trace.File))
	if err != nil {
		return nil, "", fmt.Errorf("no trace in %s (no %s, nor %s)", dir, filepath.Join(dir, trace.File), filepath.Join(dir, trace.DirName, trace.File))
	}
	var td trace.Data
	if err := json.Unmarshal(b, &td); err != nil {
		return nil, "", fmt.Errorf("%s: %v", filepath.Join(traceDir, trace.File), err)
	}
	var ar runner.AttemptResult
	if b, err := env.FS.ReadFile(filepath.Join(scriptpath.Abs(env.Cwd, attemptDir), "result.json")); err != nil || json.Unmarshal(b, &ar) != nil {
		ar = runner.AttemptResult{Status: runner.StatusPassed, StartedAt: td.StartedAt}
		for _, st := range td.Steps {
			ar.Steps = append(ar.Steps, runner.StepResult{Step: st.Step, Line: st.Line, Command: st.Command, Action: st.Action, Status: st.Status, DurationMs: st.DurationMs})
			ar.DurationMs += st.DurationMs
			if st.Status == runner.StatusFailed {
				ar.Status, ar.Error = runner.StatusFailed, st.Error
			}
		}
	}
	// Paths as this command sees them (the result's are relative to where
	// the run was started).
	ar.ArtifactsDir, ar.Trace = scriptpath.Abs(env.Cwd, attemptDir), scriptpath.Abs(env.Cwd, traceDir)
	ar.Screenshot = ""
	if _, err := env.FS.Stat(filepath.Join(ar.ArtifactsDir, "failure.png")); err == nil {
		ar.Screenshot = filepath.Join(ar.ArtifactsDir, "failure.png")
	}
	name := td.Name
	if name == "" {
		name = td.File
	}
	res := &runner.Result{Version: 1, StartedAt: td.StartedAt, DurationMs: ar.DurationMs,
		Tests: []runner.TestResult{{File: td.File, Name: name, Platform: td.Platform, Status: ar.Status,
			DurationMs: ar.DurationMs, Attempts: []runner.AttemptResult{ar}}}}
	res.Stats.Total = 1
	switch ar.Status {
	case runner.StatusPassed:
		res.Stats.Passed = 1
	case runner.StatusTimedOut:
		res.Stats.TimedOut = 1
	default:
		res.Stats.Failed = 1
	}
	return res, traceDir, nil
}
