// Package trace records a session's steps into a directory: trace.json
// (its schema is Data) and a picture per step. A Trace is a
// runner.StepHook: the session calls it around every step; it records and
// never acts on the device.
package trace

// A trace of a session's steps: per step a picture before and after, the
// tree its target was resolved in with the target marked, the resolved
// point, the timing split (resolve, act, settle) and what the device did
// meanwhile (console messages, page errors, network requests, log lines).
// A Trace is given to a session as one of its hooks (SessionConfig.Hooks,
// ReplayOptions.Hooks); the session calls it around every step with the
// driver idle, under its request lock, and the owner closes it to write
// trace.json. Every text it writes passes the
// one masker, and its pictures are taken with the secret values painted over.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/adtest/adtest/lang"
	"os"
	"path/filepath"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/runner"
)

// Mode says which attempts keep a trace.
type Mode string

const (
	Off Mode = "off"
	On  Mode = "on"
	// RetainOnFailure records every attempt and keeps the trace of an
	// attempt that did not pass.
	RetainOnFailure Mode = "retain-on-failure"
	// OnFirstRetry records the first retry (attempt 2) only.
	OnFirstRetry Mode = "on-first-retry"
)

// Modes are the modes as the --trace flag spells them.
var Modes = []Mode{Off, On, RetainOnFailure, OnFirstRetry}

// ParseMode reads a --trace value.
func ParseMode(s string) (Mode, error) {
	for _, m := range Modes {
		if string(m) == s {
			return m, nil
		}
	}
	return "", fmt.Errorf("unknown trace mode %q (want off, on, retain-on-failure or on-first-retry)", s)
}

// DefaultMode is the mode of run, test and replay without --trace on
// platform: on-first-retry on every platform (Playwright's default), so a
// test that passes the first time records nothing and pays nothing for
// traces. Recording every attempt (retain-on-failure) cost a fifth to two
// fifths of a green run's wall time on the web (docs/performance.md), and
// on Android a picture is the device's own screenshot (screencap, a PNG the
// device encodes: hundreds of milliseconds a step on a phone). A replay has
// no retry: it records only with --trace.
func DefaultMode(platform string) Mode {
	return OnFirstRetry
}

// Policy is how a run chooses its trace mode: Mode as given (--trace MODE),
// or the platform's default (DefaultMode) when PlatformDefault is set (no
// --trace).
type Policy struct {
	Mode            Mode
	PlatformDefault bool
}

// ModeOn is the policy's mode on platform.
func (p Policy) ModeOn(platform string) Mode {
	if p.PlatformDefault {
		return DefaultMode(platform)
	}
	return p.Mode
}

// Records reports whether the attempt (1-based) is traced.
func (m Mode) Records(attempt int) bool {
	switch m {
	case On, RetainOnFailure:
		return true
	case OnFirstRetry:
		return attempt == 2
	}
	return false
}

// Keeps reports whether a recorded attempt's trace is kept.
func (m Mode) Keeps(attempt int, passed bool) bool {
	if m == RetainOnFailure {
		return !passed
	}
	return m.Records(attempt)
}

// DirName is the trace's directory below an attempt's artifacts, and File
// its index.
const (
	DirName = "trace"
	File    = "trace.json"
)

// traceShotBound bounds one picture; a device that does not answer leaves
// the step without one.
const traceShotBound = 3 * time.Second

// Info describes the traced attempt in trace.json.
type Info struct {
	File     string `json:"file,omitempty"`
	Name     string `json:"name,omitempty"`
	Platform string `json:"platform,omitempty"`
	Attempt  int    `json:"attempt,omitempty"`
}

// Data is trace.json: what the HTML report and show-trace read.
type Data struct {
	Version int `json:"version"`
	Info
	StartedAt time.Time `json:"startedAt"`
	// Start is the picture before the first step.
	Start string `json:"start,omitempty"`
	Steps []Step `json:"steps"`
	// Trees are the trees steps resolved their targets in (a tree shared
	// by several steps is written once).
	Trees    [][]drivers.Node `json:"trees"`
	Warnings []string         `json:"warnings,omitempty"`
}

