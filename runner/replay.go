package runner

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

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
}

// ReasonStepTimeout is the typed reason of a step that outlived its bound.
const ReasonStepTimeout = "step_timeout"

// redactor replaces variable values with <var:NAME> and secrets with ***,
// longest values first, in one pass: a marker it wrote is never rewritten by
// another value (a secret "v" does not turn <var:A> into <***ar:A>). A value
// shorter than drivers.ShortSecretLen is replaced only as a whole token
// (drivers.SecretAt): a one-letter secret leaves "Replay failed" alone.
type redactor struct {
	pairs []struct{ value, repl string }
}

func newRedactor(scope *lang.Scope, secrets []string) *redactor {
	r := &redactor{}
	add := func(v, repl string) {
		if v != "" {
			r.pairs = append(r.pairs, struct{ value, repl string }{v, repl})
		}
	}
	if scope != nil {
		for _, m := range []map[string]string{scope.CLI, scope.Process, scope.Script} {
			for k, v := range m {
				add(v, "<var:"+k+">")
			}
		}
	}
	for _, s := range secrets {
		add(s, "***")
	}
	sort.SliceStable(r.pairs, func(i, j int) bool { return len(r.pairs[i].value) > len(r.pairs[j].value) })
	return r
}

func (r *redactor) apply(s string) string {
	if len(r.pairs) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); {
		hit := false
		for _, p := range r.pairs {
			if strings.HasPrefix(s[i:], p.value) && drivers.SecretAt(s, i, p.value) {
				b.WriteString(s[last:i])
				b.WriteString(p.repl)
				i += len(p.value)
				last, hit = i, true
				break
			}
		}
		if !hit {
			_, size := utf8.DecodeRuneInString(s[i:])
			i += size
		}
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

func (r *redactor) all(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = r.apply(s)
	}
	return out
}

func (r *redactor) value(v any) any {
	switch t := v.(type) {
	case string:
		return r.apply(t)
	case []string:
		return r.all(t)
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			m[k] = r.value(x)
		}
		return m
	case []map[string]any:
		out := make([]map[string]any, len(t))
		for i, x := range t {
			out[i] = r.value(x).(map[string]any)
		}
		return out
	}
	return v
}

// Replay runs a script's steps one at a time through Step. The first
// failing step ends the attempt with one REPLAY_DIVERGENCE error.
func (s *Session) Replay(ctx context.Context, script *lang.Script, opts ReplayOptions) AttemptResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	start := s.cfg.Clock.Now()
	red := newRedactor(opts.Scope, opts.Secrets)
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
		rec := JournalEntry{Step: step, Total: total, Line: a.Line(), File: file, Written: a, Text: red.actionText(a), Start: s.cfg.Clock.Now()}
		if a.Command == "replay" || step < opts.From {
			rec.Status = StatusSkipped
			if opts.Observer != nil {
				ev := rec.Event()
				opts.Observer.StepStarted(ev)
				opts.Observer.StepFinished(ev)
			}
			res.Steps = append(res.Steps, rec.Result())
			continue
		}
		if opts.Observer != nil {
			opts.Observer.StepStarted(rec.Event())
		}
		s.step(ctx, &rec, StepOptions{Scope: opts.Scope, Secrets: opts.Secrets, File: file, Step: step, Total: total, Timeout: opts.StepTimeout}, red)
		if e := rec.Error; e != nil && rec.Bound != nil {
			// The divergence screen is a capture too: bounded like a step.
			dctx, dcancel := stepBound(ctx, opts.StepTimeout)
			rec.Error = s.divergence(dctx, rec.Bound, file, step, total, e, res.Steps, red)
			if opts.PlanDigest != "" && rec.Error.Code == CodeReplayDivergence {
				addResume(rec.Error, step, total, opts.PlanDigest)
			}
			dcancel()
		}
		if rec.Warning != "" {
			res.Warnings = append(res.Warnings, fmt.Sprintf("step %d: %s", step, rec.Warning))
		}
		res.Steps = append(res.Steps, rec.Result())
		if opts.Observer != nil {
			opts.Observer.StepFinished(rec.Event())
		}
		if e := rec.Error; e != nil {
			res.Status = StatusFailed
			if e.Reason == "timeout" || (ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded)) {
				res.Status = StatusTimedOut
			}
			res.Error = e
			return finish()
		}
	}
	return finish()
}

