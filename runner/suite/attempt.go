package suite

// One attempt of a test: a fresh session, the replay under the attempt's
// deadline, the evidence of a failure, and the teardown; the step relay.

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/internal/scriptpath"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner"
)

// stepRelay hands an attempt's step events to the listener, with the test
// and attempt filled in.
type stepRelay struct {
	runner.StepsOnly
	s    *scheduler
	t    *Test
	ai   attemptInfo
	mask *drivers.Masker
}

func (r *stepRelay) fill(ev runner.StepEvent) runner.StepEvent {
	ev.File, ev.Name, ev.Attempt, ev.Worker = r.t.File, r.t.Name, r.ai.attempt, r.ai.worker
	ev.Action = r.mask.String(ev.Action)
	return ev
}

func (r *stepRelay) StepStarted(ev runner.StepEvent) {
	ev = r.fill(ev)
	if l := r.s.cfg.Listener; l != nil {
		r.s.mu.Lock()
		defer r.s.mu.Unlock()
		l.StepStarted(ev)
	}
}

func (r *stepRelay) StepFinished(ev runner.StepEvent) {
	ev = r.fill(ev)
	if l := r.s.cfg.Listener; l != nil {
		r.s.mu.Lock()
		defer r.s.mu.Unlock()
		l.StepFinished(ev)
	}
}

type attemptInfo struct {
	worker, attempt, max, n int
	device                  string
	ws                      *workerState
}

// builtIns are the AD_* variables of an attempt.
func (s *scheduler) builtIns(t *Test, ai attemptInfo, artifacts string) map[string]string {
	b := map[string]string{
		"AD_PLATFORM":  t.Platform,
		"AD_SESSION":   s.sessionName(t, ai),
		"AD_FILENAME":  t.File,
		"AD_ARTIFACTS": artifacts,
	}
	if s.cfg.BaseURL != "" {
		b["AD_BASE_URL"] = s.cfg.BaseURL
	}
	if s.cfg.Shard.Enabled() {
		b["AD_SHARD_INDEX"] = strconv.Itoa(s.cfg.Shard.Index - 1)
		b["AD_SHARD_COUNT"] = strconv.Itoa(s.cfg.Shard.Count)
	}
	if ai.device != "" {
		b["AD_DEVICE"] = ai.device
	}
	return b
}

func (s *scheduler) sessionName(t *Test, ai attemptInfo) string {
	return fmt.Sprintf("%s:test:%d-%s:attempt-%d", s.cfg.RunID, ai.n, Slug(t.Name), ai.attempt)
}

