// Package fake is an in-memory, deterministic device for tests: it implements
// drivers.Driver (plus AlertHandler, AttrReader, LogTailer and Preflighter)
// and a drivers.Provider, and it records every operation it receives so a
// test can assert exactly what was dispatched.
//
// # Screens format
//
// A screens file declares named screens, what `open` shows, and faults.
// Blank lines and lines starting with # are ignored. Top-level directives
// start in column 1:
//
//	viewport 390 844                 device size (default 390x844)
//	open myapp -> login              `open myapp` shows screen login ("*" = any target)
//	screen login ["Title"]           starts a screen; its elements follow, indented
//	fail tap [times=N] ["message"]   the first N (default: every) tap operations fail
//	hang fill [times=N]              fill operations block until the context ends
//
// An element line is indented under its screen; deeper indentation nests it
// under the element above it:
//
//	ROLE ["LABEL"] [key=value ...] [flag ...] [-> [on tap|fill] EFFECT, EFFECT ...]
//
// Keys: id, label, text, value, rect=x,y,w,h (default: stacked rows of 44
// units, full width), after=500ms (appears that long after the screen was
// shown, on the injected clock), from-session=N (exists only from the Nth
// session of the provider on, for flaky scenarios). Flags: hidden, editable,
// selected, focused, disabled, interactive, static (interactive defaults to
// true for button, link, textbox, checkbox, switch, radio, tab, menuitem,
// combobox, searchbox, slider, textfield, cell). Effects: goto SCREEN,
// alert "TEXT" (opens an alert), set "VALUE" (sets the element's value).
// Effects run on tap unless `on fill` is given. Values quote with Go syntax.
//
//	open demo -> login
//	screen login "Sign in"
//	  heading "Welcome"
//	  textbox "Email" id=email editable
//	  button "Sign in" id=signin -> goto home
//	screen home
//	  text "Signed in"
//	  button "Late" after=1s
//
// Parse errors carry file:line.
package fake

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/adtest/adtest/drivers"
)

// Clock is the time source of the device (runner.Clock satisfies it).
type Clock interface{ Now() time.Time }

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

// Op is one operation the device received.
type Op struct {
	Kind   string // open, close, snapshot, screenshot, preflight, alert-text, alert-accept, alert-dismiss, attrs, or an ActionKind (tap, fill, ...)
	Target string // the target description, open target, or key
	Text   string
	Screen string // the screen shown when the op arrived
	// Element is the id (else label) of the element the op acted on, when
	// the device resolved one.
	Element string
}

// Options configure a Device.
type Options struct {
	Clock Clock
	// Session is the 1-based session number (from-session elements).
	Session int
}

// Device is one fake device session.
type Device struct {
	mu       sync.Mutex
	screens  *Screens
	clock    Clock
	session  int
	viewport drivers.Rect

	screen  string
	history []string
	shownAt time.Time
	scrollY float64
	values  map[*Element]string
	focused *Element
	alert   *string
	closed  bool

	handles map[string]*Element
	keys    map[*Element]string

	ops    []Op
	faults []*faultState
	// traceFrom is 1 + the index of the first op a trace has not drained
	// (0: no trace).
	traceFrom int
}

type faultState struct {
	Fault
	seen int
}

// New returns a device showing no screen until Open.
func New(s *Screens, opts Options) *Device {
	if opts.Clock == nil {
		opts.Clock = realClock{}
	}
	if opts.Session == 0 {
		opts.Session = 1
	}
	d := &Device{
		screens: s, clock: opts.Clock, session: opts.Session, viewport: s.Viewport,
		values: map[*Element]string{}, handles: map[string]*Element{}, keys: map[*Element]string{},
	}
	for _, name := range s.Order {
		n := 0
		var walk func(els []*Element)
		walk = func(els []*Element) {
			for _, e := range els {
				n++
				k := name + "#" + strconv.Itoa(n)
				d.handles[k] = e
				d.keys[e] = k
				walk(e.Children)
			}
		}
		walk(s.Screens[name].Roots)
	}
	for _, f := range s.Faults {
		d.faults = append(d.faults, &faultState{Fault: f})
	}
	return d
}

