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
}

// does is the mutation of one driver action.
func does(da drivers.Action, out *Output) mutation { return mutation{act: da, hasAct: true, out: out} }

// none reports the zero mutation: the leaf had nothing to do past the seam.
func (m *mutation) none() bool { return !m.hasAct && m.then == nil }

// mutate crosses the seam for a: the driver's Preflight guard first (still
// pre-seam), then the frame expires, then the operations run.
func (s *Session) mutate(ctx context.Context, a *lang.Action, m *mutation) (*Output, *ErrorInfo) {
	if m.hasAct && m.act.Target != nil && m.act.Target.Node != nil {
		if pf, ok := s.drv.(drivers.Preflighter); ok {
			if err := pf.Preflight(ctx, m.act); err != nil {
				return nil, fromError(ctx, a.Command, s.cfg.Platform, err)
			}
		}
	}
	// The seam: this is the only place a mutation expires the frame.
	if eff, _ := lang.EffectOf(a); eff != lang.EffectPreserve {
		s.frame = s.frame.Expire()
	}
	if m.hasAct {
		if err := s.drv.Act(ctx, m.act); err != nil {
			return nil, fromError(ctx, a.Command, s.cfg.Platform, err)
		}
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
