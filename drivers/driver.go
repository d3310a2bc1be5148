// Package drivers defines the device interface every platform implements: a
// small core (open/close, snapshot, act, screenshot) plus optional capability
// interfaces the runner type-asserts. Drivers import nothing of adtest but
// this package. A driver never decides ref-frame policy: the runner calls
// Act only after it has crossed the side-effect seam.
//
// Being the package every other one imports, it also holds the vocabulary
// they share: every failure Reason (reason.go) and the one Masker of
// secrets and variable values that every writer of text uses (secrets.go).
package drivers

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Platform names as .ad scripts spell them.
const (
	PlatformWeb     = "web"
	PlatformAndroid = "android"
	PlatformIOS     = "ios"
	PlatformFake    = "fake"
)

// Rect is a node's frame in device units (CSS pixels on the web, px on Android).
type Rect struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// Center returns the centre point of r.
func (r Rect) Center() Point { return Point{X: r.X + r.Width/2, Y: r.Y + r.Height/2} }

// Empty reports whether r has no area.
func (r Rect) Empty() bool { return r.Width <= 0 || r.Height <= 0 }

// Point is a device coordinate.
type Point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// Node is one element of a snapshot, the same model on every platform.
// Snapshots are flat slices in document (pre-)order; Parent is the index of
// the parent node in the same slice (-1 for roots) and Depth its nesting level.
type Node struct {
	Role  string `json:"role"`            // normalised role: button, link, textbox, text, heading, checkbox, ...
	Label string `json:"label,omitempty"` // accessible name / content-desc
	ID    string `json:"id,omitempty"`    // DOM id or data-testid / resource-id
	Text  string `json:"text,omitempty"`  // visible text
	Value string `json:"value,omitempty"` // current value of an input
	Rect  Rect   `json:"rect"`

	Visible  bool `json:"visible,omitempty"`
	Hidden   bool `json:"hidden,omitempty"`
	Editable bool `json:"editable,omitempty"`
	Selected bool `json:"selected,omitempty"`
	Focused  bool `json:"focused,omitempty"`
	Enabled  bool `json:"enabled,omitempty"`
	Hittable bool `json:"hittable,omitempty"`
	// Interactive is true for nodes `snapshot -i` keeps.
	Interactive bool `json:"interactive,omitempty"`
	// Part is an element showing words of its own inside a text node or a
	// control (web: "fragmented" in <p>a <span>fragmented</span> slide.</p>,
	// a line of a button made of two blocks): a selector finds it and an
	// action lands on it, but a snapshot does not print it (the node around
	// it shows the words) and it has no ref.
	Part bool `json:"part,omitempty"`
	// Unseen says what inside this node the driver cannot see, when
	// something is there it cannot read (web: "closed shadow root",
	// "cross-origin frame (ORIGIN)"); selectors cannot find what is inside.
	Unseen string `json:"unseen,omitempty"`

	Parent int `json:"parent"`
	Depth  int `json:"depth"`

	// Handle is an opaque driver-specific handle that lets the driver act on
	// exactly this node (a DOM backend node id, a uiautomator bounds key, ...).
	// It is only meaningful to the driver that produced the snapshot.
	Handle string `json:"-"`
}

// Snapshot is one capture of the screen.
type Snapshot struct {
	Nodes []Node `json:"nodes"`
	// URL or app the capture was taken of; Title of the page or window.
	URL   string `json:"url,omitempty"`
	Title string `json:"title,omitempty"`
	// Viewport size in device units.
	Viewport Rect `json:"viewport"`
}

// Children returns the indexes of the direct children of node i.
func (s *Snapshot) Children(i int) []int {
	var out []int
	for j := i + 1; j < len(s.Nodes); j++ {
		if s.Nodes[j].Depth <= s.Nodes[i].Depth {
			break
		}
		if s.Nodes[j].Parent == i {
			out = append(out, j)
		}
	}
	return out
}

