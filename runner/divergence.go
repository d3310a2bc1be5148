package runner

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner/match"
)

// Divergence is the report of a replay that diverged from its script (spec
// §4.3.2): details.divergence of a REPLAY_DIVERGENCE error, read by agents,
// `adtest replay`'s resume line and report.js. The JSON tags are its wire
// shape; each struct's fields are in the order of their JSON names, the
// order its former map encoded them in, so reports stay byte for byte the
// same.
type Divergence struct {
	Action string          `json:"action"` // the failed step's label
	Cause  DivergenceCause `json:"cause"`
	// Kind is action-failure, selector-miss, or a target binding's
	// classification (identity-mismatch, identity-unverifiable).
	Kind string `json:"kind"`
	// RepairHint is record-and-heal, caution or manual.
	RepairHint      string           `json:"repairHint"`
	Resume          *Resume          `json:"resume,omitempty"`
	Screen          DivergenceScreen `json:"screen"`
	Step            DivergenceStep   `json:"step"`
	SuggestionCount int              `json:"suggestionCount"`
	Suggestions     []Suggestion     `json:"suggestions"`
	TargetBinding   *TargetBinding   `json:"targetBinding,omitempty"`
	Version         int              `json:"version"`
}

// DivergenceCause is the step's own failure.
type DivergenceCause struct {
	Code    string `json:"code"`
	Hint    string `json:"hint"`
	Message string `json:"message"`
}

// DivergenceScreen is a fresh digest of the screen at the divergence: its
// refs were published as a partial frame, so an agent can act on them.
type DivergenceScreen struct {
	Reason         drivers.Reason `json:"reason,omitempty"` // why it is unavailable
	Refs           []ScreenRef    `json:"refs,omitempty"`
	RefsGeneration int64          `json:"refsGeneration,omitempty"`
	State          string         `json:"state"` // available, unavailable
	Truncated      bool           `json:"truncated,omitempty"`
}

// ScreenRef is one ref of the divergence screen.
type ScreenRef struct {
	Label string `json:"label,omitempty"`
	Ref   string `json:"ref"` // pinned: @e3~s42
	Role  string `json:"role"`
}

// DivergenceStep locates the failed step.
type DivergenceStep struct {
	Index  int          `json:"index"`
	Source SourceOfStep `json:"source"`
}

// SourceOfStep is the script line of a step.
type SourceOfStep struct {
	Line int    `json:"line"`
	Path string `json:"path"`
}

// Suggestion is a ranked selector for the failed target, named by the one
// place that names an element (runner/match).
type Suggestion = match.Suggestion

// Resume is what continues the replay: `replay --from From --plan-digest
// PlanDigest`, or AlternateFrom to skip the failed step.
type Resume struct {
	Allowed       bool   `json:"allowed"`
	AlternateFrom int    `json:"alternateFrom,omitempty"`
	From          int    `json:"from"`
	PlanDigest    string `json:"planDigest"`
}

// TargetBinding is why a step recorded with its target's identity was not
// run: details.targetBinding of the step's error and of its divergence.
type TargetBinding struct {
	Candidates     []BindingCandidate `json:"candidates,omitempty"`
	Classification string             `json:"classification"` // selector-miss, identity-mismatch, identity-unverifiable
	MatchCount     *int               `json:"matchCount,omitempty"`
	Recorded       RecordedIdentity   `json:"recorded"`
}

// BindingCandidate is an element the selector matched instead.
type BindingCandidate struct {
	Label string `json:"label"`
	Role  string `json:"role"`
}

// RecordedIdentity is the identity the recorder saw.
type RecordedIdentity struct {
	ID    string `json:"id,omitempty"`
	Label string `json:"label,omitempty"`
	Role  string `json:"role"`
}

// Divergence returns the divergence report of e, nil when it has none.
func (e *ErrorInfo) Divergence() *Divergence {
	if e == nil {
		return nil
	}
	d, _ := e.Details["divergence"].(*Divergence)
	return d
}

