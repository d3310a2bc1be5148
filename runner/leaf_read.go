package runner

// Read leaves: get, is, wait.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner/match"
)

// readText is get text's answer: an input's value, else its text, else its label.
func readText(n *drivers.Node) string {
	if n.Editable && n.Value != "" {
		return n.Value
	}
	for _, v := range []string{n.Text, n.Label, n.Value} {
		if v != "" {
			return v
		}
	}
	return ""
}

func (s *Session) leafGet(ctx context.Context, a *lang.Action, args lang.Args) (*Output, mutation, *ErrorInfo) {
	ga := args.(lang.GetArgs)
	r, e := s.resolveTarget(ctx, ga.Target, false, 0)
	if e != nil {
		return nil, mutation{}, e
	}
	if ga.Sub == "text" {
		t := readText(r.node)
		return &Output{Text: t, Warning: r.warning, Data: map[string]any{"text": t}}, mutation{}, nil
	}
	attrs := map[string]string{"role": r.node.Role, "label": r.node.Label, "id": r.node.ID, "text": r.node.Text, "value": r.node.Value}
	if ar, ok := s.drv.(drivers.AttrReader); ok && r.warning == "" {
		m, err := ar.Attrs(ctx, r.node)
		if err != nil {
			return nil, mutation{}, fromError(ctx, a.Command, s.cfg.Platform, err)
		}
		attrs = m
	}
	b, _ := json.Marshal(attrs)
	data := map[string]any{"attrs": attrs}
	return &Output{Text: string(b), Warning: r.warning, Data: data}, mutation{}, nil
}

func (s *Session) leafIs(ctx context.Context, a *lang.Action, args lang.Args) (*Output, mutation, *ErrorInfo) {
	ia := args.(lang.IsArgs)
	pred, selText := ia.Predicate, ia.SelectorText
	want := ia.Value
	var got string
	var rerr *ErrorInfo
	check := func(obs *observation) bool {
		var pass bool
		pass, got, rerr = s.isHolds(obs, ia)
		return pass
	}
	var polls int
	if window := s.assertWindow(ctx); window > 0 {
		var done bool
		var e *ErrorInfo
		if polls, done, e = s.poll(ctx, window, check); e != nil {
			return nil, mutation{}, e
		}
		if done {
			return &Output{Text: "true", Data: map[string]any{"pass": true}}, mutation{}, nil
		}
	} else {
		obs, e := s.observe(ctx, drivers.SnapshotOptions{})
		if e != nil {
			return nil, mutation{}, e
		}
		polls = 1
		if check(obs) {
			return &Output{Text: "true", Data: map[string]any{"pass": true}}, mutation{}, nil
		}
	}
	if rerr != nil {
		return nil, mutation{}, rerr
	}
	msg := fmt.Sprintf("Expected %s to be %s", selText, pred)
	if pred == "text" {
		msg = fmt.Sprintf("Expected %s to have text %q, got %q", selText, want, got)
	}
	e := newErr(CodeCommandFailed, drivers.ReasonPredicateFailed, "%s", msg)
	e.Hint = "Check the snapshot, or wait for the state before asserting it."
	e.Details = map[string]any{"predicate": pred, "selector": selText, "reads": polls}
	return nil, mutation{}, e
}

// assertWindow is how long `is` keeps reading the screen until its
// predicate holds: in a replay SessionConfig.AssertTimeout, ended a little
// before the step's own bound (ctx's deadline) so that a false predicate
// fails as itself rather than as a step timeout. 0: one read.
func (s *Session) assertWindow(ctx context.Context) time.Duration {
	w := s.cfg.AssertTimeout
	if !s.replaying || w <= 0 {
		return 0
	}
	if d, ok := ctx.Deadline(); ok {
		left := time.Until(d)
		if left -= min(left/10, time.Second); left < w {
			w = left
		}
	}
	return max(w, 0)
}

// isHolds reads one observation for `is`: whether the predicate holds, the
// text read (predicate text) and, when the selector did not resolve to one
// element, the error to report should the predicate never hold.
func (s *Session) isHolds(obs *observation, ia lang.IsArgs) (bool, string, *ErrorInfo) {
	switch ia.Predicate {
	case "exists":
		return len(match.Exists(obs.Snap, ia.Selector)) > 0, "", nil
	case "absent":
		return len(match.Exists(obs.Snap, ia.Selector)) == 0, "", nil
	}
	res, rerr := resolveUnique(obs.Snap, ia.Selector, false)
	if rerr != nil {
		if ia.Predicate == "hidden" && rerr.Reason == drivers.ReasonSelectorNotFound {
			return true, "", nil
		}
		return false, "", rerr
	}
	n := &obs.Snap.Nodes[res.node]
	s.resolvedAt(lang.TargetSelector, "", ia.SelectorText, obs.Snap, res.node, n.Rect.Center())
	if ia.Predicate == "text" {
		got := readText(n)
		return match.NormText(got) == match.NormText(ia.Value), got, nil
	}
	pass, _ := match.NodeState(n, ia.Predicate)
	return pass, "", nil
}

