package suite

// --repair: a failed last attempt whose step diverged for a target reason
// is handed, with its live session, to runner/repair; the patch and the
// record go under the run's repairs/, the report onto the attempt. The
// attempt stays failed: the script as written is broken.

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/internal/scriptpath"
	"github.com/adtest/adtest/runner"
	"github.com/adtest/adtest/runner/repair"
	"github.com/adtest/adtest/runner/runctx"
	"github.com/adtest/adtest/runner/trace"
)

// RepairConfig turns --repair on.
type RepairConfig struct {
	// MaxTries bounds the candidates per step, MaxSteps the repaired steps
	// per script (0: repair's defaults).
	MaxTries, MaxSteps int
	// Apply writes a verified repair over the script file (--apply).
	Apply bool
}

// sessionHolder is a Replayer that hands out its runner.Session (the
// production one): a repair continues that live session.
type sessionHolder interface{ Session() *runner.Session }

// Session is the replayer's live session.
func (r *sessionReplayer) Session() *runner.Session { return r.s }

// repairBudget bounds a whole repair: its replays each get the test's own
// deadline, for every candidate and the verifying re-run.
func repairBudget(t *Test, rc *RepairConfig) time.Duration {
	per := time.Duration(t.TimeoutMs) * time.Millisecond
	if per <= 0 {
		per = 2 * time.Minute
	}
	tries := max(rc.MaxTries, repair.DefaultMaxTries) * max(rc.MaxSteps, repair.DefaultMaxSteps)
	return per * time.Duration(tries+2)
}

// repairAttempt runs a repair of t after its failed attempt ar on rep's
// live session, and attaches the report to ar.
func (s *scheduler) repairAttempt(ctx context.Context, t *Test, ai attemptInfo, rep Replayer, prov drivers.Provider, ar *runner.AttemptResult, art *artifacts, run *runctx.Run, attemptTrace *trace.Trace) {
	rc := s.cfg.Repair
	h, ok := rep.(sessionHolder)
	if !ok || rc == nil || t.Script == nil || ar.Error == nil || ar.Error.Code != runner.CodeReplayDivergence {
		return
	}
	rctx, cancel := context.WithTimeout(ctx, repairBudget(t, rc))
	defer cancel()
	ro := runner.ReplayOptions{Scope: run.Scope, Secrets: run.Secrets, StepTimeout: s.cfg.StepTimeout}
	header, applyDir := t.File, ""
	if t.Path != "" {
		header, applyDir = repair.Locate(s.cfg.Cwd, t.Path)
	}
	opts := repair.Options{
		Replay: ro, MaxTries: rc.MaxTries, MaxSteps: rc.MaxSteps, Path: t.File, Header: header,
		Open: func(ctx context.Context) (*runner.Session, error) {
			d, err := prov.NewSession(ctx, drivers.SessionOptions{Worker: ai.worker, Device: ai.device})
			if err != nil {
				return nil, err
			}
			return runner.NewSession(d, runner.SessionConfig{Platform: t.Platform, File: t.File, ArtifactsDir: art.dir}), nil
		},
		Screenshot: func(name string, png []byte) (string, error) {
			p := art.write(name+".png", png)
			return scriptpath.Display(s.cfg.Cwd, p), nil
		},
	}
	// The failed attempt's trace is the failure's: the repair's replays
	// (the live session's continuation included) each get their own.
	if attemptTrace != nil {
		h.Session().RemoveHook(attemptTrace)
	}
	if art.dir != "" && run.Records() {
		mask := run.Mask
		opts.Trace = func(n int) *trace.Trace {
			tr, err := trace.New(filepath.Join(art.dir, fmt.Sprintf("repair-trace-%d", n)), mask,
				trace.Info{File: t.File, Name: fmt.Sprintf("%s (repair replay %d)", t.Name, n), Platform: t.Platform, Attempt: ai.attempt})
			if err != nil {
				ar.Warnings = append(ar.Warnings, "repair trace: "+err.Error())
				return nil
			}
			return tr
		}
	}
	res := repair.Repair(rctx, h.Session(), t.Script, t.Source, *ar, opts)
	var patch, record string
	if s.cfg.RunDir != "" {
		var err error
		patch, record, err = repair.Write(s.cfg.RunDir, res)
		if err != nil {
			ar.Warnings = append(ar.Warnings, "repair: "+err.Error())
		}
	}
	report := res.Report(scriptpath.Display(s.cfg.Cwd, patch), scriptpath.Display(s.cfg.Cwd, record))
	if patch == "" {
		report.Patch = ""
	} else {
		report.ApplyCommand = repair.ApplyCommand(s.cfg.Cwd, applyDir, patch)
	}
	if record == "" {
		report.Record = ""
	}
	if rc.Apply && res.Verified && t.Path != "" {
		if err := repair.Apply(t.Path, res); err != nil {
			ar.Warnings = append(ar.Warnings, "repair --apply: "+err.Error())
		} else {
			report.Applied = true
		}
	}
	ar.Repair = report
}