// mask returns a copy of d with every text masked.
func (d *Divergence) mask(m *drivers.Masker) *Divergence {
	if d == nil || m == nil {
		return d
	}
	c := *d
	c.Action = m.String(d.Action)
	c.Cause = DivergenceCause{Code: m.String(d.Cause.Code), Hint: m.String(d.Cause.Hint), Message: m.String(d.Cause.Message)}
	c.Kind, c.RepairHint = m.String(d.Kind), m.String(d.RepairHint)
	if d.Resume != nil {
		r := *d.Resume
		r.PlanDigest = m.String(r.PlanDigest)
		c.Resume = &r
	}
	c.Screen.State, c.Screen.Reason = m.String(d.Screen.State), drivers.Reason(m.String(string(d.Screen.Reason)))
	if d.Screen.Refs != nil {
		c.Screen.Refs = make([]ScreenRef, len(d.Screen.Refs))
		for i, r := range d.Screen.Refs {
			c.Screen.Refs[i] = ScreenRef{Label: m.String(r.Label), Ref: m.String(r.Ref), Role: m.String(r.Role)}
		}
	}
	c.Step.Source.Path = m.String(d.Step.Source.Path)
	if d.Suggestions != nil {
		c.Suggestions = make([]Suggestion, len(d.Suggestions))
		for i, s := range d.Suggestions {
			c.Suggestions[i] = Suggestion{Basis: match.Basis(m.String(string(s.Basis))), Label: m.String(s.Label), Role: m.String(s.Role), Selector: m.String(s.Selector), Node: s.Node}
		}
	}
	c.TargetBinding = d.TargetBinding.mask(m)
	return &c
}

// mask returns a copy of b with every text masked.
func (b *TargetBinding) mask(m *drivers.Masker) *TargetBinding {
	if b == nil || m == nil {
		return b
	}
	c := *b
	c.Classification = m.String(b.Classification)
	c.Recorded = RecordedIdentity{ID: m.String(b.Recorded.ID), Label: m.String(b.Recorded.Label), Role: m.String(b.Recorded.Role)}
	if b.Candidates != nil {
		c.Candidates = make([]BindingCandidate, len(b.Candidates))
		for i, x := range b.Candidates {
			c.Candidates[i] = BindingCandidate{Label: m.String(x.Label), Role: m.String(x.Role)}
		}
	}
	return &c
}