// SnapshotOptions are the snapshot flags a script can give. The runner
// applies Interactive, Depth and Scope itself, in one place, and asks a
// driver only for Raw: Snapshot with those fields zero returns the whole
// tree. (The web driver also filters when a caller outside the runner sets
// them.)
type SnapshotOptions struct {
	Interactive bool   // -i: keep interactive nodes only
	Depth       int    // -d N: 0 means unlimited
	Scope       string // -s TEXT: the subtree of the first node whose label/text matches
	Raw         bool   // --raw: do not prune structural nodes
}

// OpenRequest opens an app or a URL in the session.
type OpenRequest struct {
	Target   string // app id, or URL
	URL      string // deep link opened in the app (open <app> <url>)
	Relaunch bool
}

// ActionKind names a device operation.
type ActionKind string

const (
	ActTap       ActionKind = "tap"       // click/press
	ActLongPress ActionKind = "longpress" // long press for Duration
	ActFill      ActionKind = "fill"      // focus, clear, type Text, verify
	ActType      ActionKind = "type"      // type Text into the focused element
	ActFocus     ActionKind = "focus"
	ActHover     ActionKind = "hover"
	ActScroll    ActionKind = "scroll" // Direction + Amount (viewport fraction), or to an edge (top/bottom)
	ActSwipe     ActionKind = "swipe"  // From -> To, quick fling
	ActPan       ActionKind = "pan"    // From -> To over Duration (gesture pan / drag)
	ActBack      ActionKind = "back"
	ActHome      ActionKind = "home"
	// ActAppSwitcher opens the recent-apps switcher (a script's app-switcher).
	ActAppSwitcher ActionKind = "app-switcher"
	ActKey         ActionKind = "key"      // Key: "enter", "dismiss", "Tab", ...
	ActViewport    ActionKind = "viewport" // Size
)

// Target is a resolved action target: a node from a snapshot (with its
// handle), or a bare point. The runner resolves refs and selectors; the driver
// acts on what it is given.
type Target struct {
	Node  *Node // nil for a coordinate target
	Point Point // the point to act at (the node's centre when Node is set)
	// Describe is a human description for error messages (@e3 "Sign in", label="Email", 10 20).
	Describe string
}

// Action is one device operation.
type Action struct {
	Kind   ActionKind
	Target *Target // nil for actions without an element (type, back, key, page scroll)

	Text string // fill/type text

	// Tap options.
	Count      int // repetitions (>=1)
	IntervalMs int
	HoldMs     int
	DoubleTap  bool
	Button     string // primary (default), secondary, middle
	DelayMs    int    // per-character typing delay

	// Gestures and scrolls.
	From, To  Point
	Direction string  // up down left right top bottom
	Amount    float64 // viewport fraction for scroll, 0 = default
	Duration  time.Duration

	Key  string // for ActKey
	Size Point  // for ActViewport (X = width, Y = height)
}

// ScreenshotOptions controls a screenshot.
type ScreenshotOptions struct {
	FullPage bool
	// Mask are secret values the picture must not show: a driver that can
	// find where the screen renders them (web: form fields holding one, text
	// containing one) paints those areas over in the PNG it returns, and
	// fails rather than return a picture it could not mask. A value shorter
	// than ShortSecretLen is matched only as a whole token (SecretAt).
	Mask []string
}

// Driver is one device session: the core every platform implements.
type Driver interface {
	// Platform returns the platform name (web, android, fake, ...).
	Platform() string
	// Open launches or activates an app or navigates to a URL.
	Open(ctx context.Context, req OpenRequest) error
	// Close releases the session and its resources; afterwards every call
	// fails (ErrInfrastructure or a closed-session error). It is idempotent.
	// A script's close is AppCloser.CloseApp, not this.
	Close(ctx context.Context) error
	// Snapshot captures the screen: the whole tree in document order, each
	// node's Parent before it and Depth one more than its parent's (see
	// SnapshotOptions). It must not change device state. It
	// never captures content that is being replaced: when a navigation or
	// transition is in flight it first waits for it (bounded).
	Snapshot(ctx context.Context, opts SnapshotOptions) (*Snapshot, error)
	// Act performs one device operation. Unsupported kinds return an error
	// wrapping ErrUnsupported.
	//
	// Settle contract: when Act returns nil, the effects the action started
	// are observable, so the next Snapshot sees the screen the action led
	// to. A navigation or screen transition the action started (web: a link,
	// a form submit, a location change, a history push; Android: an
	// activity or window change) has committed and its new content is
	// ready (web: DOMContentLoaded of the new document), within a bound;
	// otherwise the device rendered at least one frame after the action, so
	// its handlers and observers ran. A driver tells "this action
	// navigated" from "it did not" by the device's own events (page
	// lifecycle, window or accessibility events), never by sleeping. Settle
	// waits only when something is in flight, and every wait is bounded by
	// ctx and a bound of the driver's own. Settling is read-only: it never
	// takes a snapshot for the runner and so never activates or expires a
	// ref frame (ADR 0014).
	Act(ctx context.Context, a Action) error
	// Screenshot returns a PNG of the screen.
	Screenshot(ctx context.Context, opts ScreenshotOptions) ([]byte, error)
}

