package runner

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
)

// ReplayOptions configure one replay.
type ReplayOptions struct {
	Scope    *lang.Scope
	Observer Observer
	Secrets  []string // values to mask
	// StepTimeout bounds each step (0: no bound of its own); a step that
	// does not finish in time fails with reason step_timeout.
	StepTimeout time.Duration
	// From is the 1-based step a resume starts at (replay --from N): the
	// steps before it are reported skipped, never run. 0 and 1 run all.
	From int
	// PlanDigest is the script's plan digest (lang.PlanDigest); when set, a
	// divergence carries the resume object that continues the replay.
	PlanDigest string
	// Hooks are called around this replay's steps after the session's own
	// (a repair's replay has a trace of its own).
	Hooks []StepHook
	// BeforeClose, when set, is handed a screenshot (Secrets painted over)
	// taken just before the replay's first `close` step: the last screen the
	// script showed, where one taken after the replay is a blank page.
	BeforeClose func(png []byte)
}

// Replay runs a script's steps one at a time through Step. The first
// failing step ends the attempt with one REPLAY_DIVERGENCE error.
func (s *Session) Replay(ctx context.Context, script *lang.Script, opts ReplayOptions) AttemptResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.replaying = true
	defer func() { s.replaying = false }()
	if opts.Observer != nil || len(opts.Hooks) > 0 {
		// The observer encloses the other hooks: its step starts first and
		// finishes last.
		prev := s.hooks
		hooks := make([]StepHook, 0, 1+len(prev)+len(opts.Hooks))
		if opts.Observer != nil {
			hooks = append(hooks, observerHook{o: opts.Observer})
		}
		s.hooks = append(append(hooks, prev...), opts.Hooks...)
		defer func() { s.hooks = prev }()
	}
	// The last step's picture, while the device is still there.
	defer s.flushHooks()
	start := s.cfg.Clock.Now()
	red := stepMasker(opts.Scope, opts.Secrets)
	total := len(script.Actions)
	res := AttemptResult{Status: StatusPassed, Steps: make([]StepResult, 0, total)}
	finish := func() AttemptResult {
		res.DurationMs = s.cfg.Clock.Now().Sub(start).Milliseconds()
		return res
	}
	file := script.File
	if file == "" {
		file = s.cfg.File
	}
	for i, a := range script.Actions {
		step := i + 1
		rec := &s.rec
		*rec = JournalEntry{Step: step, Total: total, Line: a.Line(), File: file, Written: a, Text: actionText(red, a), Start: s.cfg.Clock.Now()}
		if lang.TraitsOf(a.Command).Nests || step < opts.From {
			rec.Status = StatusSkipped
			s.beginStep(ctx, rec)
			s.endStep(ctx, rec)
			res.Steps = append(res.Steps, rec.Result())
			continue
		}
		if lang.TraitsOf(a.Command).ClosesSession && opts.BeforeClose != nil {
			s.shotBeforeClose(ctx, opts, red)
			opts.BeforeClose = nil
		}
		start := s.cfg.Clock.Now()
		s.beginStep(ctx, rec)
		s.step(ctx, rec, StepOptions{Scope: opts.Scope, Secrets: opts.Secrets, File: file, Step: step, Total: total, Timeout: opts.StepTimeout}, red, start)
		s.drainEvents(rec)
		if e := rec.Error; e != nil && rec.Bound != nil {
			// The divergence screen is a capture too: bounded like a step.
			dctx, dcancel := stepBound(ctx, opts.StepTimeout)
			rec.Reported = s.divergence(dctx, rec.Bound, file, step, total, e, res.Steps, red)
			if opts.PlanDigest != "" && rec.Reported.Code == CodeReplayDivergence {
				addResume(rec.Reported, step, total, opts.PlanDigest)
			}
			dcancel()
			s.drainAfterStep(rec)
		}
		if rec.Warning != "" {
			res.Warnings = append(res.Warnings, fmt.Sprintf("step %d: %s", step, rec.Warning))
		}
		res.Steps = append(res.Steps, rec.Result())
		s.endStep(ctx, rec)
		if rec.Reported != nil {
			rec.Error = rec.Reported
		}
		if e := rec.Error; e != nil {
			res.Status = StatusFailed
			if e.Reason == drivers.ReasonTimeout || (ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded)) {
				res.Status = StatusTimedOut
			}
			res.Error = e
			return finish()
		}
	}
	return finish()
}

// shotBeforeClose hands opts.BeforeClose the screen before a close step,
// bounded like a step; a screenshot that fails is skipped.
func (s *Session) shotBeforeClose(ctx context.Context, opts ReplayOptions, red *drivers.Masker) {
	sctx, cancel := stepBound(ctx, opts.StepTimeout)
	defer cancel()
	png, err := s.drv.Screenshot(sctx, drivers.ScreenshotOptions{Mask: red.Values()})
	if err == nil {
		png, err = drivers.Blank(png, red.Values())
	}
	if err == nil && len(png) > 0 {
		opts.BeforeClose(png)
	}
}
