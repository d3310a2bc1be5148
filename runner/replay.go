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

// Observer follows a replay step by step.
type Observer interface {
	StepStarted(ev StepEvent)  // before dispatch
	StepFinished(ev StepEvent) // after, with Status/Duration/Error
}

// StepEvent is one step starting or finishing: the one step-event type of
// replays, the suite runner (which fills File, Name, Attempt and Worker) and
// reporters. Action is the action text with variable values and secrets
// masked (as written when the step starts, as bound when it finishes).
type StepEvent struct {
	File, Name        string
	Attempt, Worker   int
	Step, Total, Line int
	Command           string
	Action            string
	Status            Status // "" when the step starts (skipped steps: StatusSkipped)
	Duration          time.Duration
	Error             *ErrorInfo
	Time              time.Time
}

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
	e := newErr(CodeCommandFailed, ReasonStepTimeout, "step %d (%s, line %d) did not finish within the step bound of %dms",
		step, a.Command, a.Line(), d.Milliseconds())
	e.Hint = "the page or device stopped answering (a script that never returns, a hung app); raise --step-timeout MS if the step is legitimately slow"
	e.Details = map[string]any{"stepTimeoutMs": d.Milliseconds()}
	return e
}

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
		ev := StepEvent{File: file, Step: step, Total: total, Line: a.Line(), Command: a.Command, Action: red.actionText(a), Time: s.cfg.Clock.Now()}
		if a.Command == "replay" || step < opts.From {
			ev.Status = StatusSkipped
			if opts.Observer != nil {
				opts.Observer.StepStarted(ev)
				opts.Observer.StepFinished(ev)
			}
			res.Steps = append(res.Steps, StepResult{Step: step, Line: a.Line(), Command: a.Command, Action: ev.Action, Status: StatusSkipped})
			continue
		}
		if opts.Observer != nil {
			opts.Observer.StepStarted(ev)
		}
		r := s.step(ctx, a, StepOptions{Scope: opts.Scope, Secrets: opts.Secrets, File: file, Step: step, Total: total, Timeout: opts.StepTimeout}, red, ev.Action)
		e := r.err
		if e != nil && r.bound != nil {
			// The divergence screen is a capture too: bounded like a step.
			dctx, dcancel := stepBound(ctx, opts.StepTimeout)
			e = s.divergence(dctx, r.bound, file, step, total, e, res.Steps, red)
			if opts.PlanDigest != "" && e.Code == CodeReplayDivergence {
				addResume(e, step, total, opts.PlanDigest)
			}
			dcancel()
		}
		ev.Action, ev.Duration = r.text, r.dur
		sr := StepResult{Step: step, Line: a.Line(), Command: a.Command, Action: r.text, Status: StatusPassed, DurationMs: r.dur.Milliseconds()}
		if r.out != nil && r.out.Warning != "" {
			sr.Warning = red.apply(r.out.Warning)
			res.Warnings = append(res.Warnings, fmt.Sprintf("step %d: %s", step, sr.Warning))
		}
		if e != nil {
			sr.Status = StatusFailed
			ev.Status, ev.Error = StatusFailed, e
			res.Steps = append(res.Steps, sr)
			if opts.Observer != nil {
				opts.Observer.StepFinished(ev)
			}
			res.Status = StatusFailed
			if e.Reason == "timeout" || (ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded)) {
				res.Status = StatusTimedOut
			}
			res.Error = e
			return finish()
		}
		ev.Status = StatusPassed
		res.Steps = append(res.Steps, sr)
		if opts.Observer != nil {
			opts.Observer.StepFinished(ev)
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
