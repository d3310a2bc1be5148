package runner

import (
	"context"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
)

// The one step hook: whatever follows a session's steps (the journal of a
// recording, the observer of a replay and with it the suite's timing.ndjson,
// the trace in runner/trace) is a StepHook the session calls around every
// step with the step's record (JournalEntry). The session alone acts on
// the device; a hook records.

// Journal receives one entry per step, after the step finished, in order.
// It is called with the session's request lock held: it must not call back
// into the session.
type Journal interface{ Record(e JournalEntry) }

// JournalEntry is the record of one step: what it was, what it did and how
// it ended. It is the one step record: the journal hears it, and the step
// event (Event), the step of the JSON result (Result) and timing.ndjson's
// lines are derived from it.
type JournalEntry struct {
	Step, Line int
	// Total is the number of steps of the replay (0 when interactive); File
	// the script the step is from.
	Total   int
	File    string
	Written *lang.Action // the action as written (before interpolation)
	Bound   *lang.Action // after interpolation and binding (nil when interpolation failed)
	// Args are Bound's arguments as lang.Bind decodes them (nil when
	// interpolation or binding failed): the one binding of the step, which
	// listeners read instead of binding the action again.
	Args lang.Args
	// Text is the canonical action text (lang.FormatAction of Bound, else of
	// Written) with variable values and secrets masked.
	Text       string
	Resolution *Resolution // nil when the action resolved no target
	// EpochBefore and EpochAfter are the ref-frame epoch around the step.
	EpochBefore, EpochAfter int64
	// Effect is the step's ref-frame effect.
	Effect StepEffect
	Output *Output
	Error  *ErrorInfo
	// Reported is the error as the replay reports it (REPLAY_DIVERGENCE
	// around Error), set before the hooks end the step; nil otherwise.
	Reported *ErrorInfo
	// Events are the driver's events of the step (drivers.EventSource),
	// drained after it ran when the session has hooks.
	Events []drivers.Event
	// Status is "" while the step runs, then passed, failed or skipped.
	Status Status
	// Warning is the output's warning, masked.
	Warning  string
	Start    time.Time
	Duration time.Duration
}

// Event is the record as a step event: starting while it has no status,
// finished once it has one.
func (e *JournalEntry) Event() StepEvent {
	err := e.Error
	if e.Reported != nil {
		err = e.Reported
	}
	return StepEvent{File: e.File, Step: e.Step, Total: e.Total, Line: e.Line, Command: e.Written.Command,
		Action: e.Text, Status: e.Status, Duration: e.Duration, Error: err, Time: e.Start, Events: e.Events}
}

// Result is the record as a step of the JSON result.
func (e *JournalEntry) Result() StepResult {
	return StepResult{Step: e.Step, Line: e.Line, Command: e.Written.Command, Action: e.Text,
		Status: e.Status, DurationMs: e.Duration.Milliseconds(), Warning: e.Warning}
}

// Resolution is how a step's target was resolved.
type Resolution struct {
	Kind     lang.TargetKind // ref, selector or point
	Ref      string          // "@e3" (pin stripped) when Kind == "ref"
	Selector string          // the selector chain as written, when Kind == "selector"
	Node     *drivers.Node   // the resolved node (nil for a point)
	Index    int             // its index in Tree.Nodes (-1 for a point)
	// Tree is the immutable tree the target was resolved in: the frame's tree
	// for a ref, the internal capture for a selector (nil for a point).
	Tree  *drivers.Snapshot
	Point drivers.Point // the point acted on (a node's centre for refs and selectors)
}

// Clock is the runner's time source; tests inject a deterministic one.
type Clock interface {
	Now() time.Time
	After(d time.Duration) <-chan time.Time
}

type realClock struct{}

func (realClock) Now() time.Time                         { return time.Now() }
func (realClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// StepHook is called by a session around every step, under the session's
// request lock and with the driver idle unless said otherwise: it must not
// call back into the session. BeginStep is called in the order of the
// session's hooks and EndStep in the reverse order, so the first hook
// encloses the others. A replay's skipped step (Record.Status is
// StatusSkipped at BeginStep) is begun and ended without running.
type StepHook interface {
	// BeginStep: before the step runs (Record has the action as written).
	BeginStep(ctx context.Context, st *HookStep)
	// BeforeMutation: before the step's first operation that can change the
	// screen (the side-effect seam).
	BeforeMutation(st *HookStep)
	// Acted: after each device action of the step.
	Acted(st *HookStep, a ActTiming)
	// EndStep: after the step; Record is complete and Record.Events holds
	// the driver's events of the step.
	EndStep(ctx context.Context, st *HookStep)
}

// HookStep is the step in flight as the hooks see it.
type HookStep struct {
	// Screen is the session's driver as a hook sees it: it reads the screen
	// and never acts on the device.
	Screen Screen
	Clock  Clock
	// Record is the step's record, valid during the call: a hook that keeps
	// it keeps a copy.
	Record *JournalEntry
}

// Screen is what a hook may read of the device: its screenshot, and
// through the driver's optional capabilities (drivers.TraceShooter,
// TraceShotStarter, EventSource) a cheaper picture and its events. It has
// no Act: the session alone acts.
type Screen interface {
	Screenshot(ctx context.Context, opts drivers.ScreenshotOptions) ([]byte, error)
}

// ActTiming is one device action of a step: when it started, how long it
// took, and how much of that was the driver's settle (drivers.SettleTimer).
type ActTiming struct {
	Start            time.Time
	Duration, Settle time.Duration
}

// Flusher is a hook with work in flight (a picture being taken) that must
// complete while the device is still there: the session calls Flush at the
// end of a replay and before it closes its driver.
type Flusher interface{ Flush() }

// NoStepHook is embedded by a hook that needs only some of the calls.
type NoStepHook struct{}

func (NoStepHook) BeginStep(context.Context, *HookStep) {}
func (NoStepHook) BeforeMutation(*HookStep)             {}
func (NoStepHook) Acted(*HookStep, ActTiming)           {}
func (NoStepHook) EndStep(context.Context, *HookStep)   {}

// JournalHook is the hook of a journal: it hears every step that ran, once
// it ended.
func JournalHook(j Journal) StepHook { return journalHook{j: j} }

type journalHook struct {
	NoStepHook
	j Journal
}

func (h journalHook) EndStep(_ context.Context, st *HookStep) {
	if st.Record.Status != StatusSkipped {
		h.j.Record(*st.Record)
	}
}

// observerHook is the hook of a replay's observer: a step event when a step
// starts and when it finishes.
type observerHook struct {
	NoStepHook
	o Observer
}

func (h observerHook) BeginStep(_ context.Context, st *HookStep) {
	h.o.StepStarted(st.Record.Event())
}

func (h observerHook) EndStep(_ context.Context, st *HookStep) {
	h.o.StepFinished(st.Record.Event())
}
