package recorder

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner"
	"github.com/adtest/adtest/runner/match"
)

// Options describe the recorded session for the context header.
type Options struct {
	Platform string // web, android, ...
	Device   string // device name; the platform's default when empty
}

// Recorder records one session. It is safe for concurrent use, but the
// journal calls it in step order.
type Recorder struct {
	mu      sync.Mutex
	opts    Options
	actions []*lang.Action
	steps   []int             // the session step of each action
	refusal *runner.ErrorInfo // the first step that cannot be written
	problem string            // the last step's problem, for its command's answer
	aborted string
	secrets []string
	mask    *drivers.Masker   // of secrets: what must never be written
	full    *drivers.Snapshot // a full capture taken just before the next step
	n       int               // steps seen
}

// New returns a recorder.
func New(opts Options) *Recorder {
	if opts.Device == "" {
		switch opts.Platform {
		case drivers.PlatformWeb:
			opts.Device = "chromium"
		default:
			opts.Device = opts.Platform
		}
	}
	return &Recorder{opts: opts}
}

// Mask registers a literal that must never be written (fill --record-as).
func (r *Recorder) Mask(literal string) {
	if literal == "" {
		return
	}
	r.mu.Lock()
	r.secrets = append(r.secrets, literal)
	r.mask = drivers.NewMasker(r.secrets)
	r.mu.Unlock()
}

// Capture hands the recorder a full, read-only capture of the screen taken
// just before a ref-targeting step: the screen may have changed since the
// snapshot that issued the ref (or that snapshot was --raw), and replay
// resolves the selector against the screen as it is at the step.
func (r *Recorder) Capture(snap *drivers.Snapshot) {
	r.mu.Lock()
	r.full = snap
	r.mu.Unlock()
}

// Problem returns, and forgets, why the last step cannot be recorded.
func (r *Recorder) Problem() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.problem
	r.problem = ""
	return p
}

// Abort ends the recording; Script then fails.
func (r *Recorder) Abort(reason string) {
	r.mu.Lock()
	r.aborted = reason
	r.mu.Unlock()
}

// Step is what the recorder reads of one journal entry.
type Step struct {
	Step    int
	Written *lang.Action // as given (${NAME} of --record-as kept)
	// Args are Written's bound arguments when the step bound them (the
	// journal's, when interpolation left the action as written); nil: the
	// recorder binds Written itself.
	Args   lang.Args
	Failed bool
	// The target's resolution: Kind ref, selector or point ("" for none),
	// the node's index in Tree, and the tree it was resolved in.
	Kind  lang.TargetKind
	Index int
	Tree  *drivers.Snapshot
}

// add records one step.
func (r *Recorder) add(st Step) {
	r.mu.Lock()
	defer r.mu.Unlock()
	full := r.full
	r.full = nil
	if st.Failed || st.Written == nil || r.aborted != "" {
		return
	}
	spec, ok := lang.LookupCommand(st.Written.Command)
	if !ok || spec.Recorded != lang.RecordedYes {
		return
	}
	a, err := r.convert(st, full)
	if err != nil {
		ei := &runner.ErrorInfo{Code: runner.CodeCommandFailed, Reason: drivers.ReasonUnrecordableStep, Step: st.Step,
			Message: fmt.Sprintf("Cannot write recorded step %d %q to a script: %s", st.Step, describe(st.Written), err),
			Hint:    "Use a selector for this element (adtest find, or id=/label= from the snapshot), or give it a unique id or label; the recording is refused at close while this step is in it."}
		if r.refusal == nil {
			r.refusal = ei
		}
		r.problem = ei.Message
		return
	}
	r.actions = append(r.actions, a)
	r.steps = append(r.steps, st.Step)
}

func describe(a *lang.Action) string {
	return strings.TrimSpace(a.Command + " " + strings.Join(a.Positionals, " "))
}

// Script renders the recording: the context header, then one line per
// recorded action (its target-v1 line first). It fails when a step could
// not be written or the recording was aborted.
func (r *Recorder) Script() ([]byte, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.aborted != "" {
		return nil, &runner.ErrorInfo{Code: runner.CodeCommandFailed, Reason: drivers.ReasonRecordingAborted,
			Message: "The recording was aborted by " + r.aborted + "; nothing is written", Hint: "Record one open per script: start a new session with open --save-script."}
	}
	if r.refusal != nil {
		return nil, r.refusal
	}
	var b strings.Builder
	dev, _ := json.Marshal(r.opts.Device)
	fmt.Fprintf(&b, "context platform=%s device=%s theme=unknown\n", r.opts.Platform, dev)
	for _, a := range r.actions {
		b.WriteString(lang.FormatAction(a))
		b.WriteByte('\n')
	}
	return []byte(b.String()), nil
}