func containsText(snap *drivers.Snapshot, text string) bool {
	want := match.NormText(text)
	for i := range snap.Nodes {
		n := &snap.Nodes[i]
		for _, v := range []string{n.Label, n.Text, n.Value} {
			if v != "" && strings.Contains(match.NormText(v), want) {
				return true
			}
		}
	}
	return false
}

func fingerprint(snap *drivers.Snapshot) string {
	var b strings.Builder
	for i := range snap.Nodes {
		n := &snap.Nodes[i]
		fmt.Fprintf(&b, "%d|%s|%s|%s|%s|%v|%v;", n.Depth, n.Role, n.Label, n.Text, n.Value, n.Rect, n.Visible)
	}
	return b.String()
}

func (s *Session) leafWait(ctx context.Context, a *lang.Action, args lang.Args) (*Output, mutation, *ErrorInfo) {
	wa := args.(lang.WaitArgs)
	w := &wa.WaitSpec
	if w.Kind == lang.WaitSleep {
		if e := s.sleep(ctx, time.Duration(w.DurationMs)*time.Millisecond); e != nil {
			return nil, mutation{}, e
		}
		return &Output{Text: fmt.Sprintf("Waited %dms", w.DurationMs)}, mutation{}, nil
	}
	timeout := s.cfg.WaitTimeout
	if w.TimeoutMs != nil {
		timeout = time.Duration(*w.TimeoutMs) * time.Millisecond
	}
	var check func(*observation) bool
	var what, warning string
	var reason drivers.Reason
	impostors := false
	switch w.Kind {
	case lang.WaitText:
		check = func(o *observation) bool { return containsText(o.Snap, w.Text) }
		what, reason = fmt.Sprintf("text %q", w.Text), drivers.ReasonWaitTargetAbsent
	case lang.WaitSelector:
		check = func(o *observation) bool { return len(match.Exists(o.Snap, w.Selector)) > 0 }
		what, reason = w.Selector.Raw, drivers.ReasonWaitTargetAbsent
		if ev := a.TargetEvidence; ev != nil {
			// Landmark semantics (§4.2.2): keep polling while only impostors
			// match; at the deadline impostors make an identity mismatch.
			check = func(o *observation) bool {
				for _, i := range match.Exists(o.Snap, w.Selector) {
					if match.HasIdentity(o.Snap, i, ev) {
						return true
					}
					impostors = true
				}
				return false
			}
		}
	case lang.WaitAbsent:
		check = func(o *observation) bool { return len(match.Exists(o.Snap, w.Selector)) == 0 }
		what, reason = w.Selector.Raw+" to disappear", drivers.ReasonWaitTargetPresent
	case lang.WaitRef:
		if !wa.RefOK {
			return nil, mutation{}, badRef(w.Ref)
		}
		ref := wa.Ref.Plain()
		idx, warn, e := s.readRef(wa.Ref)
		if e != nil {
			return nil, mutation{}, e
		}
		warning = warn
		text := match.NodeText(&s.frame.Evidence().Snap.Nodes[idx])
		check = func(o *observation) bool { return text != "" && containsText(o.Snap, text) }
		what, reason = fmt.Sprintf("%s (%q)", ref, text), drivers.ReasonWaitTargetAbsent
	case lang.WaitStable:
		quiet := 500 * time.Millisecond
		if w.QuietMs != nil {
			quiet = time.Duration(*w.QuietMs) * time.Millisecond
		}
		var lastFP string
		var since time.Time
		check = func(o *observation) bool {
			fp := fingerprint(o.Snap)
			now := s.cfg.Clock.Now()
			if fp != lastFP || since.IsZero() {
				lastFP, since = fp, now
			}
			return now.Sub(since) >= quiet
		}
		what, reason = "a stable screen", drivers.ReasonWaitStableTimeout
	default:
		return nil, mutation{}, newErr(CodeInvalidArgs, drivers.ReasonInvalidArgs, "Unsupported wait form %q", w.Kind)
	}
	var last *observation
	inner := check
	check = func(o *observation) bool { last = o; return inner(o) }
	polls, done, e := s.poll(ctx, timeout, check)
	if e != nil {
		return nil, mutation{}, e
	}
	if !done && impostors {
		e := newErr(CodeCommandFailed, drivers.ReasonWaitLandmarkIdentityMismatch, "Timed out after %dms waiting for %s: only elements without the recorded identity matched", timeout.Milliseconds(), what)
		e.Hint = "The landmark on screen is not the recorded one; re-record the step or repair the selector."
		e.Details = map[string]any{"timeoutMs": timeout.Milliseconds(), "polls": polls}
		return nil, mutation{}, e
	}
	if !done {
		note := ""
		if last != nil && reason == drivers.ReasonWaitTargetAbsent {
			note = unseenNote(last.Snap)
		}
		e := newErr(CodeCommandFailed, reason, "Timed out after %dms waiting for %s%s", timeout.Milliseconds(), what, note)
		e.Hint = "Check that the screen reaches this state, or raise the wait timeout."
		e.Details = map[string]any{"timeoutMs": timeout.Milliseconds(), "polls": polls}
		return nil, mutation{}, e
	}
	return &Output{Text: "Found " + what, Warning: warning, AtOnce: polls == 1}, mutation{}, nil
}