// divergence wraps a step failure as REPLAY_DIVERGENCE with the divergence
// report: a fresh screen digest (published as a partial frame) and ranked
// selector suggestions for the failed target.
func (s *Session) divergence(ctx context.Context, a *lang.Action, file string, step, total int, cause *ErrorInfo, done []StepResult, red *redactor) *ErrorInfo {
	label := red.apply(lang.ActionLabel(a))
	causeMsg := red.apply(cause.Message)
	hint := cause.Hint
	if hint == "" {
		hint = DefaultHint(CodeReplayDivergence)
	}
	details := map[string]any{}
	for k, v := range cause.Details {
		details[k] = red.value(v)
	}
	details["reason"] = cause.Reason
	details["causeCode"] = cause.Code
	details["step"] = step
	details["replayPath"] = file
	details["action"] = a.Command
	details["positionals"] = red.all(a.Positionals)
	details["executed"] = len(done)
	details["total"] = total
	partial := make([]map[string]any, 0, len(done))
	for _, sr := range done {
		partial = append(partial, map[string]any{"step": sr.Step, "command": sr.Command, "ok": sr.Status != StatusFailed, "status": string(sr.Status)})
	}
	details["partialResults"] = partial

	div := map[string]any{
		"version": 1,
		"kind":    "action-failure",
		"step":    map[string]any{"index": step, "source": map[string]any{"path": file, "line": a.Line()}},
		"action":  label,
		"cause":   map[string]any{"code": cause.Code, "message": causeMsg, "hint": red.apply(cause.Hint)},
	}
	binding := bindingKind(cause.Reason)
	if cause.Reason == "selector_not_found" {
		div["kind"] = "selector-miss"
	}
	if binding != "" {
		div["kind"] = binding
		div["targetBinding"] = red.value(cause.Details["targetBinding"])
	}
	// A fresh digest of the screen, unless the context is already over.
	var obs *observation
	if ctx.Err() == nil && cause.Reason != ReasonInfrastructure && cause.Reason != ReasonStepTimeout {
		o, e := s.observe(ctx, drivers.SnapshotOptions{Interactive: true})
		if e == nil {
			obs = o
		}
	}
	if obs == nil || len(obs.Refs) == 0 {
		div["screen"] = map[string]any{"state": "unavailable", "reason": "capture_unavailable"}
		div["repairHint"] = "manual"
	} else {
		ranked := rankDigest(obs)
		truncated := len(ranked) > 20
		if truncated {
			ranked = ranked[:20]
		}
		s.frame = s.frame.PublishPartial(obs, ranked)
		gen := s.frame.Generation()
		refs := make([]map[string]any, 0, len(ranked))
		for _, k := range ranked {
			n := &obs.Snap.Nodes[obs.Refs[k-1]]
			m := map[string]any{"ref": fmt.Sprintf("@e%d~s%d", k, gen), "role": n.Role}
			if n.Label != "" {
				m["label"] = red.apply(n.Label)
			} else if n.Text != "" {
				m["label"] = red.apply(n.Text)
			}
			refs = append(refs, m)
		}
		screen := map[string]any{"state": "available", "refsGeneration": gen, "refs": refs}
		if truncated {
			screen["truncated"] = true
		}
		div["screen"] = screen
		switch binding {
		case "identity-mismatch":
			div["repairHint"] = "caution"
		case "identity-unverifiable":
			div["repairHint"] = "manual"
		default:
			div["repairHint"] = "record-and-heal"
		}
	}
	want := lang.FailedTargetText(a)
	sugg := suggest(obs, want)
	list := make([]map[string]any, 0, len(sugg))
	for _, sg := range sugg {
		m := map[string]any{"selector": red.apply(sg.Selector), "basis": sg.Basis}
		if sg.Role != "" {
			m["role"] = sg.Role
		}
		if sg.Label != "" {
			m["label"] = red.apply(sg.Label)
		}
		list = append(list, m)
	}
	div["suggestions"] = list
	div["suggestionCount"] = len(list)
	details["divergence"] = div
	return &ErrorInfo{
		Code:    CodeReplayDivergence,
		Reason:  cause.Reason,
		Message: fmt.Sprintf("Replay failed at step %d (%s): %s", step, label, causeMsg),
		Hint:    red.apply(hint),
		Step:    step,
		Line:    a.Line(),
		Column:  a.Pos.Column,
		Command: a.Command,
		Details: details,
	}
}

// rankDigest orders the refs of an observation for a divergence screen:
// hittable nodes first, then document order.
func rankDigest(obs *observation) []int {
	var first, rest []int
	for k, idx := range obs.Refs {
		if obs.Snap.Nodes[idx].Hittable {
			first = append(first, k+1)
		} else {
			rest = append(rest, k+1)
		}
	}
	return append(first, rest...)
}

// addResume puts the resume object into a divergence (spec §4.3.2): the
// failed step and the digest that `replay --from N --plan-digest SHA`
// continues from; the next step as the alternative when there is one.
func addResume(e *ErrorInfo, step, total int, digest string) {
	div, ok := e.Details["divergence"].(map[string]any)
	if !ok {
		return
	}
	resume := map[string]any{"allowed": true, "from": step, "planDigest": digest}
	if step < total {
		resume["alternateFrom"] = step + 1
	}
	div["resume"] = resume
}