// FailOn makes the first times operations of kind op fail with msg (times 0 = always).
func (d *Device) FailOn(op string, times int, msg string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.faults = append(d.faults, &faultState{Fault: Fault{Op: op, Times: times, Msg: msg}})
}

// HangOn makes the first times operations of kind op (0 = every one) block
// until their context ends.
func (d *Device) HangOn(op string, times int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.faults = append(d.faults, &faultState{Fault: Fault{Op: op, Hang: true, Times: times}})
}

// Ops returns a copy of every operation received, in order.
func (d *Device) Ops() []Op {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.ops)
}

// ResetOps forgets the operations received so far (long benchmarks).
func (d *Device) ResetOps() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.ops = d.ops[:0]
}

// Counts returns the number of operations per kind.
func (d *Device) Counts() map[string]int {
	d.mu.Lock()
	defer d.mu.Unlock()
	m := map[string]int{}
	for _, o := range d.ops {
		m[o.Kind]++
	}
	return m
}

// Count returns the number of operations of one kind.
func (d *Device) Count(kind string) int { return d.Counts()[kind] }

// Mutations returns the operations with a possible device-visible side
// effect (every Act, open, close, alert responses).
func (d *Device) Mutations() []Op {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []Op
	for _, o := range d.ops {
		if isMutating(o.Kind) {
			out = append(out, o)
		}
	}
	return out
}

func isMutating(kind string) bool {
	switch kind {
	case "snapshot", "screenshot", "preflight", "alert-text", "attrs":
		return false
	}
	return true
}

// Screen returns the name of the screen shown.
func (d *Device) Screen() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.screen
}

// SetScreen shows a screen directly (a test's stand-in for an external change).
func (d *Device) SetScreen(name string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.screens.Screens[name]; !ok {
		return fmt.Errorf("fake: unknown screen %q", name)
	}
	d.show(name)
	return nil
}

// record logs op and applies faults; it returns the fault to apply, if any.
// Callers hold d.mu.
func (d *Device) record(op Op) *faultState {
	op.Screen = d.screen
	d.ops = append(d.ops, op)
	for _, f := range d.faults {
		if f.Op != op.Kind {
			continue
		}
		if f.Times > 0 && f.seen >= f.Times {
			continue
		}
		f.seen++
		return f
	}
	return nil
}

// fault turns a fault into an error, blocking for a hang. Called without d.mu.
func fault(ctx context.Context, f *faultState, kind string) error {
	if f == nil {
		return nil
	}
	if f.Hang {
		<-ctx.Done()
		return ctx.Err()
	}
	msg := f.Msg
	if msg == "" {
		msg = "fake: injected failure on " + kind
	}
	return fmt.Errorf("%s", msg)
}

// Platform implements drivers.Driver.
func (d *Device) Platform() string { return drivers.PlatformFake }

func (d *Device) show(name string) {
	d.screen = name
	d.shownAt = d.clock.Now()
	d.scrollY = 0
	d.focused = nil
}

// Open implements drivers.Driver.
func (d *Device) Open(ctx context.Context, req drivers.OpenRequest) error {
	d.mu.Lock()
	f := d.record(Op{Kind: "open", Target: req.Target, Text: req.URL})
	d.mu.Unlock()
	if err := fault(ctx, f, "open"); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return fmt.Errorf("%w: fake device is closed", drivers.ErrInfrastructure)
	}
	name, ok := d.screens.Opens[req.Target]
	if !ok && req.URL != "" {
		name, ok = d.screens.Opens[req.URL]
	}
	if !ok {
		name, ok = d.screens.Opens["*"]
	}
	if !ok {
		return fmt.Errorf("fake: no screen for open %q", req.Target)
	}
	d.history = nil
	d.values = map[*Element]string{}
	d.alert = nil
	d.show(name)
	return nil
}

// CloseApp implements drivers.AppCloser: the app ends (no screen shows)
// and a later Open starts it again.
func (d *Device) CloseApp(ctx context.Context) error {
	d.mu.Lock()
	f := d.record(Op{Kind: "close-app"})
	d.mu.Unlock()
	if err := fault(ctx, f, "close-app"); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return fmt.Errorf("%w: fake device is closed", drivers.ErrInfrastructure)
	}
	d.screen = ""
	d.alert = nil
	return nil
}