// runAttempt runs one attempt in a fresh session. infra reports a failure of
// the device or the helper (no retry).
func (s *scheduler) runAttempt(ctx context.Context, t *Test, ai attemptInfo) (runner.AttemptResult, bool) {
	rc := s.runContext(t)
	mask := rc.Mask
	start := s.now()
	art := s.newArtifacts(t, ai, mask)
	rc.Scope.BuiltIns = s.builtIns(t, ai, art.dir)
	tw := art.timing()
	tw.write(map[string]any{"event": "attempt_start", "ts": start, "file": t.File, "attempt": ai.attempt,
		"of": ai.max, "worker": ai.worker, "device": ai.device, "platform": t.Platform,
		"timeoutMs": t.TimeoutMs, "session": s.sessionName(t, ai)})
	art.writeScript(t.Source)
	s.startTrace(rc, t, ai, art)
	attemptTrace := rc.Trace

	// The session is opened before the attempt's hard deadline starts, under
	// its own bound (Config.SessionStartTimeout): on a worker's
	// first test this starts the browser or the device helper, and neither a
	// test's `timeout=` nor a short step bound measures the launch of what it
	// runs on (under load a Chromium start alone can take seconds).
	prov := s.providers[t.Platform]
	var sess drivers.Driver
	var serr error
	if prov != nil {
		sctx, scancel := context.WithTimeout(ctx, s.cfg.sessionStartBound())
		sess, serr = s.acquire(ctx, sctx, prov, t.Platform, ai)
		scancel()
	}

	actx, cancel := context.WithCancel(ctx)
	defer cancel()
	if t.TimeoutMs > 0 {
		var c2 context.CancelFunc
		actx, c2 = context.WithTimeout(actx, time.Duration(t.TimeoutMs)*time.Millisecond)
		defer c2()
	}

	var ar runner.AttemptResult
	infra := false
	var drv drivers.Driver
	var rep Replayer
	var journal *stepJournal // --annotate
	replayReturned := true

	if prov == nil {
		ar = failedAttempt(runner.CodeInfra, drivers.ReasonNoDriver, fmt.Sprintf("no driver for platform %q", t.Platform), "")
		infra = true
	} else if serr != nil {
		ar = failedAttempt(runner.CodeInfra, drivers.ReasonSessionStart, "could not start a session: "+serr.Error(),
			"the browser or device did not accept a new session; check it is running")
		infra = errors.Is(serr, drivers.ErrInfrastructure) || ctx.Err() == nil
	} else {
		d := sess
		drv = d
		ac := AttemptContext{File: t.File, Platform: t.Platform,
			ArtifactsDir: art.dir, Attempt: ai.attempt, Worker: ai.worker, Trace: attemptTrace,
			Timing: timingHook{tw: tw, now: s.now}}
		if s.cfg.Annotate != nil {
			journal = &stepJournal{}
			ac.Journal = journal
		}
		rep = s.cfg.NewReplayer(d, ac)
		params := ReplayParams{
			Scope:   rc.Scope,
			Secrets: rc.Secrets,
			Steps:   &stepRelay{s: s, t: t, ai: ai, mask: mask},

			StepTimeout: s.cfg.StepTimeout,
		}
		ar, replayReturned = s.replay(actx, rep, t.Script, params)
	}
	ar, timedOut := settle(ctx, actx, t, ar)

	// Evidence, only from a session that answers.
	if ar.Status != runner.StatusPassed && drv != nil && replayReturned && ctx.Err() == nil {
		ecx, ecancel := context.WithTimeout(context.WithoutCancel(ctx), s.grace)
		art.evidence(ecx, rep, s.cfg.FormatSnapshot, &ar)
		ecancel()
	}

	s.finishTrace(rc, &ar, replayReturned)
	// --repair: the live session of a failed last attempt (repair.go).
	if s.cfg.Repair != nil && ar.Status == runner.StatusFailed && drv != nil && replayReturned && ctx.Err() == nil && ai.attempt == ai.max {
		s.repairAttempt(ctx, t, ai, rep, prov, &ar, art, rc, attemptTrace)
	}

	// --annotate: a passed attempt's steps (annotate.go); the last failed
	// attempt says it annotated nothing.
	if journal != nil && (ar.Status == runner.StatusPassed || ai.attempt == ai.max) && ctx.Err() == nil {
		s.annotateAttempt(t, journal, &ar, rc)
	}

	if drv != nil && s.release(ctx, drv, rep, &ar, replayReturned) {
		infra = true
	}
	s.record(&ar, start, timedOut, ai, art, mask, tw)
	// A device that failed mid-attempt: its worker's retry would run on the
	// same dead device, so there is none. (A browser's failure is retried:
	// the next attempt gets a new browser.)
	infra = infra || ai.device != "" && ar.Error != nil && ar.Error.Reason == drivers.ReasonInfrastructure
	return ar, infra
}

// replay runs the script on the attempt's session. At the deadline or an
// interrupt the step in flight is cancelled through actx, and the executor
// gets a grace period to return; returned is false when it did not.
func (s *scheduler) replay(actx context.Context, rep Replayer, script *lang.Script, params ReplayParams) (ar runner.AttemptResult, returned bool) {
	done := make(chan runner.AttemptResult, 1)
	go func() { done <- rep.Replay(actx, script, params) }()
	select {
	case ar = <-done:
		return ar, true
	case <-actx.Done():
	}
	timer := time.NewTimer(s.grace)
	defer timer.Stop()
	select {
	case ar = <-done:
		return ar, true
	case <-timer.C:
		return ar, false
	}
}

