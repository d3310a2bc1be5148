package runner

import (
	"context"
	"time"

	"github.com/adtest/adtest/drivers"
)

// The one step hook: whatever follows a session's steps (the journal of a
// recording, the observer of a replay and with it the suite's timing.ndjson,
// the trace in runner/trace) is a StepHook the session calls around every
// step. The session alone acts on the device; a hook records.

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
	// Driver is the session's driver, to read the screen (a hook never acts
	// on it).
	Driver drivers.Driver
	Clock  Clock
	Record *JournalEntry
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

// AddHook adds h to the session's hooks (after those it has).
func (s *Session) AddHook(h StepHook) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hooks = append(s.hooks, h)
}

// RemoveHook removes h from the session's hooks: a repair continuing a
// failed attempt's session must not write into that attempt's trace.
func (s *Session) RemoveHook(h StepHook) {
	s.mu.Lock()
	defer s.mu.Unlock()
	kept := make([]StepHook, 0, len(s.hooks))
	for _, k := range s.hooks {
		if k != h {
			kept = append(kept, k)
		}
	}
	s.hooks = kept
}

// beginStep calls the hooks before rec's step.
func (s *Session) beginStep(ctx context.Context, rec *JournalEntry) {
	if len(s.hooks) == 0 {
		return
	}
	s.cur = HookStep{Driver: s.drv, Clock: s.cfg.Clock, Record: rec}
	for _, h := range s.hooks {
		h.BeginStep(ctx, &s.cur)
	}
}

// drainEvents hands the driver's events of the step just run to its
// record, for the hooks.
func (s *Session) drainEvents(rec *JournalEntry) {
	if len(s.hooks) == 0 {
		return
	}
	if es, ok := s.drv.(drivers.EventSource); ok {
		rec.Events = es.DrainEvents()
	}
}

// endStep calls the hooks after rec's step, in reverse order.
func (s *Session) endStep(ctx context.Context, rec *JournalEntry) {
	if len(s.hooks) == 0 {
		return
	}
	s.cur.Record = rec
	for i := len(s.hooks) - 1; i >= 0; i-- {
		s.hooks[i].EndStep(ctx, &s.cur)
	}
	s.cur = HookStep{}
}

// beforeMutation calls the hooks at the seam.
func (s *Session) beforeMutation() {
	for _, h := range s.hooks {
		h.BeforeMutation(&s.cur)
	}
}

// flushHooks completes the hooks' work in flight.
func (s *Session) flushHooks() {
	for _, h := range s.hooks {
		if f, ok := h.(Flusher); ok {
			f.Flush()
		}
	}
}

// act performs one device action of the step in flight: the one call from
// the runner to Driver.Act, timed for the hooks.
func (s *Session) act(ctx context.Context, a drivers.Action) error {
	if len(s.hooks) == 0 {
		return s.drv.Act(ctx, a)
	}
	start := s.cfg.Clock.Now()
	err := s.drv.Act(ctx, a)
	at := ActTiming{Start: start, Duration: s.cfg.Clock.Now().Sub(start)}
	if st, ok := s.drv.(drivers.SettleTimer); ok {
		at.Settle = min(st.LastSettle(), at.Duration)
	}
	for _, h := range s.hooks {
		h.Acted(&s.cur, at)
	}
	return err
}
