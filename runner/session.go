package runner

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/runner/internal/frame"
)

// SessionConfig configures a Session.
type SessionConfig struct {
	Platform string // for messages / AD_* built-ins
	File     string
	// ReadinessTimeout bounds the wait of click/press/longpress/fill for a
	// selector target that is not on screen yet (default 2s; negative = none).
	ReadinessTimeout time.Duration
	// WaitTimeout is the default timeout of polling waits (default 10s),
	// and how long click/press/longpress/fill keep finding a selector target
	// again while it is not actionable (re-rendered, hidden, covered,
	// disabled, moving), within the step's bound.
	WaitTimeout time.Duration
	// AssertTimeout is how long `is` keeps reading the screen in a replay
	// (run, test, replay) until its predicate holds, within the step's
	// bound, as an assertion of Playwright Test or Maestro waits for the
	// state it asserts (default DefaultAssertTimeout; negative: one read).
	// An interactive `is` reads once, agent-device's semantics: an agent
	// asks what the screen says now.
	AssertTimeout time.Duration
	// ArtifactsDir receives screenshots with relative paths (else the cwd).
	ArtifactsDir string
	Clock        Clock
	// Seed seeds the ref-frame epoch; 0 = random.
	Seed int64
	// PollInterval is the interval of internal polling captures (default 100ms).
	PollInterval time.Duration
	// Hooks are called around every step of Step and Replay (hook.go): a
	// recording's journal (JournalHook), a trace (runner/trace).
	Hooks []StepHook
}

// DefaultAssertTimeout is AssertTimeout in replays: Playwright Test's
// default for its web-first assertions.
const DefaultAssertTimeout = 5 * time.Second

// Session is one device session: the driver, the ref frame (ADR 0014) and
// the latest operational observation, kept apart.
type Session struct {
	// mu is the per-session request lock: Dispatch and Replay hold it.
	mu  sync.Mutex
	drv drivers.Driver
	cfg SessionConfig

	// frame is the one ref frame; only its own transitions produce values for it.
	frame frame.Frame
	// last is the latest operational observation (selectors, diagnostics).
	last *observation

	// resolution is how the step in progress resolved its target (journal).
	resolution *Resolution

	// hooks are called around every step; cur is the step in flight as
	// they see it.
	hooks []StepHook
	cur   HookStep
	// rec is the record of the step in flight, reused from step to step
	// (a record per step would be an allocation per step: it escapes
	// through the hooks); a hook copies what it keeps.
	rec JournalEntry
	// carried are device events drained after a step, for the next one.
	carried []drivers.Event

	// replaying is set while Replay runs: `is` then waits for its state.
	replaying bool

	opened bool
	// closed is set by the script's close (the app or page ended) and by
	// Close; released only by Close, which alone hands the driver back.
	closed   bool
	released bool
	shots    int
}

// NewSession wraps a driver in a session.
func NewSession(d drivers.Driver, cfg SessionConfig) *Session {
	if cfg.Clock == nil {
		cfg.Clock = realClock{}
	}
	if cfg.ReadinessTimeout == 0 {
		cfg.ReadinessTimeout = 2 * time.Second
	}
	if cfg.WaitTimeout <= 0 {
		cfg.WaitTimeout = 10 * time.Second
	}
	if cfg.AssertTimeout == 0 {
		cfg.AssertTimeout = DefaultAssertTimeout
	}
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = 100 * time.Millisecond
	}
	if cfg.Platform == "" && d != nil {
		cfg.Platform = d.Platform()
	}
	return &Session{drv: d, cfg: cfg, frame: frame.NewLifetime(cfg.Seed), hooks: slices.Clone(cfg.Hooks)}
}

// LastSnapshot returns the latest observation (for failure artifacts); nil
// before the first capture.
func (s *Session) LastSnapshot() *drivers.Snapshot {
	if s.last == nil {
		return nil
	}
	return s.last.Snap
}

// RefsGeneration returns the current ref-frame epoch.
func (s *Session) RefsGeneration() int64 { return s.frame.Generation() }

// Close ends the session: the driver is closed (idempotent) and the frame
// dropped. A script's close before it ended only the app: the driver, and
// the device lease or browser context it holds, is released here all the
// same.
func (s *Session) Close(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.frame = s.frame.CloseSession()
	if s.released {
		return nil
	}
	s.closed, s.released = true, true
	s.flushHooks()
	return s.drv.Close(ctx)
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
	s.cur = HookStep{Screen: s.drv, Clock: s.cfg.Clock, Record: rec}
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
		if len(s.carried) > 0 {
			rec.Events = append(s.carried, rec.Events...)
			s.carried = nil
		}
	}
}

// drainAfterStep hands the driver's own events of what the session did
// after a step for it (a divergence's capture) to the step's record; what
// the device did meanwhile is carried to the next step's record.
func (s *Session) drainAfterStep(rec *JournalEntry) {
	if len(s.hooks) == 0 {
		return
	}
	es, ok := s.drv.(drivers.EventSource)
	if !ok {
		return
	}
	for _, e := range es.DrainEvents() {
		if e.Source.OwnMachinery() {
			rec.Events = append(rec.Events, e)
		} else {
			s.carried = append(s.carried, e)
		}
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