// Step is one step of a trace.
type Step struct {
	Step    int               `json:"step"`
	Line    int               `json:"line"`
	Command string            `json:"command"`
	Action  string            `json:"action"`
	Status  runner.Status     `json:"status"`
	Error   *runner.ErrorInfo `json:"error,omitempty"`
	// StartMs is the step's start from the trace's; the timing split
	// follows: resolve is the time before the first device action (all of
	// a step without one), act the device actions without their settle.
	StartMs    int64 `json:"startMs"`
	DurationMs int64 `json:"durationMs"`
	ResolveMs  int64 `json:"resolveMs"`
	ActMs      int64 `json:"actMs"`
	SettleMs   int64 `json:"settleMs"`
	// Before and After are pictures (file names in the trace directory);
	// Before is the picture the previous step ended on.
	Before string `json:"before,omitempty"`
	After  string `json:"after,omitempty"`
	// Viewport is the screen's size in device units (to place Target on
	// the pictures).
	Viewport *drivers.Rect `json:"viewport,omitempty"`
	Target   *Target       `json:"target,omitempty"`
	Events   []Event       `json:"events,omitempty"`
}

// Target is where a step acted: the node (Tree and Node index into
// Data.Trees, -1 for a point) and the point.
type Target struct {
	Kind     string        `json:"kind"`
	Ref      string        `json:"ref,omitempty"`
	Selector string        `json:"selector,omitempty"`
	Tree     int           `json:"tree"`
	Node     int           `json:"node"`
	Rect     *drivers.Rect `json:"rect,omitempty"`
	Point    drivers.Point `json:"point"`
}

// Event is what the device did during a step (a drivers.Event that is not
// of the driver's own machinery), with its time from the trace's start.
type Event struct {
	Time  time.Time         `json:"time"`
	Kind  drivers.EventKind `json:"kind"`
	Level string            `json:"level,omitempty"`
	Text  string            `json:"text,omitempty"`
	// Requests: Method, URL, Status (0 when it failed or is still in
	// flight), Failed (the error text) and whether it is still Pending.
	Method     string `json:"method,omitempty"`
	URL        string `json:"url,omitempty"`
	Status     int    `json:"status,omitempty"`
	Failed     string `json:"failed,omitempty"`
	Pending    bool   `json:"pending,omitempty"`
	AtMs       int64  `json:"atMs"`
	DurationMs int64  `json:"durationMs,omitempty"`
}

// Trace records the steps of one session into a directory.
type Trace struct {
	dir   string
	mask  *drivers.Masker
	clock runner.Clock
	shot  drivers.TraceShotOptions
	data  Data
	trees map[*drivers.Snapshot]int
	last  string // the newest picture
	vp    *drivers.Rect
	begun bool
	// pending are the pictures being taken while the runner goes on, oldest
	// first: each is complete before the next step changes the screen and
	// written once it is.
	pending []*pendingPicture
	// The step in flight: its first device action, act and settle time.
	firstAct          time.Time
	actDur, settleDur time.Duration
	lastWarn          string
}

// New creates dir and returns a trace writing into it; mask masks every
// text and its values are painted over in every picture.
func New(dir string, mask *drivers.Masker, info Info) (*Trace, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	info.File, info.Name = mask.String(info.File), mask.String(info.Name)
	return &Trace{dir: dir, mask: mask, trees: map[*drivers.Snapshot]int{},
		shot: drivers.TraceShotOptions{Mask: mask.Values()}.Defaults(),
		data: Data{Version: 1, Info: info, Steps: []Step{}, Trees: [][]drivers.Node{}}}, nil
}

// Mask adds a secret value to mask from now on (an interactive session's
// fill --record-as): in texts, and painted over in the pictures.
func (t *Trace) Mask(v string) {
	if v == "" {
		return
	}
	t.mask = drivers.NewMasker(append(t.mask.Values(), v))
	t.shot.Mask = t.mask.Values()
}

// Dir is the trace's directory.
func (t *Trace) Dir() string { return t.dir }

// pendingPicture is a picture named in the trace and being taken in the
// background (drivers.TraceShotStarter).
type pendingPicture struct {
	name string
	// done is closed when pic and err are set.
	done chan struct{}
	pic  []byte
	err  error
}

func startPicture(ctx context.Context, ss drivers.TraceShotStarter, opts drivers.TraceShotOptions, name string) *pendingPicture {
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), traceShotBound)
	wait := ss.StartTraceShot(sctx, opts)
	p := &pendingPicture{name: name, done: make(chan struct{})}
	go func() {
		defer close(p.done)
		defer cancel()
		p.pic, p.err = wait()
	}()
	return p
}

// Close writes trace.json.
func (t *Trace) Close() error {
	t.resolve()
	b, err := json.MarshalIndent(&t.data, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(t.dir, File), append(b, '\n'), 0o644)
}

var _ interface {
	runner.StepHook
	runner.Flusher
} = (*Trace)(nil)

// BeginStep implements runner.StepHook (a skipped step is not traced).
func (t *Trace) BeginStep(ctx context.Context, st *runner.HookStep) {
	if st.Record.Status == runner.StatusSkipped {
		return
	}
	t.begin(ctx, st.Screen, st.Clock, st.Record.Written.Command)
}

