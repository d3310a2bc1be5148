package runner

// Read leaves: get, is, wait.

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/adtest/adtest/runner/internal/frame"
	"github.com/adtest/adtest/runner/match"

	"strings"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
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

func (s *Session) leafGet(ctx context.Context, a *lang.Action) (*Output, *mutation, *ErrorInfo) {
	if len(a.Positionals) < 2 || (a.Positionals[0] != "text" && a.Positionals[0] != "attrs") {
		return nil, nil, newErr(CodeInvalidArgs, "invalid_args", "get requires text|attrs and a target: get text <target>")
	}
	it, e := decodeTarget(a.Positionals[1:], 0)
	if e != nil {
		return nil, nil, e
	}
	r, e := s.resolveTarget(ctx, it, false, 0)
	if e != nil {
		return nil, nil, e
	}
	if a.Positionals[0] == "text" {
		t := readText(r.node)
		return &Output{Text: t, Warning: r.warning, Data: map[string]any{"text": t}}, nil, nil
	}
	attrs := map[string]string{"role": r.node.Role, "label": r.node.Label, "id": r.node.ID, "text": r.node.Text, "value": r.node.Value}
	if ar, ok := s.drv.(drivers.AttrReader); ok && r.warning == "" {
		m, err := ar.Attrs(ctx, r.node)
		if err != nil {
			return nil, nil, fromError(ctx, a.Command, s.cfg.Platform, err)
		}
		attrs = m
	}
	b, _ := json.Marshal(attrs)
	data := map[string]any{"attrs": attrs}
	return &Output{Text: string(b), Warning: r.warning, Data: data}, nil, nil
}

var predicates = map[string]bool{"visible": true, "hidden": true, "exists": true, "editable": true, "selected": true, "focused": true, "text": true, "absent": true}

func (s *Session) leafIs(ctx context.Context, a *lang.Action) (*Output, *mutation, *ErrorInfo) {
	p := a.Positionals
	if len(p) < 2 {
		return nil, nil, newErr(CodeInvalidArgs, "invalid_args", "is requires a predicate and a selector: is <predicate> <selector> [value]")
	}
	pred, selText, rest := p[0], p[1], p[2:]
	if !predicates[pred] && predicates[p[1]] {
		pred, selText = p[1], p[0]
	}
	if !predicates[pred] {
		return nil, nil, newErr(CodeInvalidArgs, "invalid_args", "Unknown predicate %q. Supported: visible, hidden, exists, editable, selected, focused, text, absent", pred)
	}
	if strings.HasPrefix(selText, "@") {
		return nil, nil, newErr(CodeInvalidArgs, "invalid_args", "is does not accept refs; use a selector")
	}
	chain, err := lang.ParseSelectorChain(selText)
	if err != nil {
		return nil, nil, fromError(ctx, a.Command, s.cfg.Platform, err)
	}
	obs, e := s.observe(ctx, drivers.SnapshotOptions{})
	if e != nil {
		return nil, nil, e
	}
	want := strings.Join(rest, " ")
	var pass bool
	var got string
	switch pred {
	case "exists":
		pass = len(match.Exists(obs.Snap, chain)) > 0
	case "absent":
		pass = len(match.Exists(obs.Snap, chain)) == 0
	default:
		res, rerr := resolveUnique(obs.Snap, chain, false)
		if rerr != nil {
			if pred == "hidden" && rerr.Reason == "selector_not_found" {
				pass = true
				break
			}
			return nil, nil, rerr
		}
		n := &obs.Snap.Nodes[res.node]
		if pred == "text" {
			got = readText(n)
			pass = match.NormText(got) == match.NormText(want)
		} else {
			pass, _ = match.NodeState(n, pred)
		}
	}
	if !pass {
		msg := fmt.Sprintf("Expected %s to be %s", selText, pred)
		if pred == "text" {
			msg = fmt.Sprintf("Expected %s to have text %q, got %q", selText, want, got)
		}
		e := newErr(CodeCommandFailed, "predicate_failed", "%s", msg)
		e.Hint = "Check the snapshot, or wait for the state before asserting it."
		e.Details = map[string]any{"predicate": pred, "selector": selText}
		return nil, nil, e
	}
	return &Output{Text: "true", Data: map[string]any{"pass": true}}, nil, nil
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

func (s *Session) leafWait(ctx context.Context, a *lang.Action) (*Output, *mutation, *ErrorInfo) {
	w, err := lang.DecodeWait(a.Positionals)
	if err != nil {
		return nil, nil, fromError(ctx, a.Command, s.cfg.Platform, err)
	}
	if w.Kind == "sleep" {
		if e := s.sleep(ctx, time.Duration(w.DurationMs)*time.Millisecond); e != nil {
			return nil, nil, e
		}
		return &Output{Text: fmt.Sprintf("Waited %dms", w.DurationMs)}, nil, nil
	}
	timeout := s.cfg.WaitTimeout
	if w.TimeoutMs != nil {
		timeout = time.Duration(*w.TimeoutMs) * time.Millisecond
	}
	var check func(*observation) bool
	var what, reason, warning string
	impostors := false
	switch w.Kind {
	case "text":
		check = func(o *observation) bool { return containsText(o.Snap, w.Text) }
		what, reason = fmt.Sprintf("text %q", w.Text), "wait_target_absent"
	case "selector":
		check = func(o *observation) bool { return len(match.Exists(o.Snap, w.Selector)) > 0 }
		what, reason = w.Selector.Raw, "wait_target_absent"
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
	case "absent":
		check = func(o *observation) bool { return len(match.Exists(o.Snap, w.Selector)) == 0 }
		what, reason = w.Selector.Raw+" to disappear", "wait_target_present"
	case "ref":
		ref, pin, pinned, ok := lang.ParseRef(w.Ref)
		if !ok {
			return nil, nil, badRef(w.Ref)
		}
		idx, warn, e := s.readRef(frame.RefFromParts(ref, pin, pinned))
		if e != nil {
			return nil, nil, e
		}
		warning = warn
		text := match.NodeText(&s.frame.Evidence().Snap.Nodes[idx])
		check = func(o *observation) bool { return text != "" && containsText(o.Snap, text) }
		what, reason = fmt.Sprintf("%s (%q)", ref, text), "wait_target_absent"
	case "stable":
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
		what, reason = "a stable screen", "wait_stable_timeout"
	default:
		return nil, nil, newErr(CodeInvalidArgs, "invalid_args", "Unsupported wait form %q", w.Kind)
	}
	polls, done, e := s.poll(ctx, timeout, check)
	if e != nil {
		return nil, nil, e
	}
	if !done && impostors {
		e := newErr(CodeCommandFailed, "wait_landmark_identity_mismatch", "Timed out after %dms waiting for %s: only elements without the recorded identity matched", timeout.Milliseconds(), what)
		e.Hint = "The landmark on screen is not the recorded one; re-record the step or repair the selector."
		e.Details = map[string]any{"timeoutMs": timeout.Milliseconds(), "polls": polls}
		return nil, nil, e
	}
	if !done {
		e := newErr(CodeCommandFailed, reason, "Timed out after %dms waiting for %s", timeout.Milliseconds(), what)
		e.Hint = "Check that the screen reaches this state, or raise the wait timeout."
		e.Details = map[string]any{"timeoutMs": timeout.Milliseconds(), "polls": polls}
		return nil, nil, e
	}
	return &Output{Text: "Found " + what, Warning: warning}, nil, nil
}
