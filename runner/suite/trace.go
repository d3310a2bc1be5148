package suite

import (
	"path/filepath"

	"github.com/adtest/adtest/internal/scriptpath"
	"github.com/adtest/adtest/runner"
	"github.com/adtest/adtest/runner/runctx"
	"github.com/adtest/adtest/runner/trace"
)

// An attempt's run context and trace (Config.Trace): recorded into
// <attempt>/trace/ when the mode records the attempt, closed once the
// replay returned, and removed when the mode does not keep it
// (retain-on-failure: a passed attempt).

// runContext is the run context of an attempt of t: its variables and
// secrets (the scope's built-ins come once the artifacts directory is
// known).
func (s *scheduler) runContext(t *Test) *runctx.Run {
	return runctx.New(runctx.Vars{CLI: s.cfg.CLIVars, Process: s.cfg.ProcessVars, Script: t.Script,
		MaskNames: s.cfg.MaskNames, BlankPictures: s.cfg.BlankPictures})
}

// tracePolicy is the run's trace policy (Config.Trace, TraceDefault).
func (s *scheduler) tracePolicy() trace.Policy {
	return trace.Policy{Mode: s.cfg.Trace, PlatformDefault: s.cfg.TraceDefault}
}

// startTrace starts the attempt's trace in its artifacts, when the policy
// records it.
func (s *scheduler) startTrace(rc *runctx.Run, t *Test, ai attemptInfo, art *artifacts) {
	dir := ""
	if art.dir != "" {
		dir = filepath.Join(art.dir, trace.DirName)
	}
	if err := rc.StartTrace(s.tracePolicy(), t.Platform, ai.attempt, dir, trace.Info{File: t.File, Name: t.Name}); err != nil {
		art.errs = append(art.errs, "trace: "+err.Error())
	}
}

// finishTrace writes the trace's index and keeps or removes it. A replay
// that did not return may still write into it: it is left as it is.
func (s *scheduler) finishTrace(rc *runctx.Run, ar *runner.AttemptResult, replayReturned bool) {
	if !replayReturned {
		return
	}
	dir, err := rc.FinishTrace(ar.Status == runner.StatusPassed)
	if err != nil {
		ar.Warnings = append(ar.Warnings, "trace: "+err.Error())
		return
	}
	if dir != "" {
		ar.Trace = scriptpath.Display(s.cfg.Cwd, dir)
	}
}