// settle classifies how the attempt ended: its hard deadline (timedOut), an
// interrupt, or the replay's own result; a replay that passed just as the
// deadline fell has still passed.
func settle(ctx, actx context.Context, t *Test, ar runner.AttemptResult) (runner.AttemptResult, bool) {
	timedOut := errors.Is(actx.Err(), context.DeadlineExceeded) && ctx.Err() == nil && ar.Status != runner.StatusPassed
	if timedOut {
		steps := ar.Steps
		ar = failedAttempt("COMMAND_FAILED", drivers.ReasonTimeout, fmt.Sprintf("TIMEOUT after %dms", t.TimeoutMs),
			"the attempt exceeded its hard deadline (--timeout or `context timeout=`); the step in flight was cancelled")
		ar.Status = runner.StatusTimedOut
		ar.Steps = steps
		ar.Error.Details = map[string]any{"reason": string(drivers.ReasonTimeout), "timeoutMs": t.TimeoutMs}
		if n := len(steps); n > 0 {
			ar.Error.Step, ar.Error.Line, ar.Error.Command = steps[n-1].Step, steps[n-1].Line, steps[n-1].Command
		}
	} else if ctx.Err() != nil && ar.Status == "" {
		ar = failedAttempt("INTERRUPTED", drivers.ReasonInterrupted, "the run was interrupted", "")
	}
	if ar.Status == "" {
		ar.Status = runner.StatusFailed
	}
	if ar.Steps == nil {
		ar.Steps = []runner.StepResult{}
	}
	return ar, timedOut
}

// release tears the session down within the grace period; a hung teardown
// is abandoned. A passed attempt's session closes in the background (the
// worker moves on; Run waits for these before it returns); any other is
// closed now, so that a hung teardown is reported on the attempt as
// infrastructure (the result: true).
func (s *scheduler) release(ctx context.Context, drv drivers.Driver, rep Replayer, ar *runner.AttemptResult, replayReturned bool) bool {
	if ar.Status == runner.StatusPassed && replayReturned {
		s.bg.Add(1)
		go func() {
			defer s.bg.Done()
			s.teardown(ctx, drv, rep)
		}()
		return false
	}
	if s.teardown(ctx, drv, rep) && replayReturned {
		return false
	}
	if ar.Error == nil {
		ar.Error = &runner.ErrorInfo{Code: runner.CodeInfra, Message: "session teardown hung"}
	}
	if ar.Error.Details == nil {
		ar.Error.Details = map[string]any{}
	}
	ar.Error.Reason = drivers.ReasonTimeoutCleanupPending
	ar.Error.Details["timeoutCleanupPending"] = true
	ar.Error.Hint = "the session did not stop within the grace period and was abandoned; the device or browser may need a restart"
	if ar.Status == runner.StatusPassed {
		ar.Status = runner.StatusFailed
	}
	return true
}

// record completes the attempt's result (times, worker, paths as the user
// sees them, artifact warnings, secrets masked) and writes its timing and
// result files.
func (s *scheduler) record(ar *runner.AttemptResult, start time.Time, timedOut bool, ai attemptInfo, art *artifacts, mask *drivers.Masker, tw *timingWriter) {
	end := s.now()
	ar.DurationMs = end.Sub(start).Milliseconds()
	ar.StartedAt = start
	ar.Worker = ai.worker
	ar.Device = ai.device
	ar.Shard = s.cfg.Shard.String()
	if art.dir != "" {
		ar.ArtifactsDir = scriptpath.Display(s.cfg.Cwd, art.dir)
	}
	if ar.Screenshot != "" {
		ar.Screenshot = scriptpath.Display(s.cfg.Cwd, ar.Screenshot)
	}
	for _, e := range art.errs {
		ar.Warnings = append(ar.Warnings, "artifacts: "+e)
	}
	ar.Mask(mask)
	stop := map[string]any{"event": "attempt_stop", "ts": end, "status": ar.Status,
		"durationMs": ar.DurationMs, "timedOut": timedOut}
	if ar.Error != nil {
		stop["errorCode"] = ar.Error.Code
	}
	tw.write(stop)
	tw.close()
	art.writeResult(ar)
}

// teardown closes the session; false when it did not finish within grace.
func (s *scheduler) teardown(ctx context.Context, drv drivers.Driver, rep Replayer) bool {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.grace)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if rep != nil {
			rep.Close(cctx)
		}
		drv.Close(cctx)
	}()
	timer := time.NewTimer(s.grace)
	defer timer.Stop()
	select {
	case <-done:
		cancel()
		return true
	case <-timer.C:
		cancel()
		return false
	}
}

func failedAttempt(code string, reason drivers.Reason, msg, hint string) runner.AttemptResult {
	return runner.AttemptResult{
		Status: runner.StatusFailed,
		Steps:  []runner.StepResult{},
		Error:  &runner.ErrorInfo{Code: code, Reason: reason, Message: msg, Hint: hint},
	}
}
