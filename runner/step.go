package runner

import (
	"context"
	"errors"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
)

// The one path a command takes (Session.Step): interpolate ${VAR}, bind,
// verify target-v1 evidence, dispatch (guards, the side-effect seam, the
// driver). Replay is a loop over it; the daemon calls it once per command.
// A Journal, when configured, hears every step after it finishes.

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
}

// Journal receives one entry per step, after the step finished, in order.
// It is called with the session's request lock held: it must not call back
// into the session.
type Journal interface{ Record(e JournalEntry) }

// JournalEntry is what one step did.
type JournalEntry struct {
	Step, Line int
	Written    *lang.Action // the action as written (before interpolation)
	Bound      *lang.Action // after interpolation and binding (nil when interpolation failed)
	// Text is the canonical action text (lang.FormatAction of Bound, else of
	// Written) with variable values and secrets masked.
	Text       string
	Resolution *Resolution // nil when the action resolved no target
	// EpochBefore and EpochAfter are the ref-frame epoch around the step.
	EpochBefore, EpochAfter int64
	// Effect is the step's ref-frame effect: "mutation", "read", "snapshot",
	// "partial" or "none".
	Effect   string
	Output   *Output
	Error    *ErrorInfo
	Start    time.Time
	Duration time.Duration
}

// Resolution is how a step's target was resolved.
type Resolution struct {
	Kind     string        // "ref", "selector" or "point"
	Ref      string        // "@e3" (pin stripped) when Kind == "ref"
	Selector string        // the selector chain as written, when Kind == "selector"
	Node     *drivers.Node // the resolved node (nil for a point)
	Index    int           // its index in Tree.Nodes (-1 for a point)
	// Tree is the immutable tree the target was resolved in: the frame's tree
	// for a ref, the internal capture for a selector (nil for a point).
	Tree  *drivers.Snapshot
	Point drivers.Point // the point acted on (a node's centre for refs and selectors)
}

// Step runs one action: interpolation, binding, target-v1 verification and
// dispatch, under the session's request lock. Errors are the step's own
// (Replay wraps them into REPLAY_DIVERGENCE).
func (s *Session) Step(ctx context.Context, a *lang.Action, opts StepOptions) (*Output, *ErrorInfo) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.step(ctx, a, opts, newRedactor(opts.Scope, opts.Secrets), "")
	return r.out, r.err
}

// stepResult is the outcome of one step, for Replay.
type stepResult struct {
	out   *Output
	err   *ErrorInfo
	bound *lang.Action // nil when interpolation failed
	text  string       // masked action text
	dur   time.Duration
}

// step is Step without the lock. written is the masked text of a when the
// caller has it already ("" = not yet).
func (s *Session) step(ctx context.Context, a *lang.Action, opts StepOptions, red *redactor, written string) stepResult {
	file := opts.File
	if file == "" {
		file = s.cfg.File
	}
	start := s.cfg.Clock.Now()
	before := s.frame.Generation()
	s.resolution = nil
	var r stepResult
	ra, err := interpolate(a, opts.Scope, file)
	if err != nil {
		// Unresolved variables are plain INVALID_ARGS, not a divergence.
		r.err = fromError(ctx, a.Command, s.cfg.Platform, err)
		r.err.Message = red.apply(r.err.Message)
	} else {
		r.bound = ra
		args, berr := lang.Bind(ra)
		// Target-binding verification completes before dispatch (and so
		// before the seam): a divergence here preserves the frame. Arguments
		// that do not bind are reported by dispatch, after its session checks.
		sctx, scancel := stepBound(ctx, opts.Timeout)
		if berr == nil {
			r.err = s.verifyTarget(sctx, ra, args)
		}
		if r.err == nil {
			r.out, r.err = s.dispatchBound(sctx, ra, args, berr)
		}
		if r.err != nil && ctx.Err() == nil && errors.Is(sctx.Err(), context.DeadlineExceeded) {
			r.err = stepTimeoutError(ra, opts.Step, opts.Timeout)
		}
		scancel()
	}
	r.dur = s.cfg.Clock.Now().Sub(start)
	shown := r.bound
	if shown == nil {
		shown = a
	}
	if shown == a && written != "" {
		r.text = written
	} else {
		r.text = red.actionText(shown)
	}
	if j := s.cfg.Journal; j != nil {
		j.Record(JournalEntry{
			Step: opts.Step, Line: a.Line(), Written: a, Bound: r.bound, Text: r.text,
			Resolution: s.resolution, EpochBefore: before, EpochAfter: s.frame.Generation(),
			Effect: effectName(shown), Output: r.out, Error: r.err, Start: start, Duration: r.dur,
		})
	}
	s.resolution = nil
	return r
}

// effectName is the registry's ref-frame effect of an action, named for the
// journal.
func effectName(a *lang.Action) string {
	switch a.Command {
	case "snapshot":
		return "snapshot"
	case "diff":
		return "partial"
	}
	eff, _ := lang.EffectOf(a)
	switch eff {
	case lang.EffectMayInvalidate:
		return "mutation"
	case lang.EffectPreserve:
		if a.Command == "find" {
			return "partial"
		}
		return "read"
	}
	return "none"
}

// resolvedAt records how the current step resolved its target (the journal's
// Resolution); the last resolution of a step wins.
func (s *Session) resolvedAt(kind, ref, selector string, tree *drivers.Snapshot, idx int, pt drivers.Point) {
	if s.cfg.Journal == nil {
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
func (r *redactor) actionText(a *lang.Action) string {
	if len(r.pairs) == 0 {
		return lang.FormatAction(a)
	}
	b := *a
	b.Positionals = r.all(a.Positionals)
	if a.RefLabel != nil {
		l := r.apply(*a.RefLabel)
		b.RefLabel = &l
	}
	for _, dst := range []*lang.Flags{&b.Flags, &b.Runtime} {
		if *dst == nil {
			continue
		}
		m := make(lang.Flags, len(*dst))
		for k, v := range *dst {
			if s, ok := v.(string); ok {
				v = r.apply(s)
			}
			m[k] = v
		}
		*dst = m
	}
	return r.apply(lang.FormatAction(&b))
}