// BeforeMutation implements runner.StepHook.
func (t *Trace) BeforeMutation(*runner.HookStep) { t.beforeMutation() }

// Acted implements runner.StepHook.
func (t *Trace) Acted(_ *runner.HookStep, a runner.ActTiming) { t.acted(a) }

// EndStep implements runner.StepHook.
func (t *Trace) EndStep(ctx context.Context, st *runner.HookStep) {
	if st.Record.Status == runner.StatusSkipped {
		return
	}
	t.end(ctx, st.Screen, st.Record)
}

// Flush implements runner.Flusher.
func (t *Trace) Flush() { t.flush() }

// begin is called before a step, with the driver idle: the first one starts
// the driver's events and takes the picture before it, unless it opens the
// app or page (before it there is nothing to see: a fresh browser context
// has not even rendered a first frame).
func (t *Trace) begin(ctx context.Context, drv runner.Screen, clock runner.Clock, command string) {
	t.clock = clock
	t.firstAct, t.actDur, t.settleDur = time.Time{}, 0, 0
	if t.begun {
		return
	}
	t.begun = true
	t.data.StartedAt = clock.Now()
	if es, ok := drv.(drivers.EventSource); ok {
		es.StartEvents()
	}
	if !lang.TraitsOf(command).OpensSession {
		t.data.Start = t.picture(ctx, drv, "start.jpg")
	}
}

// beforeMutation is called before a step's first operation that can change
// the screen: the pictures being taken are complete by then.
func (t *Trace) beforeMutation() { t.resolve() }

// flush completes the pictures being taken (before the device is released).
func (t *Trace) flush() { t.resolve() }

// resolve waits for the pictures being taken and writes them.
func (t *Trace) resolve() { t.reap(true) }

// reap writes the pictures being taken that are complete, waiting for
// them all when block.
func (t *Trace) reap(block bool) {
	keep := t.pending[:0]
	for _, p := range t.pending {
		if !block {
			select {
			case <-p.done:
			default:
				keep = append(keep, p)
				continue
			}
		}
		<-p.done
		t.write(p)
	}
	clear(t.pending[len(keep):])
	t.pending = keep
}

// write writes a complete picture, or unnames it when it failed.
func (t *Trace) write(p *pendingPicture) {
	err := p.err
	if err == nil && len(p.pic) == 0 {
		err = errors.New("the driver returned no picture")
	}
	if err == nil {
		p.pic, err = drivers.Blank(p.pic, t.shot.Mask)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(t.dir, p.name), p.pic, 0o644)
	}
	if err != nil {
		t.warn("picture " + p.name + ": " + err.Error())
		t.unname(p.name)
	}
}

// unname removes a picture that could not be written from the steps that
// name it.
func (t *Trace) unname(name string) {
	if t.data.Start == name {
		t.data.Start = ""
	}
	for i := range t.data.Steps {
		st := &t.data.Steps[i]
		if st.Before == name {
			st.Before = ""
		}
		if st.After == name {
			st.After = ""
		}
	}
	if t.last == name {
		t.last = ""
	}
}

// acted adds one device action of the step in flight.
func (t *Trace) acted(a runner.ActTiming) {
	if t.firstAct.IsZero() {
		t.firstAct = a.Start
	}
	t.actDur += a.Duration
	t.settleDur += a.Settle
}

