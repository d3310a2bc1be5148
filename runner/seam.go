package runner

// The side-effect seam (ADR 0014): where a mutating command expires the ref
// frame. Leaves never cross it themselves: a mutating leaf runs its
// pre-action guards (admission, resolution, argument checks) and returns a
// mutation; dispatch then runs the driver's Preflight, crosses the seam once
// and performs the mutation's device operations. Everything a leaf does
// before it returns is pre-seam, so a guard failure preserves the frame;
// a failure of the operations leaves it expired (no rollback).

import (
	"context"
	"errors"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
)

// mutation is what a mutating leaf asks dispatch to do past the seam: one
// logical command, resolved once.
// It is a value (no allocation per step); the zero mutation is none.
type mutation struct {
	// act is the first device operation (when hasAct), Preflighted when it
	// targets a node.
	act    drivers.Action
	hasAct bool
	// then performs the rest of the command (or all of it when act is nil);
	// a non-nil output replaces out.
	then func(ctx context.Context) (*Output, *ErrorInfo)
	// out is the command's output when then does not give one.
	out *Output
	// retarget resolves act's selector target again (nil for a ref or a
	// point: a ref is never re-resolved, ADR 0014). When act fails with a
	// reason that proves nothing was done (actionable), dispatch waits a
	// frame, re-resolves and tries again, until until.
	retarget func(ctx context.Context, within time.Duration) (*drivers.Target, *ErrorInfo)
	until    time.Time // on the session clock
	stop     time.Time // on the wall clock: just before the step's bound (zero: none)
}

// retryLeft is how long m may still retry (<= 0: no longer).
func (s *Session) retryLeft(m *mutation) time.Duration {
	left := m.until.Sub(s.cfg.Clock.Now())
	if !m.stop.IsZero() {
		left = min(left, time.Until(m.stop))
	}
	return left
}

// does is the mutation of one driver action.
func does(da drivers.Action, out *Output) mutation { return mutation{act: da, hasAct: true, out: out} }

// none reports the zero mutation: the leaf had nothing to do past the seam.
func (m *mutation) none() bool { return !m.hasAct && m.then == nil }

// mutate crosses the seam for a: the driver's Preflight guard first (still
// pre-seam), then the frame expires, then the operations run. A selector
// target that is not actionable yet (re-rendered, hidden, covered,
// disabled, moving) is resolved again and retried within the leaf's bound;
// the seam is still crossed once, before the first operation.
func (s *Session) mutate(ctx context.Context, a *lang.Action, m *mutation) (*Output, *ErrorInfo) {
	expired := false
	for attempt := 1; ; attempt++ {
		err := s.attempt(ctx, a, m, &expired)
		if err == nil {
			break
		}
		e := fromError(ctx, a.Command, s.cfg.Platform, err)
		if m.retarget == nil || !actionability(err) || ctx.Err() != nil {
			return nil, e
		}
		left := s.retryLeft(m)
		if left <= 0 {
			e.Details = map[string]any{"actionability": map[string]any{"attempts": attempt}}
			return nil, e
		}
		if ew := s.nextFrame(ctx, left); ew != nil {
			return nil, ew
		}
		tg, re := m.retarget(ctx, max(s.retryLeft(m), 0))
		if re != nil {
			return nil, re
		}
		m.act.Target = tg
	}
	out := m.out
	if m.then != nil {
		o, e := m.then(ctx)
		if e != nil {
			return nil, e
		}
		if o != nil {
			out = o
		}
	}
	return out, nil
}

// attempt is one try of a mutation's first operation: Preflight, the seam
// (once: expired records it), the driver's action.
func (s *Session) attempt(ctx context.Context, a *lang.Action, m *mutation, expired *bool) error {
	if m.hasAct && m.act.Target != nil && m.act.Target.Node != nil {
		if pf, ok := s.drv.(drivers.Preflighter); ok {
			if err := pf.Preflight(ctx, m.act); err != nil {
				return err
			}
		}
	}
	// The seam: this is the only place a mutation expires the frame.
	if !*expired {
		*expired = true
		// The step before's picture is the screen as it is now.
		s.beforeMutation()
		if eff, _ := lang.EffectOf(a); eff != lang.EffectPreserve {
			s.frame = s.frame.Expire()
		}
	}
	if m.hasAct {
		return s.act(ctx, m.act)
	}
	return nil
}

// actionability reports whether err is a target guard that proves the
// driver did nothing (drivers.TargetError) for a reason a selector target
// can outgrow: the element was re-rendered, is not shown yet, is covered,
// disabled or moving, or the press landed elsewhere and was held back.
func actionability(err error) bool {
	var te *drivers.TargetError
	if !errors.As(err, &te) {
		return false
	}
	switch te.Reason {
	case drivers.ReasonTargetStale, drivers.ReasonTargetNotVisible, drivers.ReasonTargetCovered, drivers.ReasonTargetDisabled, drivers.ReasonTargetNotEditable, drivers.ReasonTargetUnstable:
		return true
	}
	return false
}

// frameWaiter is implemented by drivers that can wait for the device's next
// rendered frame (the web driver: an animation frame of the page).
type frameWaiter interface {
	NextFrame(ctx context.Context) error
}

// nextFrame waits before a retry: the device's next frame when the driver
// has frames, else one poll interval (never beyond within).
func (s *Session) nextFrame(ctx context.Context, within time.Duration) *ErrorInfo {
	if fw, ok := s.drv.(frameWaiter); ok {
		if err := fw.NextFrame(ctx); err != nil {
			return fromError(ctx, "wait", s.cfg.Platform, err)
		}
		return nil
	}
	return s.sleep(ctx, min(s.cfg.PollInterval, within))
}