// divergence wraps a step failure as REPLAY_DIVERGENCE with the divergence
// report: a fresh screen digest (published as a partial frame) and ranked
// selector suggestions for the failed target.
func (s *Session) divergence(ctx context.Context, a *lang.Action, file string, step, total int, cause *ErrorInfo, done []StepResult, red *drivers.Masker) *ErrorInfo {
	label := red.String(lang.ActionLabel(a))
	causeMsg := red.String(cause.Message)
	hint := cause.Hint
	if hint == "" {
		hint = DefaultHint(CodeReplayDivergence)
	}
	details := map[string]any{}
	for k, v := range cause.Details {
		details[k] = maskValue(red, v)
	}
	details["reason"] = string(cause.Reason)
	details["causeCode"] = cause.Code
	details["step"] = step
	details["replayPath"] = file
	details["action"] = a.Command
	details["positionals"] = red.Strings(a.Positionals)
	details["executed"] = len(done)
	details["total"] = total
	partial := make([]map[string]any, 0, len(done))
	for _, sr := range done {
		partial = append(partial, map[string]any{"step": sr.Step, "command": sr.Command, "ok": sr.Status != StatusFailed, "status": string(sr.Status)})
	}
	details["partialResults"] = partial

	div := &Divergence{
		Version: 1,
		Kind:    "action-failure",
		Step:    DivergenceStep{Index: step, Source: SourceOfStep{Path: file, Line: a.Line()}},
		Action:  label,
		Cause:   DivergenceCause{Code: cause.Code, Message: causeMsg, Hint: red.String(cause.Hint)},
	}
	binding := bindingKind(cause.Reason)
	if cause.Reason == drivers.ReasonSelectorNotFound {
		div.Kind = "selector-miss"
	}
	if binding != "" {
		div.Kind = binding
		tb, _ := cause.Details["targetBinding"].(*TargetBinding)
		div.TargetBinding = tb.mask(red)
	}
	// A fresh digest of the screen, unless the context is already over.
	var obs *observation
	if ctx.Err() == nil && cause.Reason != drivers.ReasonInfrastructure && cause.Reason != drivers.ReasonStepTimeout {
		o, e := s.observe(ctx, drivers.SnapshotOptions{Interactive: true})
		if e == nil {
			obs = o
		}
	}
	if obs == nil || len(obs.Refs) == 0 {
		div.Screen = DivergenceScreen{State: "unavailable", Reason: drivers.ReasonCaptureUnavailable}
		div.RepairHint = "manual"
	} else {
		ranked := rankDigest(obs)
		truncated := len(ranked) > 20
		if truncated {
			ranked = ranked[:20]
		}
		s.frame = s.frame.PublishPartial(obs, ranked)
		gen := s.frame.Generation()
		refs := make([]ScreenRef, 0, len(ranked))
		for _, k := range ranked {
			n := &obs.Snap.Nodes[obs.Refs[k-1]]
			r := ScreenRef{Ref: fmt.Sprintf("@e%d~s%d", k, gen), Role: n.Role}
			if n.Label != "" {
				r.Label = red.String(n.Label)
			} else if n.Text != "" {
				r.Label = red.String(n.Text)
			}
			refs = append(refs, r)
		}
		div.Screen = DivergenceScreen{State: "available", RefsGeneration: gen, Refs: refs, Truncated: truncated}
		switch binding {
		case "identity-mismatch":
			div.RepairHint = "caution"
		case "identity-unverifiable":
			div.RepairHint = "manual"
		default:
			div.RepairHint = "record-and-heal"
		}
	}
	// Up to 5 elements the step's command can act on, named as the
	// recorder and the repair name them (§4.3.2).
	var sugg []Suggestion
	if obs != nil {
		sugg = match.Suggest(obs.Snap, a.Command, lang.FailedTargetText(a), 5)
	}
	div.Suggestions = make([]Suggestion, 0, len(sugg))
	for _, sg := range sugg {
		sg.Selector, sg.Label = red.String(sg.Selector), red.String(sg.Label)
		div.Suggestions = append(div.Suggestions, sg)
	}
	div.SuggestionCount = len(div.Suggestions)
	details["divergence"] = div
	return &ErrorInfo{
		Code:    CodeReplayDivergence,
		Reason:  cause.Reason,
		Message: fmt.Sprintf("Replay failed at step %d (%s): %s", step, label, causeMsg),
		Hint:    red.String(hint),
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
	div := e.Divergence()
	if div == nil {
		return
	}
	div.Resume = &Resume{Allowed: true, From: step, PlanDigest: digest}
	if step < total {
		div.Resume.AlternateFrom = step + 1
	}
}

// UnmarshalJSON decodes an error with its details.divergence and
// details.targetBinding typed again, so that a reader of a result file or
// of a daemon's answer gets e.Divergence() as its writer built it.
func (e *ErrorInfo) UnmarshalJSON(b []byte) error {
	type plain ErrorInfo
	var p struct {
		*plain
		Details map[string]json.RawMessage `json:"details,omitempty"`
	}
	p.plain = (*plain)(e)
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	e.Details = nil
	if p.Details == nil {
		return nil
	}
	e.Details = make(map[string]any, len(p.Details))
	for k, raw := range p.Details {
		var v any
		var err error
		switch k {
		case "divergence":
			d := &Divergence{}
			err, v = json.Unmarshal(raw, d), d
		case "targetBinding":
			tb := &TargetBinding{}
			err, v = json.Unmarshal(raw, tb), tb
		default:
			err = json.Unmarshal(raw, &v)
		}
		if err != nil {
			return fmt.Errorf("details.%s: %w", k, err)
		}
		e.Details[k] = v
	}
	return nil
}