// AppCloser is implemented by drivers whose session outlives its app or
// page. CloseApp is a script's `close`: it ends the app (terminates it) or
// the page (navigates it away), and the session stays usable for a later
// Open. Driver.Close, by contrast, releases the session for good: after it
// every call fails. The runner never calls Driver.Close for a script line.
type AppCloser interface {
	CloseApp(ctx context.Context) error
}

// AlertHandler is implemented by drivers that see native or JS dialogs.
type AlertHandler interface {
	// AlertText returns the text of the open alert, and false when none is open.
	AlertText(ctx context.Context) (string, bool, error)
	// AlertRespond accepts or dismisses the open alert. No alert open is not an error.
	AlertRespond(ctx context.Context, accept bool) error
}

// Settings is implemented by drivers that can change device settings, a
// script's `settings NAME VALUE` (Android: animations, wifi, airplane).
// SettingValues lists, per setting name, the values Setting accepts; the
// runner refuses any other pair before the side-effect seam and names what
// can be set. Setting changes the device; called with a pair SettingValues
// does not list, it returns an error wrapping ErrUnsupported.
type Settings interface {
	SettingValues() map[string][]string
	Setting(ctx context.Context, name, value string) error
}

// AttrReader returns the raw attributes of a node (get attrs).
type AttrReader interface {
	Attrs(ctx context.Context, n *Node) (map[string]string, error)
}

// LogTailer returns the last lines of the device log (browser console, logcat).
type LogTailer interface {
	LogTail(n int) []string
}

// Event is something that happened on the device or in the driver between
// two steps: the one driver-event type. Source says who reported it and
// Kind what happened; the fields after them belong to some kinds only.
// The session drains a driver's events after every step and hands them to
// its step hooks (runner.StepHook): the trace keeps what the device did,
// the suite's timing.ndjson what the driver did on its own.
type Event struct {
	Time   time.Time
	Source EventFrom
	Kind   EventKind
	// Console messages, page errors and log lines: Level (log, warning,
	// error, ...) and Text.
	Level, Text string
	// Requests: Method, URL, Status (0 when it failed or is still in
	// flight), Failed (the error text), Pending and Duration until it
	// finished.
	Method   string
	URL      string
	Status   int
	Failed   string
	Pending  bool
	Duration time.Duration
	// Helper events: Device, the driver call it served (Command: snapshot,
	// viewport, gesture) and why (Reason).
	Device  string
	Command string
	Reason  string
}

// EventFrom is who reported an event.
type EventFrom string

const (
	// FromHelper: the driver's own machinery (the Android helper session).
	FromHelper EventFrom = "helper"
	// FromPage: the page of a browser (console, page errors, requests).
	FromPage EventFrom = "page"
	// FromDevice: the device's log (logcat, the fake device's operations).
	FromDevice EventFrom = "device"
)

// OwnMachinery reports an event of the driver's own machinery rather than
// of what the device did.
func (f EventFrom) OwnMachinery() bool { return f == FromHelper }

// EventKind is what happened.
type EventKind string

const (
	EventConsole   EventKind = "console"   // a console message (Level, Text)
	EventPageError EventKind = "pageerror" // an uncaught exception (Text, URL)
	EventRequest   EventKind = "request"   // a network request (Method, URL, Status, Duration)
	EventLog       EventKind = "log"       // a device or browser log line (Level, Text)
	// The Android helper session started, was reused, invalidated, or fell
	// back to one-shot.
	EventHelperStarted     EventKind = "started"
	EventHelperReused      EventKind = "reused"
	EventHelperInvalidated EventKind = "invalidated"
	EventHelperFallback    EventKind = "fallback"
)