// Close implements drivers.Driver: the session is released; every later
// call but Close fails.
func (d *Device) Close(ctx context.Context) error {
	d.mu.Lock()
	f := d.record(Op{Kind: "close"})
	d.mu.Unlock()
	if err := fault(ctx, f, "close"); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.closed = true
	d.screen = ""
	return nil
}

const rowHeight = 44

// present reports whether e exists now.
func (d *Device) present(e *Element) bool {
	if e.FromSession > 0 && d.session < e.FromSession {
		return false
	}
	if e.After > 0 && d.clock.Now().Sub(d.shownAt) < e.After {
		return false
	}
	return true
}

// layout returns the nodes of the current screen and their elements.
func (d *Device) layout() ([]drivers.Node, []*Element) {
	sc := d.screens.Screens[d.screen]
	if sc == nil {
		return nil, nil
	}
	nodes := make([]drivers.Node, 0, 16)
	els := make([]*Element, 0, 16)
	row := 0
	var walk func(list []*Element, parent, depth int)
	walk = func(list []*Element, parent, depth int) {
		for _, e := range list {
			if !d.present(e) {
				continue
			}
			r := drivers.Rect{X: float64(depth * 8), Y: float64(row*rowHeight) - d.scrollY, Width: d.viewport.Width - float64(depth*16), Height: rowHeight}
			if e.Rect != nil {
				r = *e.Rect
				r.Y -= d.scrollY
			}
			row++
			inter := interactiveRoles[e.Role]
			if e.Interactive != nil {
				inter = *e.Interactive
			}
			value := e.Value
			if v, ok := d.values[e]; ok {
				value = v
			}
			onScreen := r.Y+r.Height > 0 && r.Y < d.viewport.Height && r.X < d.viewport.Width && r.X+r.Width > 0
			visible := !e.Hidden && onScreen
			n := drivers.Node{
				Role: e.Role, Label: e.Label, ID: e.ID, Text: e.Text, Value: value, Rect: r,
				Visible: visible, Hidden: !visible, Editable: e.Editable && !e.Disabled,
				Selected: e.Selected, Focused: e.Focused || d.focused == e, Enabled: !e.Disabled,
				Hittable: visible && !e.Disabled, Interactive: inter,
				Parent: parent, Depth: depth, Handle: d.keys[e],
			}
			if e.Hidden {
				n.Rect = drivers.Rect{}
			}
			idx := len(nodes)
			nodes = append(nodes, n)
			els = append(els, e)
			walk(e.Children, idx, depth+1)
		}
	}
	walk(sc.Roots, -1, 0)
	return nodes, els
}

// Snapshot implements drivers.Driver: the whole tree of the current screen
// (the runner applies -i/-d/-s).
func (d *Device) Snapshot(ctx context.Context, opts drivers.SnapshotOptions) (*drivers.Snapshot, error) {
	d.mu.Lock()
	f := d.record(Op{Kind: "snapshot"})
	d.mu.Unlock()
	if err := fault(ctx, f, "snapshot"); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil, fmt.Errorf("%w: fake device is closed", drivers.ErrInfrastructure)
	}
	nodes, _ := d.layout()
	snap := &drivers.Snapshot{Nodes: nodes, URL: d.screen, Viewport: d.viewport}
	if sc := d.screens.Screens[d.screen]; sc != nil {
		snap.Title = sc.Title
	}
	return snap, nil
}

// find returns the element of a target: by handle when it is on the current
// screen, else by hit-testing the point. Callers hold d.mu.
func (d *Device) find(t *drivers.Target) (*Element, *drivers.Node) {
	if t == nil {
		return nil, nil
	}
	nodes, els := d.layout()
	if t.Node != nil && t.Node.Handle != "" {
		for i, e := range els {
			if d.keys[e] == t.Node.Handle {
				return e, &nodes[i]
			}
		}
	}
	// Hit test: the last (innermost, topmost) node containing the point.
	for i := len(nodes) - 1; i >= 0; i-- {
		r := nodes[i].Rect
		if nodes[i].Visible && t.Point.X >= r.X && t.Point.X < r.X+r.Width && t.Point.Y >= r.Y && t.Point.Y < r.Y+r.Height {
			return els[i], &nodes[i]
		}
	}
	return nil, nil
}
