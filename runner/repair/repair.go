// Package repair turns a replay that diverged for a target reason (a
// selector that misses, an ambiguous match, a stale target, target-v1
// evidence that no longer matches) into a reviewable diff, proven by
// replaying it.
//
// On the divergence screen it ranks the elements the failed step may have
// meant with the replay matcher (runner/match): with the step's target-v1
// annotation, a candidate must keep the old element's role, share its id,
// label or text, and match uniquely; a basis shared by several elements is
// ambiguous and offers none of them. Without one, the command's contract
// (a fill's editable, a click's actionable element) and the selector's id
// or words must single out one element, and the line is marked caution;
// two candidates that both pass are refused. The
// best candidate is printed into a scratch copy of the line (lang's printer;
// ${VAR} references are kept as written, never their values) and the same
// live session continues from that step: the candidate is kept only if the
// rest of the script passes (a later target divergence may be repaired the
// same way, up to MaxSteps). The next candidate replays the scratch script
// from the first step in a fresh session. A repaired script is re-run from
// the start once more (Verified); only a verified repair yields a patch.
//
// A step that asserts or waits (is, wait, get, find) is never changed: its
// failure is a real one. The package never writes the script itself; Write
// publishes the patch and the JSON record, Apply the repaired script.
//
// Annotate (annotate.go) writes the evidence a repair stands on into a
// script that passes: the target-v1 line of each selector step's element.
package repair

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner"
	"github.com/adtest/adtest/runner/match"
	"github.com/adtest/adtest/runner/trace"
)

// Defaults of Options.
const (
	DefaultMaxTries = 3
	DefaultMaxSteps = 3
)

// Options configure one repair.
type Options struct {
	// Open opens a fresh session, for another candidate and for the
	// verifying re-run (both replay from the first step).
	Open func(ctx context.Context) (*runner.Session, error)
	// Replay carries the scope, the secrets and the step bound of the run;
	// its Observer, From and PlanDigest are not used.
	Replay runner.ReplayOptions
	// MaxTries bounds the candidates tried per step, MaxSteps the steps
	// repaired per script (0: the defaults).
	MaxTries, MaxSteps int
	// Path names the script in the record and the reports, relative to the
	// directory the run was started in (default: the script's File).
	Path string
	// Header names the script in the patch's headers, relative to the
	// directory the patch applies from (Locate; default: Path).
	Header string
	// Screenshot stores a screenshot under name (repair-step-N: the
	// divergence screen of step N; repair-after: the screen the verifying
	// re-run ended on) and returns the path the record names (nil: none is
	// taken).
	Screenshot func(name string, png []byte) (string, error)
	// Trace, when set, returns a new trace for the repair's n-th replay
	// (1-based; nil: none): the repair's replays never write into the
	// failed attempt's trace. Repair closes each.
	Trace func(n int) *trace.Trace
}

// Try is one candidate tried, as the record shows it.
type Try struct {
	Step     int         `json:"step"`
	Selector string      `json:"selector"`
	Basis    match.Basis `json:"basis"`
	Outcome  string      `json:"outcome"` // "passed" or why it was dropped
}

// Change is one repaired line.
type Change struct {
	Step        int         `json:"step"`
	Line        int         `json:"line"`
	Reason      string      `json:"reason"` // the divergence's reason
	OldLine     string      `json:"oldLine"`
	NewLine     string      `json:"newLine"`
	OldSelector string      `json:"oldSelector"`
	NewSelector string      `json:"newSelector"`
	Basis       match.Basis `json:"basis"`
	// StoodOn is the evidence the new line stands on, for a reviewer to
	// weigh: the step's target-v1 annotation, or (a script without one)
	// the command's contract with the selector's id or words.
	StoodOn string `json:"stoodOn"`
	// Caution marks a line proposed without the old element's identity:
	// the re-run passed, but read the new line before applying it.
	Caution  bool `json:"caution,omitempty"`
	Evidence struct {
		Old Identity `json:"old"`
		New Identity `json:"new"`
	} `json:"evidence"`
	Snapshot   []string `json:"snapshot"`
	Screenshot string   `json:"screenshot,omitempty"`
}

// Status of a Result.
const (
	StatusRepaired = "repaired"
	StatusRefused  = "refused"
)