// EventSource is implemented by drivers that report events. DrainEvents
// returns those since the last call (a bounded number: the oldest are
// dropped first). What the device does (console messages, page errors,
// requests, log lines) costs a driver to follow and is kept only once
// StartEvents was called (a trace calls it); the driver's own events are
// kept from the start.
type EventSource interface {
	StartEvents()
	DrainEvents() []Event
}

// Provider is a warm helper session (ADR 0002): a browser or an adb server
// connection kept for the whole run. Each test attempt gets a fresh Driver
// from it; NewSession must isolate state (a new browser context, an app
// relaunch).
type Provider interface {
	Platform() string
	NewSession(ctx context.Context, opts SessionOptions) (Driver, error)
	// Close shuts the helper down; no process or temp dir may remain.
	Close() error
}

// SessionOptions configure one session taken from a Provider.
type SessionOptions struct {
	// Worker is the worker index (0-based) that owns the session.
	Worker int
	// Device selects a device serial (Android) when not empty.
	Device string
	// Fresh asks for a session that shares nothing with the worker's
	// earlier ones even where the provider keeps what it can (a web
	// worker's warm browser context): a retry's.
	Fresh bool
}

// StateSharer is a session that shares state with the worker's earlier
// ones (a web worker's warm browser context, cleared between tests): a
// retry, which asks for SessionOptions.Fresh, does not take one opened
// ahead of it.
type StateSharer interface {
	SharesState() bool
}

// ErrUnsupported marks an operation the platform does not have.
var ErrUnsupported = errors.New("unsupported operation")

// Unsupported returns an error wrapping ErrUnsupported for command on platform.
func Unsupported(command, platform string) error {
	return fmt.Errorf("%w: %s is not supported on %s", ErrUnsupported, command, platform)
}

// ErrClosed marks a call on a session that Close released.
var ErrClosed = errors.New("the session is closed")

// ErrInfrastructure marks a failure of the device or browser itself (crashed
// browser, lost connection, no device): the attempt fails as infrastructure and
// the helper is replaced.
var ErrInfrastructure = errors.New("infrastructure failure")

// WorkerReleaser is a Provider whose workers each hold a browser of their
// own (a Selenium Grid's session): the suite calls ReleaseWorker when a
// worker has no more tests, so that what it holds is given back at once
// rather than when the run ends.
type WorkerReleaser interface {
	ReleaseWorker(worker int)
}

// TargetError is returned by Act when the action cannot be performed on the
// target before any device side effect (covered, not visible, disabled).
// Reason is one of the target guards (ReasonTargetCovered, ...).
type TargetError struct {
	Reason  Reason
	Message string
	Hint    string
}

func (e *TargetError) Error() string { return e.Message }

// Preflighter is implemented by drivers that can check an action's target
// before any side effect (in view, not covered, enabled). The runner calls
// Preflight before it crosses the side-effect seam, so a failed guard leaves
// the ref frame active (ADR 0014 rule 3). It must not change device state.
type Preflighter interface {
	Preflight(ctx context.Context, a Action) error
}

// ScrollReport describes a driver's last scroll.
type ScrollReport struct {
	// Container names what scrolled ("the page", `div#list "Picks"`).
	Container string
	// Distance is how far it moved, in device units.
	Distance float64
	// AtEnd is set when the container cannot move further that way.
	AtEnd bool
}

// ScrollReporter is implemented by drivers that can tell what their last
// ActScroll moved, so that `scroll --until` stops at the end of its
// container and says how far it scrolled and where.
type ScrollReporter interface {
	LastScroll() ScrollReport
}

// Liveness is implemented by drivers that can tell, without a device call,
// that their session is already dead: its browser exited or its connection
// broke. The suite runner asks a session it opened ahead of time before it
// hands it to an attempt, so a retry after an infrastructure failure never
// starts on what died with the old helper.
type Liveness interface {
	Alive() bool
}