// convert builds the action a step is written as. It reads the step's
// arguments as lang.Bind decodes them (the ${NAME} of --record-as kept).
func (r *Recorder) convert(st Step, full *drivers.Snapshot) (*lang.Action, error) {
	w := st.Written
	a := &lang.Action{Command: w.Command, Positionals: slices.Clone(w.Positionals), Flags: cloneFlags(w.Flags), Runtime: cloneFlags(w.Runtime)}
	args := st.Args
	if args == nil {
		var err error
		if args, err = lang.Bind(w); err != nil {
			return nil, err
		}
	}
	traits := lang.TraitsOf(w.Command)
	var t lang.Target
	var tail []string // positionals written after the target unchanged
	text := ""        // fill's text
	switch v := args.(type) {
	case lang.TargetArgs: // click, press, focus, hover, longpress, fill
		t, text, tail = v.Target, v.Text, v.Tail
	case lang.WaitArgs:
		if v.Kind != lang.WaitRef {
			return a, nil // durations, text, selectors and stable waits stay as written
		}
		t = lang.Target{Kind: lang.TargetRef, Raw: v.WaitSpec.Ref, Ref: v.Ref, RefOK: v.RefOK}
		tail = v.Tail
	default:
		if ref, _, ok := lang.NamedRef(args); ok {
			return nil, fmt.Errorf("its ref %s cannot be written as a selector for %s", ref, w.Command)
		}
		return a, nil
	}
	// Evidence is written above a step that acts on its target (not a wait,
	// which is not verified against it); such a step is a mutation.
	acts := traits.Touch
	switch t.Kind {
	case lang.TargetPoint:
		return a, nil
	case lang.TargetSelector:
		if st.Kind == lang.TargetSelector && st.Tree != nil && st.Index >= 0 && acts {
			a.TargetEvidence = match.Evidence(st.Tree, st.Index, t.Selector, traits.Mutating, r.leaks)
		}
		return a, nil
	}
	// A ref: rewrite it to a selector chain from the tree that authorised it.
	if st.Kind != lang.TargetRef || st.Tree == nil || st.Index < 0 || st.Index >= len(st.Tree.Nodes) {
		ref := t.Raw
		if t.RefOK {
			ref = t.Ref.Plain()
		}
		return nil, fmt.Errorf("its ref %s has no resolved node to build a selector from", ref)
	}
	if traits.TypesText && text == "" {
		return nil, fmt.Errorf("an empty %s of a ref cannot be written as a selector step", w.Command)
	}
	chain, tree, idx, err := r.chainFor(st.Tree, st.Index, full, w.Command)
	if err != nil {
		return nil, err
	}
	a.Positionals = append([]string{chain.Raw}, tail...)
	if acts {
		a.TargetEvidence = match.Evidence(tree, idx, chain, traits.Mutating, r.leaks)
	}
	return a, nil
}

func cloneFlags(f lang.Flags) lang.Flags {
	if f == nil {
		return nil
	}
	out := make(lang.Flags, len(f))
	for k, v := range f {
		out[k] = v
	}
	return out
}

// Record implements runner.Journal: one call per step of the session, in
// order, after the step finished.
func (r *Recorder) Record(e runner.JournalEntry) {
	r.mu.Lock()
	r.n++
	n := r.n
	r.mu.Unlock()
	st := Step{Step: n, Written: e.Written, Failed: e.Error != nil, Index: -1}
	if e.Bound == e.Written {
		// The step bound the action as written: read its binding. (When
		// interpolation changed it, Args are of another action.)
		st.Args = e.Args
	}
	if res := e.Resolution; res != nil {
		st.Kind, st.Index, st.Tree = lang.TargetKind(res.Kind), res.Index, res.Tree
	}
	r.add(st)
}

var _ runner.Journal = (*Recorder)(nil)

// Guard checks what publishing without closing (`session save-script`,
// ADR 0016) needs: a selector wait after the last action that may change
// the screen, so that a replay of the published script ends where the
// session is.
func (r *Recorder) Guard() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	last := -1
	for i, a := range r.actions {
		if eff, _ := lang.EffectOf(a); eff == lang.EffectMayInvalidate {
			last = i
		}
	}
	if last < 0 {
		return nil
	}
	for _, a := range r.actions[last+1:] {
		if args, err := lang.Bind(a); err == nil {
			if w, ok := args.(lang.WaitArgs); ok && w.Kind == lang.WaitSelector {
				return nil
			}
		}
	}
	a := r.actions[last]
	return &runner.ErrorInfo{Code: runner.CodeCommandFailed, Reason: drivers.ReasonDestinationGuardMissing, Step: r.steps[last],
		Message: fmt.Sprintf("session save-script needs a selector wait after the last action that changes the screen (step %d %q), so that a replay of the published script ends where the session is", r.steps[last], describe(a)),
		Hint:    `Run a wait for what the screen shows now, e.g. adtest wait 'text="Welcome"' 5000, then save again (close publishes without this guard).`}
}
