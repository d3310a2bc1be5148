package runner

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
)

// The one path a command takes (Session.Step): interpolate ${VAR}, bind,
// verify target-v1 evidence, dispatch (guards, the side-effect seam, the
// driver). Replay is a loop over it; the daemon calls it once per command.
// The session's hooks (hook.go) are called around every step.

// StepOptions is what Step needs beyond the action.
type StepOptions struct {
	Scope   *lang.Scope // variables; nil = none
	Secrets []string    // values to mask in texts and the journal
	File    string      // script path for messages ("" = the session's)
	// Step and Total are the 1-based index of the step and the number of
	// steps (0 when interactive).
	Step, Total int
	// Timeout bounds the step (0: only ctx); a step that outlives it fails
	// with reason step_timeout.
	Timeout time.Duration
	// Args are the action's bound arguments when the caller bound it
	// already (lang.Bind); the step binds the action itself when they are
	// nil or interpolation changed the action.
	Args lang.Args
}

// Step runs one action: interpolation, binding, target-v1 verification and
// dispatch, under the session's request lock, with the hooks around it.
// Errors are the step's own (Replay wraps them into REPLAY_DIVERGENCE).
func (s *Session) Step(ctx context.Context, a *lang.Action, opts StepOptions) (*Output, *ErrorInfo) {
	s.mu.Lock()
	defer s.mu.Unlock()
	file := opts.File
	if file == "" {
		file = s.cfg.File
	}
	rec := &s.rec
	*rec = JournalEntry{Step: opts.Step, Total: opts.Total, Line: a.Line(), File: file, Written: a, Start: s.cfg.Clock.Now()}
	s.beginStep(ctx, rec)
	s.step(ctx, rec, opts, stepMasker(opts.Scope, opts.Secrets), rec.Start)
	s.drainEvents(rec)
	s.endStep(ctx, rec)
	return rec.Output, rec.Error
}

// step is Step without the lock and the hooks: it runs rec.Written and
// completes its record, its duration from start (rec.Text, when set, is
// the masked text of the action as written).
func (s *Session) step(ctx context.Context, rec *JournalEntry, opts StepOptions, red *drivers.Masker, start time.Time) {
	a := rec.Written
	file := rec.File
	rec.EpochBefore = s.frame.Generation()
	s.resolution = nil
	ra, err := interpolate(a, opts.Scope, file)
	if err != nil {
		// Unresolved variables are plain INVALID_ARGS, not a divergence.
		rec.Error = fromError(ctx, a.Command, s.cfg.Platform, err)
		rec.Error.Message = red.String(rec.Error.Message)
	} else {
		rec.Bound = ra
		args, berr := opts.Args, error(nil)
		if args == nil || ra != a {
			args, berr = lang.Bind(ra)
		}
		if berr == nil {
			rec.Args = args
		}
		// Target-binding verification completes before dispatch (and so
		// before the seam): a divergence here preserves the frame. Arguments
		// that do not bind are reported by dispatch, after its session checks.
		sctx, scancel := stepBound(ctx, opts.Timeout)
		if berr == nil {
			rec.Error = s.verifyTarget(sctx, ra, args)
		}
		if rec.Error == nil {
			rec.Output, rec.Error = s.dispatchBound(sctx, ra, args, berr)
		}
		if rec.Error != nil && ctx.Err() == nil && errors.Is(sctx.Err(), context.DeadlineExceeded) {
			rec.Error = stepTimeoutError(ra, opts.Step, opts.Timeout)
		}
		scancel()
	}
	rec.Duration = s.cfg.Clock.Now().Sub(start)
	shown := rec.Bound
	if shown == nil {
		shown = a
	}
	if shown != a || rec.Text == "" {
		rec.Text = actionText(red, shown)
	}
	rec.Status = StatusPassed
	if rec.Error != nil {
		rec.Status = StatusFailed
	}
	if rec.Output != nil && rec.Output.Warning != "" {
		rec.Warning = red.String(rec.Output.Warning)
	}
	rec.Resolution, rec.EpochAfter, rec.Effect = s.resolution, s.frame.Generation(), stepEffect(shown)
	s.resolution = nil
}

