package runner

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

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
	b.Args = nil // bound again after interpolation
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
		ev := StepEvent{File: file, Step: step, Total: total, Line: a.Line(), Command: a.Command, Action: actionText(red, a), Time: s.cfg.Clock.Now()}
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
			sr.Warning = red.String(r.out.Warning)
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
			if e.Reason == drivers.ReasonTimeout || (ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded)) {
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