// end is called after a step, with the driver idle: the picture after it,
// its events, its target and timing.
func (t *Trace) end(ctx context.Context, drv runner.Screen, rec *runner.JournalEntry) {
	// A step that only reads the screen ends on the picture it began on,
	// which may still be being taken: it is complete before the next step
	// changes the screen (beforeMutation), and a failed one is unnamed from
	// every step that shares it. Any other step's picture is taken now,
	// while the one before it may still be (both show the screen between
	// their request and their end, with no change to it in between).
	shares := (readsOnly(rec) || waitedAtOnce(rec)) && t.last != ""
	t.reap(false)
	n := rec.Step
	if n <= 0 {
		// An interactive session numbers no step: the trace does.
		n = len(t.data.Steps) + 1
	}
	st := Step{Step: n, Line: rec.Line, Command: rec.Written.Command, Action: t.mask.String(rec.Text),
		Status: rec.Status, DurationMs: rec.Duration.Milliseconds(), Before: t.last,
		StartMs: max(rec.Start.Sub(t.data.StartedAt).Milliseconds(), 0)}
	if rec.Error != nil {
		e := *rec.Error
		e.Mask(t.mask)
		st.Error = &e
	}
	resolve := rec.Duration
	if !t.firstAct.IsZero() {
		resolve = max(t.firstAct.Sub(rec.Start), 0)
	}
	st.ResolveMs, st.ActMs, st.SettleMs = resolve.Milliseconds(), (t.actDur - t.settleDur).Milliseconds(), t.settleDur.Milliseconds()
	if r := rec.Resolution; r != nil {
		tg := &Target{Kind: string(r.Kind), Ref: r.Ref, Selector: t.mask.String(r.Selector), Tree: -1, Node: -1, Point: r.Point}
		if r.Tree != nil {
			tg.Tree, tg.Node = t.tree(r.Tree), r.Index
			vp := r.Tree.Viewport
			t.vp = &vp
		}
		if r.Node != nil {
			rect := r.Node.Rect
			tg.Rect = &rect
		}
		st.Target = tg
	}
	st.Viewport = t.vp
	switch {
	case shares:
		// A capture would cost frames for the same pixels.
		st.After = t.last
	case ctx.Err() == nil:
		st.After = t.picture(ctx, drv, fmt.Sprintf("step-%03d.jpg", n))
	}
	for _, e := range rec.Events {
		if !e.Source.OwnMachinery() {
			st.Events = append(st.Events, t.event(e))
		}
	}
	t.data.Steps = append(t.data.Steps, st)
}

// waitedAtOnce reports a wait that found what it waited for at its first
// look: no time passed for the screen to change since the picture before.
func waitedAtOnce(rec *runner.JournalEntry) bool {
	return lang.TraitsOf(rec.Written.Command).Waits && rec.Status == runner.StatusPassed && rec.Output != nil && rec.Output.AtOnce
}

// readsOnly reports a step that cannot change the screen: a read, a find or
// a snapshot (not a wait: what it waits for is a change).
func readsOnly(rec *runner.JournalEntry) bool {
	switch rec.Effect {
	case runner.StepRead, runner.StepSnapshot, runner.StepPartial:
		return !lang.TraitsOf(rec.Written.Command).Waits
	}
	return false
}

// tree is the index of a tree in the trace, masked, added once.
func (t *Trace) tree(s *drivers.Snapshot) int {
	if i, ok := t.trees[s]; ok {
		return i
	}
	i := len(t.data.Trees)
	t.trees[s] = i
	nodes := t.mask.Snapshot(s).Nodes
	if nodes == nil {
		nodes = []drivers.Node{}
	}
	t.data.Trees = append(t.data.Trees, nodes)
	return i
}

func (t *Trace) event(e drivers.Event) Event {
	e.Text, e.URL, e.Level, e.Method, e.Failed = t.mask.String(e.Text), t.mask.String(e.URL), t.mask.String(e.Level), t.mask.String(e.Method), t.mask.String(e.Failed)
	ev := Event{Time: e.Time, Kind: e.Kind, Level: e.Level, Text: e.Text, Method: e.Method, URL: e.URL, Status: e.Status,
		Failed: e.Failed, Pending: e.Pending, DurationMs: e.Duration.Milliseconds()}
	if !e.Time.IsZero() {
		ev.AtMs = max(e.Time.Sub(t.data.StartedAt).Milliseconds(), 0)
	}
	return ev
}

// picture takes a picture into name and returns name ("" when none could
// be taken: the trace records why once).
func (t *Trace) picture(ctx context.Context, drv runner.Screen, name string) string {
	if ss, ok := drv.(drivers.TraceShotStarter); ok {
		t.pending = append(t.pending, startPicture(ctx, ss, t.shot, name))
		t.last = name
		return name
	}
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), traceShotBound)
	defer cancel()
	var pic []byte
	var err error
	if ts, ok := drv.(drivers.TraceShooter); ok {
		pic, err = ts.TraceShot(pctx, t.shot)
	} else {
		pic, err = drv.Screenshot(pctx, drivers.ScreenshotOptions{Mask: t.shot.Mask})
		if err == nil {
			pic, err = drivers.TraceJPEG(pic, t.shot)
		}
	}
	if err == nil && len(pic) == 0 {
		err = errors.New("the driver returned no picture")
	}
	if err == nil {
		pic, err = drivers.Blank(pic, t.shot.Mask)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(t.dir, name), pic, 0o644)
	}
	if err != nil {
		t.warn("picture " + name + ": " + err.Error())
		return ""
	}
	t.last = name
	return name
}

func (t *Trace) warn(msg string) {
	msg = t.mask.String(msg)
	if msg != t.lastWarn && len(t.data.Warnings) < 20 {
		t.data.Warnings = append(t.data.Warnings, msg)
	}
	t.lastWarn = msg
}