// Result is the outcome of a repair.
type Result struct {
	File     string   `json:"file"`
	Status   string   `json:"status"`
	Refusal  string   `json:"refusal,omitempty"`
	Verified bool     `json:"verified"`
	Changes  []Change `json:"changes"`
	// After is the screenshot the verifying re-run ended on.
	After string `json:"afterScreenshot,omitempty"`
	Tries []Try  `json:"tries"`
	// Patch is the unified diff (set only when Verified); Source the
	// repaired script.
	Patch  string `json:"-"`
	Source []byte `json:"-"`

	red *drivers.Masker
}

// targetReasons are the divergences a repair may fix.
var targetReasons = []drivers.Reason{
	drivers.ReasonSelectorNotFound, drivers.ReasonAmbiguousMatch, drivers.ReasonSelectorMiss,
	drivers.ReasonIdentityMismatch, drivers.ReasonTargetStale, drivers.ReasonTargetNotFound,
}

type engine struct {
	opts   Options
	res    *Result
	red    *drivers.Masker
	opened []*runner.Session
	traces []*trace.Trace
}

// Repair repairs script (read from src) after its replay on sess ended in
// failed. sess must be the live session the replay left at the divergence;
// the caller closes it (the sessions Repair opens, it closes).
func Repair(ctx context.Context, sess *runner.Session, script *lang.Script, src []byte, failed runner.AttemptResult, opts Options) *Result {
	if opts.MaxTries <= 0 {
		opts.MaxTries = DefaultMaxTries
	}
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = DefaultMaxSteps
	}
	if opts.Path == "" {
		opts.Path = script.File
	}
	if opts.Header == "" {
		opts.Header = opts.Path
	}
	e := &engine{opts: opts, res: &Result{File: opts.Path, Status: StatusRefused, Tries: []Try{}, Changes: []Change{}}}
	e.red = secretMasker(opts.Replay)
	e.res.red = e.red
	defer func() {
		for _, s := range e.opened {
			_ = s.Close(context.WithoutCancel(ctx))
		}
		for _, t := range e.traces {
			_ = t.Close()
		}
	}()
	if failed.Status == runner.StatusPassed {
		e.res.Refusal = "the script passed: nothing to repair"
		return e.res
	}
	final, changes, why := e.attempt(ctx, sess, script, src, failed, nil)
	if final == nil {
		e.res.Refusal = why
		return e.res
	}
	// The proof: the repaired script, as it will be written, from the start.
	fresh, err := e.open(ctx)
	if err != nil {
		e.res.Refusal = "the verifying re-run could not open a session: " + err.Error()
		return e.res
	}
	again, perr := lang.Parse(script.File, final)
	if perr != nil {
		e.res.Refusal = "the repaired script does not parse: " + perr.Error()
		return e.res
	}
	ro := e.replayOptions(1)
	// "After" is the last screen the script showed: before its close, if
	// it has one (after a close there is only a blank page).
	var last []byte
	ro.BeforeClose = func(png []byte) { last = png }
	if ar := fresh.Replay(ctx, again, ro); ar.Status != runner.StatusPassed {
		e.res.Refusal = "the repaired script did not pass a re-run from the start: " + failure(ar)
		return e.res
	}
	e.res.Status, e.res.Verified, e.res.Changes, e.res.Source = StatusRepaired, true, changes, final
	if e.opts.Screenshot != nil {
		if last == nil {
			last = fresh.Evidence(ctx, e.red.Values()).Screenshot
		}
		if len(last) > 0 {
			e.res.After, _ = e.opts.Screenshot("repair-after", last)
		}
	}
	// A secret written into the script itself must not reach the patch
	// through its context lines: less context, down to none (then
	// `git apply` needs --unidiff-zero; `patch -p0` applies it as it is).
	for ctx := 3; ctx >= 0; ctx-- {
		e.res.Patch = patchOf(opts.Header, src, final, ctx)
		if !e.red.Masks(e.res.Patch) {
			break
		}
	}
	return e.res
}

func (e *engine) open(ctx context.Context) (*runner.Session, error) {
	if e.opts.Open == nil {
		return nil, fmt.Errorf("no way to open a session")
	}
	s, err := e.opts.Open(ctx)
	if err != nil {
		return nil, err
	}
	e.opened = append(e.opened, s)
	return s, nil
}

