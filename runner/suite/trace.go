package suite

import (
	"os"
	"path/filepath"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/internal/scriptpath"
	"github.com/adtest/adtest/runner"
	"github.com/adtest/adtest/runner/trace"
)

// An attempt's trace (Config.Trace): recorded into <attempt>/trace/ when
// the mode records the attempt, closed once the replay returned, and
// removed when the mode does not keep it (retain-on-failure: a passed
// attempt).

// traceMode is the trace mode of a test on platform.
func (s *scheduler) traceMode(platform string) trace.Mode {
	if s.cfg.TraceDefault {
		return trace.DefaultMode(platform)
	}
	return s.cfg.Trace
}

// startTrace opens the attempt's trace, or returns nil.
func (s *scheduler) startTrace(t *Test, ai attemptInfo, art *artifacts, mask *drivers.Masker) *trace.Trace {
	if art.dir == "" || !s.traceMode(t.Platform).Records(ai.attempt) {
		return nil
	}
	tr, err := trace.New(filepath.Join(art.dir, trace.DirName), mask,
		trace.Info{File: t.File, Name: t.Name, Platform: t.Platform, Attempt: ai.attempt})
	if err != nil {
		art.errs = append(art.errs, "trace: "+err.Error())
		return nil
	}
	return tr
}

// finishTrace writes the trace's index and keeps or removes it. A replay
// that did not return may still write into it: it is left as it is.
func (s *scheduler) finishTrace(tr *trace.Trace, platform string, ai attemptInfo, ar *runner.AttemptResult, replayReturned bool) {
	if tr == nil || !replayReturned {
		return
	}
	if !s.traceMode(platform).Keeps(ai.attempt, ar.Status == runner.StatusPassed) {
		os.RemoveAll(tr.Dir())
		return
	}
	if err := tr.Close(); err != nil {
		ar.Warnings = append(ar.Warnings, "trace: "+err.Error())
		return
	}
	ar.Trace = scriptpath.Display(s.cfg.Cwd, tr.Dir())
}