// resolvedAt records how the current step resolved its target (the journal's
// Resolution); the last resolution of a step wins.
func (s *Session) resolvedAt(kind lang.TargetKind, ref, selector string, tree *drivers.Snapshot, idx int, pt drivers.Point) {
	if len(s.hooks) == 0 {
		return
	}
	r := &Resolution{Kind: kind, Ref: ref, Selector: selector, Index: idx, Tree: tree, Point: pt}
	if tree != nil && idx >= 0 && idx < len(tree.Nodes) {
		r.Node = &tree.Nodes[idx]
	}
	s.resolution = r
}

// actionText is the canonical text of an action with variable values and
// secrets masked: the values are masked before printing, so quoting cannot
// hide one from the mask.
func actionText(r *drivers.Masker, a *lang.Action) string {
	if r == nil {
		return lang.FormatCommandLine(a)
	}
	b := *a
	b.Positionals = r.Strings(a.Positionals)
	if a.RefLabel != nil {
		l := r.String(*a.RefLabel)
		b.RefLabel = &l
	}
	for _, dst := range []*lang.Flags{&b.Flags, &b.Runtime} {
		if *dst == nil {
			continue
		}
		m := make(lang.Flags, len(*dst))
		for k, v := range *dst {
			if s, ok := v.(string); ok {
				v = r.String(s)
			}
			m[k] = v
		}
		*dst = m
	}
	return r.String(lang.FormatCommandLine(&b))
}

// stepBound derives the context of one step from the attempt's.
func stepBound(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		// No bound: the step runs on the attempt's context as it is (a
		// cancel context per step cost two allocations and a registration
		// with the parent, for nothing to cancel).
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, d)
}

// stepTimeoutError is the failure of a step whose bound passed while the
// attempt's own context is still live.
func stepTimeoutError(a *lang.Action, step int, d time.Duration) *ErrorInfo {
	e := newErr(CodeCommandFailed, drivers.ReasonStepTimeout, "step %d (%s, line %d) did not finish within the step bound of %dms",
		step, a.Command, a.Line(), d.Milliseconds())
	e.Hint = "the page or device stopped answering (a script that never returns, a hung app); raise --step-timeout MS if the step is legitimately slow"
	e.Details = map[string]any{"stepTimeoutMs": d.Milliseconds()}
	return e
}

// interpolate resolves ${VAR} in positionals, string flags and runtime hints
// just before the step runs. Strings without '$' are left untouched.
func interpolate(a *lang.Action, scope *lang.Scope, file string) (*lang.Action, error) {
	need := false
	for _, p := range a.Positionals {
		need = need || strings.Contains(p, "$")
	}
	for _, f := range []lang.Flags{a.Flags, a.Runtime} {
		for _, v := range f {
			if s, ok := v.(string); ok && strings.Contains(s, "$") {
				need = true
			}
		}
	}
	if !need {
		return a, nil
	}
	if scope == nil {
		scope = &lang.Scope{}
	}
	b := *a
	b.Positionals = make([]string, len(a.Positionals))
	for i, p := range a.Positionals {
		v, err := scope.Interpolate(p, file, a.Line())
		if err != nil {
			return nil, err
		}
		b.Positionals[i] = v
	}
	for _, dst := range []*lang.Flags{&b.Flags, &b.Runtime} {
		src := *dst
		if src == nil {
			continue
		}
		m := make(lang.Flags, len(src))
		for k, v := range src {
			if s, ok := v.(string); ok {
				r, err := scope.Interpolate(s, file, a.Line())
				if err != nil {
					return nil, err
				}
				v = r
			}
			m[k] = v
		}
		*dst = m
	}
	return &b, nil
}