// replayOptions are the options of the repair's next replay, with its own
// trace when Options.Trace gives one.
func (e *engine) replayOptions(from int) runner.ReplayOptions {
	ro := runner.ReplayOptions{Scope: e.opts.Replay.Scope, Secrets: e.opts.Replay.Secrets, StepTimeout: e.opts.Replay.StepTimeout, From: from}
	if e.opts.Trace != nil {
		if t := e.opts.Trace(len(e.traces) + 1); t != nil {
			e.traces = append(e.traces, t)
			ro.Hooks = []runner.StepHook{t}
		}
	}
	return ro
}

// failure is a one-line account of a failed attempt.
func failure(ar runner.AttemptResult) string {
	if ar.Error == nil {
		return string(ar.Status)
	}
	return fmt.Sprintf("step %d (line %d): %s", ar.Error.Step, ar.Error.Line, ar.Error.Message)
}

// attempt continues from the failed attempt ar of script on the live
// session sess: it returns the repaired source once the script passes, the
// changes that made it pass, or why it could not.
func (e *engine) attempt(ctx context.Context, sess *runner.Session, script *lang.Script, src []byte, ar runner.AttemptResult, changes []Change) ([]byte, []Change, string) {
	if ar.Status == runner.StatusPassed {
		return src, changes, ""
	}
	if ctx.Err() != nil {
		return nil, nil, "the run was interrupted: " + ctx.Err().Error()
	}
	fe := ar.Error
	if fe == nil || fe.Step < 1 || fe.Step > len(script.Actions) {
		return nil, nil, "the failure is not a step's: " + failure(ar)
	}
	step := fe.Step
	a := script.Actions[step-1]
	where := fmt.Sprintf("step %d (line %d, %s)", step, a.Line(), a.Command)
	if !lang.TraitsOf(a.Command).Touch {
		return nil, nil, fmt.Sprintf("%s failed (%s): a repair never changes what a step asserts or waits for, so this is a real failure", where, fe.Reason)
	}
	if !slices.Contains(targetReasons, fe.Reason) {
		return nil, nil, fmt.Sprintf("%s failed for a reason a new target cannot fix (%s): %s", where, fe.Reason, fe.Message)
	}
	if len(changes) >= e.opts.MaxSteps {
		return nil, nil, fmt.Sprintf("%s diverged too, past the limit of %d repaired steps (--repair-max-steps)", where, e.opts.MaxSteps)
	}
	args, err := lang.Bind(a)
	ta, ok := args.(lang.TargetArgs)
	if err != nil || !ok || ta.Target.Kind != lang.TargetSelector {
		return nil, nil, fmt.Sprintf("%s: only a selector target is repaired", where)
	}
	if strings.Contains(ta.Target.Raw, "$") {
		return nil, nil, fmt.Sprintf("%s: the selector holds a ${VAR} reference; a repair would have to write its value", where)
	}
	snap, cerr := sess.Capture(ctx)
	if cerr != nil {
		return nil, nil, fmt.Sprintf("%s: the divergence screen could not be captured: %v", where, cerr)
	}
	cands, why := candidates(snap, a, ta.Target.Selector, true)
	if len(cands) == 0 {
		return nil, nil, fmt.Sprintf("%s: %s", where, why)
	}
	shot := ""
	if e.opts.Screenshot != nil {
		ev := sess.Evidence(ctx, e.red.Values())
		if len(ev.Screenshot) > 0 {
			shot, _ = e.opts.Screenshot(fmt.Sprintf("repair-step-%d", step), ev.Screenshot)
		}
	}
	// What follows the target, as written (fill's text with its ${VAR}
	// references unresolved: the action is bound uninterpolated).
	rest := ta.Tail
	last := ""
	// A candidate that passes is kept only if no other candidate passes
	// too: when two elements both make the rest of the script pass (two
	// fields swapped their labels), the run cannot tell which one the step
	// meant, and a repair is refused rather than guessed. An element that
	// keeps the old id and the old label is the old element itself: it
	// needs no rival tried.
	old := oldIdentity(a, ta.Target.Selector)
	var won []byte
	var wonChanges []Change
	wonSel := ""
	for i, c := range cands {
		if i >= e.opts.MaxTries {
			break
		}
		try := Try{Step: step, Selector: e.red.String(c.Selector), Basis: c.Basis}
		r := *a
		r.Positionals = append([]string{c.Selector}, rest...)
		r.ArgPos, r.Tokens = nil, nil
		if a.TargetEvidence != nil {
			// The old line's annotation follows its element; none is
			// written when it would not bind (or would hold a secret).
			r.TargetEvidence = nil
			if nc, perr := lang.ParseSelectorChain(c.Selector); perr == nil {
				r.TargetEvidence = match.Evidence(snap, c.Node, nc, true, e.red.Finds)
			}
		}
		if e.leaks(&r) {
			try.Outcome = "refused: the new line would write a secret value"
			e.res.Tries = append(e.res.Tries, try)
			last = try.Outcome
			continue
		}
		next, oldText, newText, serr := substitute(src, script, a, &r)
		var ns *lang.Script
		if serr == nil {
			ns, serr = lang.Parse(script.File, next)
		}
		if serr != nil {
			try.Outcome = "refused: the new line does not print back: " + serr.Error()
			e.res.Tries = append(e.res.Tries, try)
			last = try.Outcome
			continue
		}
		live, from := sess, step
		if i > 0 {
			// The live session moved on with the previous candidate.
			s, oerr := e.open(ctx)
			if oerr != nil {
				return nil, nil, "a fresh session for the next candidate could not be opened: " + oerr.Error()
			}
			live, from = s, 1
		}
		ch := Change{Step: step, Line: a.Line(), Reason: string(fe.Reason), OldLine: oldText, NewLine: newText,
			OldSelector: ta.Target.Raw, NewSelector: c.Selector, Basis: c.Basis,
			Snapshot: snapshotLines(snap, c.Node, 4), Screenshot: shot}
		ch.StoodOn, ch.Caution = stoodOn(c.Basis)
		ch.Evidence.Old = oldIdentity(a, ta.Target.Selector)
		ch.Evidence.New = nodeIdentity(snap, c.Node)
		ar2 := live.Replay(ctx, ns, e.replayOptions(from))
		e.res.Tries = append(e.res.Tries, try)
		idx := len(e.res.Tries) - 1
		final, all, why := e.attempt(ctx, live, ns, next, ar2, append(slices.Clone(changes), ch))
		if final != nil {
			e.res.Tries[idx].Outcome = "passed"
			if won != nil {
				return nil, nil, fmt.Sprintf("%s: two candidates (%s and %s) both make the rest of the script pass: ambiguous, not guessed", where, e.red.String(wonSel), e.red.String(c.Selector))
			}
			n := &snap.Nodes[c.Node]
			if c.Basis == match.BasisID && old.Label != "" && match.NormText(n.Label) == match.NormText(old.Label) {
				return final, all, ""
			}
			won, wonChanges, wonSel = final, all, c.Selector
			continue
		}
		e.res.Tries[idx].Outcome = "dropped: " + why
		last = why
	}
	if won != nil {
		return won, wonChanges, ""
	}
	return nil, nil, fmt.Sprintf("%s: no candidate made the rest of the script pass (last: %s)", where, last)
}

// stoodOn names the evidence a candidate linked by b stands on, and
// whether it is proposed with caution (without the old element's identity).
func stoodOn(b match.Basis) (string, bool) {
	switch b {
	case match.BasisContractID:
		return "command contract + id", true
	case match.BasisContractWords:
		return "command contract + words", true
	}
	return "annotation", false
}

// leaks reports a new line that would carry a secret's value where the
// masker masks it: a secret shorter than drivers.ShortSecretLen only as a
// whole token (a one-letter secret "e" is not in "label").
func (e *engine) leaks(a *lang.Action) bool {
	return e.red.Masks(lang.FormatAction(a))
}

// secretMasker masks the run's secrets: ro.Secrets is the run context's
// one pick (runctx.Vars.SecretValues), the values of the variables whose
// names say they are secret included.
func secretMasker(ro runner.ReplayOptions) *drivers.Masker {
	return drivers.NewMasker(ro.Secrets)
}
