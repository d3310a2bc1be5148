// Package android is adtest's Android driver. It talks to the adb server
// over the ADB host protocol (package adb) and captures the screen through
// agent-device's snapshot helper, kept running as one persistent session
// per device (ADR 0002) with a one-shot fallback for reads; `uiautomator
// dump` is used only when asked for (SnapshotDump). Taps, keys and text go
// through `input`; long presses, swipes, pans and scrolls are helper touch
// plans.
package android

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/drivers/android/adb"
)

// Snapshot modes.
const (
	SnapshotHelper = "helper" // the persistent helper session (default)
	SnapshotDump   = "dump"   // `uiautomator dump`, installs nothing
)

// Options configure a Provider.
type Options struct {
	// Server is the adb server HOST:PORT (--adb-server); empty: the environment, then 127.0.0.1:5037.
	Server string
	Getenv func(string) string
	// ADBPath is the adb binary used to start a local server.
	ADBPath string
	// Devices restricts the run to these serials (--device, repeatable).
	Devices []string
	// Snapshot is SnapshotHelper (default) or SnapshotDump.
	Snapshot string
	// HelperDir holds the helper APK (default HelperDir(Getenv)).
	HelperDir string
	// Debugf receives helper session events and adb commands (--debug).
	Debugf func(format string, args ...any)
	// OnHelperEvent receives each helper event (timing.ndjson).
	OnHelperEvent func(HelperEvent)
	// NoSession switches persistent helper sessions off: every helper
	// command runs one-shot (slower; for devices where a long-lived
	// instrumentation is not wanted).
	NoSession bool
	// SettleTimeout bounds the wait after an action for the screen to stop
	// changing (default 1500ms).
	SettleTimeout time.Duration
}

// Provider is the warm helper of a run: one adb server connection, a
// device tracker, and one persistent helper session per device.
type Provider struct {
	client *adb.Client
	opts   Options
	cancel context.CancelFunc
	done   chan struct{}

	mu       sync.Mutex
	online   map[string]bool
	helpers  map[string]*helper
	events   []HelperEvent
	sessions map[*Session]bool        // open sessions, which collect their device's events
	leases   map[string]chan struct{} // one session per device at a time

	apkOnce sync.Once
	apk     []byte
	apkErr  error
}

func infra(format string, a ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{drivers.ErrInfrastructure}, a...)...)
}

// NewProvider connects to the adb server (starting a local one when none
// answers) and checks that a device is online.
func NewProvider(ctx context.Context, opts Options) (*Provider, error) {
	if opts.Snapshot == "" {
		opts.Snapshot = SnapshotHelper
	}
	if opts.Snapshot != SnapshotHelper && opts.Snapshot != SnapshotDump {
		return nil, fmt.Errorf("--android-snapshot must be helper or dump, got %q", opts.Snapshot)
	}
	if opts.HelperDir == "" {
		opts.HelperDir = HelperDir(opts.Getenv)
	}
	if opts.SettleTimeout <= 0 {
		opts.SettleTimeout = 1500 * time.Millisecond
	}
	c, err := adb.New(adb.Options{Server: opts.Server, Getenv: opts.Getenv, ADBPath: opts.ADBPath})
	if err != nil {
		return nil, infra("%v", err)
	}
	sctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if err := c.EnsureServer(sctx); err != nil {
		return nil, infra("%v", err)
	}
	list, err := c.Devices(sctx)
	if err != nil {
		return nil, infra("%v", err)
	}
	p := &Provider{client: c, opts: opts, online: map[string]bool{}, helpers: map[string]*helper{}, sessions: map[*Session]bool{}, leases: map[string]chan struct{}{}, done: make(chan struct{})}
	for _, d := range list {
		p.online[d.Serial] = d.State == "device"
	}
	if len(p.serials()) == 0 {
		want := "no Android device is online"
		if len(opts.Devices) > 0 {
			want = fmt.Sprintf("device %s is not online", strings.Join(opts.Devices, ", "))
		}
		return nil, infra("%s at the adb server %s (start an emulator, plug a device in, or `adb connect HOST:PORT`)", want, c.Addr())
	}
	tctx, tcancel := context.WithCancel(context.Background())
	p.cancel = tcancel
	ch, err := c.TrackDevices(tctx)
	if err != nil {
		tcancel()
		return nil, infra("%v", err)
	}
	go p.track(ch)
	return p, nil
}

// Client is the adb client of the provider.
func (p *Provider) Client() *adb.Client { return p.client }

// track follows host:track-devices: a device that leaves the online state
// invalidates its helper session.
func (p *Provider) track(ch <-chan []adb.Device) {
	defer close(p.done)
	for list := range ch {
		now := map[string]bool{}
		for _, d := range list {
			now[d.Serial] = d.State == "device"
		}
		p.mu.Lock()
		var gone []*helper
		for s, was := range p.online {
			if was && !now[s] {
				if h := p.helpers[s]; h != nil {
					gone = append(gone, h)
				}
				p.debugf("android: device %s went offline", s)
			}
		}
		p.online = now
		p.mu.Unlock()
		for _, h := range gone {
			h.invalidate("track-devices", "device disconnected")
		}
	}
}

func (p *Provider) debugf(format string, a ...any) {
	if p.opts.Debugf != nil {
		p.opts.Debugf(format, a...)
	}
}

// serials returns the online serials the run may use, in order. Callers
// may hold p.mu... so it does not lock; NewProvider and NewSession lock.
func (p *Provider) serials() []string {
	var out []string
	if len(p.opts.Devices) > 0 {
		for _, s := range p.opts.Devices {
			if p.online[s] {
				out = append(out, s)
			}
		}
		return out
	}
	for s, ok := range p.online {
		if ok {
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// Serials returns every online device the run may use (one worker each).
func (p *Provider) Serials() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.serials()
}

func (p *Provider) isOnline(serial string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.online[serial]
}

// Events returns the helper events so far (the latest 1000).
func (p *Provider) Events() []HelperEvent {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]HelperEvent(nil), p.events...)
}

func (p *Provider) record(ev HelperEvent) {
	p.mu.Lock()
	p.events = append(p.events, ev)
	if len(p.events) > 1000 {
		p.events = p.events[len(p.events)-1000:]
	}
	for s := range p.sessions {
		if s.serial == ev.Device && len(s.pending) < 1000 {
			s.pending = append(s.pending, ev)
		}
	}
	p.mu.Unlock()
	p.debugf("android helper: %s %s %s %s", ev.Device, ev.Command, ev.Event, ev.Reason)
	if p.opts.OnHelperEvent != nil {
		p.opts.OnHelperEvent(ev)
	}
}

func (p *Provider) helperAPK() ([]byte, error) {
	p.apkOnce.Do(func() { p.apk, p.apkErr = LoadHelperAPK(p.opts.HelperDir) })
	return p.apk, p.apkErr
}

func (p *Provider) helperFor(serial string) *helper {
	p.mu.Lock()
	defer p.mu.Unlock()
	h := p.helpers[serial]
	if h == nil {
		h = &helper{client: p.client, serial: serial, apk: p.helperAPK, report: p.record}
		if p.opts.NoSession {
			h.disabled = "helper sessions are off"
		}
		p.helpers[serial] = h
	}
	return h
}

// Platform implements drivers.Provider.
func (p *Provider) Platform() string { return drivers.PlatformAndroid }

func (p *Provider) lease(serial string) chan struct{} {
	l := p.leases[serial]
	if l == nil {
		l = make(chan struct{}, 1)
		p.leases[serial] = l
	}
	return l
}

// NewSession implements drivers.Provider: a session on opts.Device, else
// on a free online device (the worker's own first: online devices in
// serial order, round robin). A device runs one session at a time: with
// more workers than devices, NewSession waits for one to be free.
func (p *Provider) NewSession(ctx context.Context, opts drivers.SessionOptions) (drivers.Driver, error) {
	p.mu.Lock()
	candidates := []string{opts.Device}
	if opts.Device == "" {
		list := p.serials()
		candidates = nil
		for i := range list {
			candidates = append(candidates, list[(opts.Worker+i)%len(list)])
		}
	}
	var online []string
	for _, c := range candidates {
		if c != "" && p.online[c] {
			online = append(online, c)
		}
	}
	serial := ""
	for _, c := range online {
		select {
		case p.lease(c) <- struct{}{}:
			serial = c
		default:
			continue
		}
		break
	}
	var wait chan struct{}
	if serial == "" && len(online) > 0 {
		wait = p.lease(online[0])
	}
	p.mu.Unlock()
	if serial == "" && wait == nil {
		return nil, infra("device %q is not online at the adb server %s", strings.Join(candidates, ", "), p.client.Addr())
	}
	if serial == "" {
		select {
		case wait <- struct{}{}:
			serial = online[0]
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if !p.isOnline(serial) {
			<-wait
			return nil, infra("device %s went offline", serial)
		}
	}
	s := &Session{p: p, serial: serial, helper: p.helperFor(serial)}
	p.mu.Lock()
	p.sessions[s] = true
	p.mu.Unlock()
	return s, nil
}

// Close implements drivers.Provider: every helper session is stopped and
// the tracker ends.
func (p *Provider) Close() error {
	p.mu.Lock()
	hs := make([]*helper, 0, len(p.helpers))
	for _, h := range p.helpers {
		hs = append(hs, h)
	}
	p.mu.Unlock()
	for _, h := range hs {
		h.close()
	}
	if p.cancel != nil {
		p.cancel()
		<-p.done
	}
	return nil
}

// Session is one test attempt on one device.
type Session struct {
	p      *Provider
	serial string
	helper *helper

	pending []HelperEvent // helper events since the last DrainEvents; under p.mu

	mu       sync.Mutex
	pkg      string // the app opened
	viewport drivers.Rect
	closed   bool
	released bool // the device lease was given back
}

// Serial returns the device serial of the session.
func (s *Session) Serial() string { return s.serial }

// Platform implements drivers.Driver.
func (s *Session) Platform() string { return drivers.PlatformAndroid }

// wrap marks failures of a device that went away as infrastructure.
func (s *Session) wrap(err error) error {
	if err == nil || errors.Is(err, drivers.ErrInfrastructure) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	switch adb.ReasonOf(err) {
	case adb.ReasonDeviceNotFound, adb.ReasonServerUnavailable:
		return infra("device %s: %v", s.serial, err)
	}
	if !s.p.isOnline(s.serial) || (adb.ReasonOf(err) == adb.ReasonProtocol && s.p.gone(s.serial)) {
		return infra("device %s disconnected: %v", s.serial, err)
	}
	return err
}

// gone asks the server, for up to a second, whether serial left the
// online state (a broken stream is how an unplugged device shows first).
func (p *Provider) gone(serial string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		list, err := p.client.Devices(ctx)
		if err != nil {
			return true
		}
		online := false
		for _, d := range list {
			online = online || d.Serial == serial && d.State == "device"
		}
		if !online {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-tick.C:
		}
	}
}

// sh runs a shell command and returns its stdout; a non-zero exit is an
// error carrying its output.
func (s *Session) sh(ctx context.Context, cmd string) (string, error) {
	s.p.debugf("android %s: shell %s", s.serial, cmd)
	res, err := s.p.client.Shell(ctx, s.serial, cmd)
	if err != nil {
		return "", s.wrap(err)
	}
	if res.ExitCode > 0 {
		msg := strings.TrimSpace(string(res.Stderr) + " " + string(res.Stdout))
		return string(res.Stdout), fmt.Errorf("`%s` exited %d: %s", cmd, res.ExitCode, msg)
	}
	return string(res.Stdout), nil
}

// Shell runs a command on the session's device (for tests and tools).
func (s *Session) Shell(ctx context.Context, cmd string) (string, error) { return s.sh(ctx, cmd) }

// packageShaped reports names like com.example.app.
func packageShaped(s string) bool {
	if !strings.Contains(s, ".") || strings.Contains(s, "/") || strings.Contains(s, ":") {
		return false
	}
	for _, r := range s {
		if !(r == '.' || r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// resolvePackage maps an app name to an installed package (substring match).
func (s *Session) resolvePackage(ctx context.Context, app string) (string, error) {
	if packageShaped(app) {
		return app, nil
	}
	out, err := s.sh(ctx, "pm list packages")
	if err != nil {
		return "", err
	}
	var hits []string
	for _, line := range strings.Split(out, "\n") {
		p := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "package:"))
		if p != "" && strings.Contains(strings.ToLower(p), strings.ToLower(app)) {
			hits = append(hits, p)
		}
	}
	switch len(hits) {
	case 0:
		return "", fmt.Errorf("APP_NOT_INSTALLED: no installed package matches %q (give the package name, e.g. com.example.app)", app)
	case 1:
		return hits[0], nil
	}
	return "", fmt.Errorf("Multiple packages matched %q: %s (give the full package name)", app, strings.Join(hits, ", "))
}

func isURL(s string) bool { return strings.Contains(s, "://") }

// Open implements drivers.Driver: an app by package (launcher activity),
// a deep link in an app, or a URL.
func (s *Session) Open(ctx context.Context, req drivers.OpenRequest) error {
	target, link := req.Target, req.URL
	if isURL(target) && link == "" {
		target, link = "", target
	}
	pkg := ""
	if target != "" {
		var err error
		if pkg, err = s.resolvePackage(ctx, target); err != nil {
			return err
		}
	}
	if req.Relaunch && pkg != "" {
		if _, err := s.sh(ctx, "am force-stop "+pkg); err != nil {
			return err
		}
	}
	if link != "" {
		if err := s.reverseLocal(ctx, link); err != nil {
			return err
		}
		cmd := "am start -W -a android.intent.action.VIEW -d " + adb.Quote(link)
		if pkg != "" {
			cmd += " -p " + pkg
		}
		out, err := s.sh(ctx, cmd)
		if err != nil || strings.Contains(out, "Error:") {
			return fmt.Errorf("open %s: %s", link, strings.TrimSpace(out+" "+errString(err)))
		}
	} else {
		base := "am start -W -a android.intent.action.MAIN -c android.intent.category.DEFAULT -c android.intent.category.LAUNCHER"
		out, err := s.sh(ctx, base+" -p "+pkg)
		if err != nil || strings.Contains(out, "Error:") {
			if serr := s.wrap(err); errors.Is(serr, drivers.ErrInfrastructure) {
				return serr
			}
			// Resolve the launcher activity and start it by component.
			res, rerr := s.sh(ctx, "cmd package resolve-activity --brief -a android.intent.action.MAIN -c android.intent.category.LAUNCHER "+pkg)
			comp := ""
			for _, line := range strings.Split(res, "\n") {
				if strings.Contains(line, "/") {
					comp = strings.Fields(line)[0]
				}
			}
			if rerr != nil || comp == "" {
				return fmt.Errorf("APP_NOT_INSTALLED: cannot launch %s: %s", pkg, strings.TrimSpace(out))
			}
			if out, err := s.sh(ctx, base+" -n "+comp); err != nil || strings.Contains(out, "Error:") {
				return fmt.Errorf("open %s: %s", comp, strings.TrimSpace(out+" "+errString(err)))
			}
		}
	}
	s.mu.Lock()
	if pkg != "" {
		s.pkg = pkg
	}
	s.closed = false
	s.mu.Unlock()
	s.settle(ctx)
	return nil
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// reverseLocal makes a localhost URL with a port reachable from the device.
func (s *Session) reverseLocal(ctx context.Context, link string) error {
	u, err := url.Parse(link)
	if err != nil || u.Port() == "" {
		return nil
	}
	switch u.Hostname() {
	case "localhost", "127.0.0.1", "::1":
		spec := "tcp:" + u.Port()
		return s.wrap(s.p.client.Reverse(ctx, s.serial, spec, spec))
	}
	return nil
}

// Close implements drivers.Driver: the app is force-stopped; the helper
// session stays warm for the next attempt.
func (s *Session) Close(ctx context.Context) error {
	s.mu.Lock()
	pkg, closed := s.pkg, s.closed
	released := s.released
	s.released = true
	s.closed = true
	s.mu.Unlock()
	s.p.mu.Lock()
	delete(s.p.sessions, s)
	lease := s.p.lease(s.serial)
	s.p.mu.Unlock()
	if !released {
		defer func() { <-lease }() // the device is free for the next session
	}
	if closed || pkg == "" || !s.p.isOnline(s.serial) {
		return nil
	}
	_, err := s.sh(ctx, "am force-stop "+pkg)
	return err
}

// DrainEvents returns the helper events of this session's device since the
// last call, as timing.ndjson records ("event": "helper").
func (s *Session) DrainEvents() []map[string]any {
	s.p.mu.Lock()
	evs := s.pending
	s.pending = nil
	s.p.mu.Unlock()
	out := make([]map[string]any, 0, len(evs))
	for _, e := range evs {
		m := map[string]any{"event": "helper", "ts": e.Time, "device": e.Device, "command": e.Command, "helper": e.Event}
		if e.Reason != "" {
			m["reason"] = e.Reason
		}
		out = append(out, m)
	}
	return out
}

// Snapshot implements drivers.Driver.
func (s *Session) Snapshot(ctx context.Context, opts drivers.SnapshotOptions) (*drivers.Snapshot, error) {
	xml, err := s.captureXML(ctx, "snapshot")
	if err != nil {
		return nil, err
	}
	roots, err := parseHierarchy(xml)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", drivers.ErrInfrastructure, err)
	}
	vp := drivers.Rect{}
	if len(roots) > 0 {
		b := roots[0].get("window-bounds")
		if b == "" {
			b = roots[0].get("bounds")
		}
		vp, _ = parseBounds(b)
	}
	snap := toSnapshot(roots, vp)
	snap.Title = snap.URL
	s.mu.Lock()
	s.viewport = vp
	s.mu.Unlock()
	return snap, nil
}

// captureXML returns the hierarchy XML through the helper (or dump).
func (s *Session) captureXML(ctx context.Context, cmd string) (string, error) {
	if s.p.opts.Snapshot == SnapshotDump {
		s.p.record(HelperEvent{Time: time.Now(), Device: s.serial, Command: cmd, Event: "dump"})
		out, err := s.p.client.Exec(ctx, s.serial, "uiautomator dump /dev/tty", nil)
		if err != nil {
			return "", s.wrap(err)
		}
		str := string(out)
		if i := strings.LastIndex(str, "</hierarchy>"); i >= 0 {
			str = str[:i+len("</hierarchy>")]
		} else {
			return "", fmt.Errorf("uiautomator dump: %s", strings.TrimSpace(str))
		}
		if i := strings.Index(str, "<?xml"); i > 0 {
			str = str[i:]
		}
		return str, nil
	}
	xml, err := s.helper.snapshotXML(ctx)
	return xml, s.wrap(err)
}

// settle waits, bounded, until two captures in a row are the same: the
// action's effects are then observable (the settle contract).
func (s *Session) settle(ctx context.Context) {
	if s.p.opts.Snapshot == SnapshotDump {
		return // each dump idles for a second already
	}
	ctx, cancel := context.WithTimeout(ctx, s.p.opts.SettleTimeout)
	defer cancel()
	prev := ""
	for i := 0; i < 8 && ctx.Err() == nil; i++ {
		xml, err := s.helper.snapshotXML(ctx)
		if err != nil {
			return
		}
		if xml == prev {
			return
		}
		prev = xml
	}
}

func (s *Session) currentViewport(ctx context.Context) drivers.Rect {
	s.mu.Lock()
	vp := s.viewport
	s.mu.Unlock()
	if !vp.Empty() {
		return vp
	}
	if snap, err := s.Snapshot(ctx, drivers.SnapshotOptions{}); err == nil {
		return snap.Viewport
	}
	return drivers.Rect{Width: 1080, Height: 2400}
}

// Preflight implements drivers.Preflighter.
func (s *Session) Preflight(ctx context.Context, a drivers.Action) error {
	if a.Target == nil || a.Target.Node == nil {
		return nil
	}
	n := a.Target.Node
	switch {
	case !n.Visible:
		return &drivers.TargetError{Reason: "target_not_visible", Message: fmt.Sprintf("Target %s is not on screen", a.Target.Describe), Hint: "Scroll it into view first (scroll --until)."}
	case !n.Enabled:
		return &drivers.TargetError{Reason: "target_disabled", Message: fmt.Sprintf("Target %s is disabled", a.Target.Describe), Hint: "Wait until it is enabled."}
	case a.Kind == drivers.ActFill && !n.Editable:
		return &drivers.TargetError{Reason: "target_not_editable", Message: fmt.Sprintf("Target %s is not a text field", a.Target.Describe), Hint: "Fill an EditText."}
	}
	return nil
}

func point(a drivers.Action) (drivers.Point, error) {
	if a.Target == nil {
		return drivers.Point{}, fmt.Errorf("%s needs a target", a.Kind)
	}
	if a.Target.Node != nil && a.Target.Point == (drivers.Point{}) {
		return a.Target.Node.Rect.Center(), nil
	}
	return a.Target.Point, nil
}

func px(f float64) string { return strconv.Itoa(int(f + 0.5)) }

// Act implements drivers.Driver. When it returns, the action's effects are
// observable (it settles).
func (s *Session) Act(ctx context.Context, a drivers.Action) error {
	if err := s.act(ctx, a); err != nil {
		return err
	}
	s.settle(ctx)
	return nil
}

func (s *Session) act(ctx context.Context, a drivers.Action) error {
	switch a.Kind {
	case drivers.ActTap, drivers.ActFocus:
		p, err := point(a)
		if err != nil {
			return err
		}
		if a.HoldMs > 0 {
			return s.longPress(ctx, p, time.Duration(a.HoldMs)*time.Millisecond)
		}
		n := max(a.Count, 1)
		if a.DoubleTap {
			n *= 2
		}
		tap := "input tap " + px(p.X) + " " + px(p.Y)
		for i := 0; i < n; i++ {
			if i > 0 && a.IntervalMs > 0 {
				if err := sleepCtx(ctx, time.Duration(a.IntervalMs)*time.Millisecond); err != nil {
					return err
				}
			}
			if _, err := s.sh(ctx, tap); err != nil {
				return err
			}
		}
		return nil
	case drivers.ActLongPress:
		p, err := point(a)
		if err != nil {
			return err
		}
		d := a.Duration
		if d <= 0 {
			d = 800 * time.Millisecond
		}
		return s.longPress(ctx, p, d)
	case drivers.ActFill:
		return s.fill(ctx, a)
	case drivers.ActType:
		return s.typeText(ctx, a.Text)
	case drivers.ActScroll:
		return s.scroll(ctx, a)
	case drivers.ActSwipe:
		return s.drag(ctx, a.From, a.To, 250*time.Millisecond)
	case drivers.ActPan:
		d := a.Duration
		if d <= 0 {
			d = 500 * time.Millisecond
		}
		return s.drag(ctx, a.From, a.To, d)
	case drivers.ActBack:
		_, err := s.sh(ctx, "input keyevent 4")
		return err
	case drivers.ActHome:
		_, err := s.sh(ctx, "input keyevent 3")
		return err
	case drivers.ActKey:
		return s.key(ctx, a.Key)
	}
	return drivers.Unsupported(string(a.Kind), drivers.PlatformAndroid)
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *Session) key(ctx context.Context, k string) error {
	code := map[string]string{"enter": "66", "return": "66", "tab": "61", "app-switcher": "187", "escape": "111", "back": "4", "home": "3", "delete": "67"}[strings.ToLower(k)]
	if strings.ToLower(k) == "dismiss" {
		return s.KeyboardDismiss(ctx)
	}
	if code == "" {
		code = "KEYCODE_" + strings.ToUpper(k)
	}
	_, err := s.sh(ctx, "input keyevent "+code)
	return err
}

// KeyboardState is what `dumpsys input_method` says about the keyboard.
type KeyboardState struct {
	Visible   bool
	InputType string // text, number, phone, datetime, email, password
}

// KeyboardStatus reads the keyboard state from dumpsys input_method (the
// last match of each key wins).
func (s *Session) KeyboardStatus(ctx context.Context) (KeyboardState, error) {
	out, err := s.sh(ctx, "dumpsys input_method")
	if err != nil {
		return KeyboardState{}, err
	}
	return parseInputMethod(out), nil
}

func parseInputMethod(out string) KeyboardState {
	last := map[string]string{}
	for _, f := range strings.Fields(out) {
		if k, v, ok := strings.Cut(f, "="); ok {
			last[k] = v
		}
	}
	st := KeyboardState{InputType: "text"}
	switch {
	case last["mWindowVisible"] != "" || last["mDecorViewVisible"] != "" || last["mInShowWindow"] != "":
		st.Visible = last["mWindowVisible"] == "true" || last["mDecorViewVisible"] == "true" || last["mInShowWindow"] == "true"
	case last["mInputShown"] != "":
		st.Visible = last["mInputShown"] == "true"
	case last["mIsInputViewShown"] != "":
		st.Visible = last["mIsInputViewShown"] == "true"
	}
	if t, err := strconv.ParseUint(strings.TrimPrefix(last["inputType"], "0x"), 16, 32); err == nil {
		switch t & 0xf {
		case 2:
			st.InputType = "number"
		case 3:
			st.InputType = "phone"
		case 4:
			st.InputType = "datetime"
		}
		switch t & 0xff0 {
		case 0x20, 0xd0:
			st.InputType = "email"
		case 0x80, 0xe0, 0x90:
			st.InputType = "password"
		}
	}
	return st
}

// KeyboardDismiss hides the keyboard with ESCAPE (up to two tries).
func (s *Session) KeyboardDismiss(ctx context.Context) error {
	for i := 0; i < 2; i++ {
		st, err := s.KeyboardStatus(ctx)
		if err != nil {
			return err
		}
		if !st.Visible {
			return nil
		}
		if _, err := s.sh(ctx, "input keyevent 111"); err != nil {
			return err
		}
	}
	if st, err := s.KeyboardStatus(ctx); err == nil && st.Visible {
		return fmt.Errorf("UNSUPPORTED_OPERATION: the keyboard is still visible after ESCAPE")
	}
	return nil
}

// typeText types ASCII text with `input text` in chunks of 8 (spaces as %s,
// newlines as ENTER).
func (s *Session) typeText(ctx context.Context, text string) error {
	for _, r := range text {
		if (r < 0x20 || r > 0x7e) && r != '\n' {
			return fmt.Errorf("`input text` types ASCII only; %q is not (a test IME is needed for other text)", r)
		}
	}
	for i, line := range strings.Split(text, "\n") {
		if i > 0 {
			if _, err := s.sh(ctx, "input keyevent 66"); err != nil {
				return err
			}
		}
		for len(line) > 0 {
			n := min(8, len(line))
			chunk := strings.ReplaceAll(line[:n], " ", "%s")
			line = line[n:]
			if _, err := s.sh(ctx, "input text "+adb.Quote(chunk)); err != nil {
				return err
			}
		}
	}
	return nil
}

// fill taps the field, clears it, types, and checks what it holds.
func (s *Session) fill(ctx context.Context, a drivers.Action) error {
	p, err := point(a)
	if err != nil {
		return err
	}
	current := 0
	if a.Target.Node != nil {
		current = len([]rune(a.Target.Node.Value))
	}
	for attempt := 0; attempt < 2; attempt++ {
		if _, err := s.sh(ctx, "input tap "+px(p.X)+" "+px(p.Y)); err != nil {
			return err
		}
		dels := min(max(current+12, 8), 48)
		if attempt > 0 {
			dels = min(max(current+24, 16), 96)
		}
		if _, err := s.sh(ctx, "input keyevent 123"); err != nil {
			return err
		}
		for dels > 0 {
			n := min(dels, 24)
			dels -= n
			if _, err := s.sh(ctx, "input keyevent"+strings.Repeat(" 67", n)); err != nil {
				return err
			}
		}
		if err := s.typeText(ctx, a.Text); err != nil {
			return err
		}
		got, err := s.fieldValue(ctx, p)
		if err != nil {
			return err
		}
		if fillMatches(got, a.Text) {
			return nil
		}
		current = len([]rune(got))
		if attempt == 1 {
			return fmt.Errorf("fill: the field holds %q, not %q", got, a.Text)
		}
	}
	return nil
}

func fillMatches(got, want string) bool {
	if got == want || strings.Join(strings.Fields(got), " ") == strings.Join(strings.Fields(want), " ") {
		return true
	}
	// Masked password fields: only the length can be checked.
	if r := []rune(got); len(r) == len([]rune(want)) && len(r) > 0 && strings.Trim(got, "•*") == "" {
		return true
	}
	return len(got) > 0 && strings.ToUpper(want[:1])+want[1:] == got
}

// fieldValue reads the focused text field, else the smallest one at p.
func (s *Session) fieldValue(ctx context.Context, p drivers.Point) (string, error) {
	snap, err := s.Snapshot(ctx, drivers.SnapshotOptions{})
	if err != nil {
		return "", err
	}
	best := -1
	for i, n := range snap.Nodes {
		if !editableClass(n.Role) && !n.Editable {
			continue
		}
		if n.Focused {
			return n.Value, nil
		}
		r := n.Rect
		if p.X >= r.X && p.X < r.X+r.Width && p.Y >= r.Y && p.Y < r.Y+r.Height {
			if best < 0 || r.Width*r.Height < snap.Nodes[best].Rect.Width*snap.Nodes[best].Rect.Height {
				best = i
			}
		}
	}
	if best < 0 {
		return "", fmt.Errorf("fill: no text field at %s %s", px(p.X), px(p.Y))
	}
	return snap.Nodes[best].Value, nil
}

// touchPlan is agent-device's android-touch-plan-v1 payload.
type touchPlan struct {
	Protocol   string         `json:"protocol"`
	Kind       string         `json:"kind"`
	DurationMs int            `json:"durationMs"`
	Pointers   []touchPointer `json:"pointers"`
}

type touchPointer struct {
	PointerID int           `json:"pointerId"`
	Samples   []touchSample `json:"samples"`
}

type touchSample struct {
	OffsetMs int     `json:"offsetMs"`
	X        float64 `json:"x"`
	Y        float64 `json:"y"`
}

// linePlan is a one-pointer plan from a to b over d, a sample per 16 ms.
func linePlan(a, b drivers.Point, d time.Duration) string {
	ms := max(int(d/time.Millisecond), 1)
	steps := min(max(ms/16, 1), 60)
	ptr := touchPointer{}
	for i := 0; i <= steps; i++ {
		f := float64(i) / float64(steps)
		off := ms * i / steps
		if i > 0 && off <= ptr.Samples[len(ptr.Samples)-1].OffsetMs {
			continue
		}
		ptr.Samples = append(ptr.Samples, touchSample{OffsetMs: off, X: a.X + (b.X-a.X)*f, Y: a.Y + (b.Y-a.Y)*f})
	}
	plan := touchPlan{Protocol: "android-touch-plan-v1", Kind: "swipe", DurationMs: ms, Pointers: []touchPointer{ptr}}
	raw, _ := json.Marshal(plan)
	return base64.StdEncoding.EncodeToString(raw)
}

func (s *Session) longPress(ctx context.Context, p drivers.Point, d time.Duration) error {
	return s.drag(ctx, p, p, d)
}

// drag runs a one-pointer touch plan through the helper (never retried
// once a session took it), or `input swipe` in dump mode.
func (s *Session) drag(ctx context.Context, a, b drivers.Point, d time.Duration) error {
	if s.p.opts.Snapshot == SnapshotDump {
		_, err := s.sh(ctx, fmt.Sprintf("input swipe %s %s %s %s %d", px(a.X), px(a.Y), px(b.X), px(b.Y), d.Milliseconds()))
		return err
	}
	return s.wrap(s.helper.gesture(ctx, linePlan(a, b, d)))
}

// scroll pans the content by a viewport fraction, or to an edge.
func (s *Session) scroll(ctx context.Context, a drivers.Action) error {
	var vp drivers.Rect
	if s.p.opts.Snapshot == SnapshotDump {
		vp = s.currentViewport(ctx)
	} else {
		var err error
		if vp, err = s.helper.viewport(ctx); err != nil {
			return s.wrap(err)
		}
	}
	amount := a.Amount
	if amount <= 0 {
		amount = 0.5
	}
	repeat := 1
	dir := a.Direction
	switch dir {
	case "top":
		dir, amount, repeat = "up", 0.7, 6
	case "bottom":
		dir, amount, repeat = "down", 0.7, 6
	}
	cx, cy := vp.X+vp.Width/2, vp.Y+vp.Height/2
	dx, dy := 0.0, 0.0
	switch dir {
	case "down":
		dy = -amount * vp.Height
	case "up":
		dy = amount * vp.Height
	case "right":
		dx = -amount * vp.Width
	case "left":
		dx = amount * vp.Width
	default:
		return fmt.Errorf("scroll direction must be up, down, left, right, top or bottom, got %q", a.Direction)
	}
	from := drivers.Point{X: cx - dx/2, Y: cy - dy/2}
	to := drivers.Point{X: cx + dx/2, Y: cy + dy/2}
	for i := 0; i < repeat; i++ {
		if err := s.drag(ctx, from, to, 300*time.Millisecond); err != nil {
			return err
		}
	}
	return nil
}

// Screenshot implements drivers.Driver: exec-out screencap -p.
func (s *Session) Screenshot(ctx context.Context, opts drivers.ScreenshotOptions) ([]byte, error) {
	out, err := s.p.client.Exec(ctx, s.serial, "screencap -p", nil)
	if err != nil {
		return nil, s.wrap(err)
	}
	if len(out) < 8 || string(out[1:4]) != "PNG" {
		return nil, fmt.Errorf("screencap: not a PNG (%d bytes)", len(out))
	}
	return out, nil
}

var (
	alertPackages = map[string]bool{"android": true, "com.android.systemui": true, "com.android.permissioncontroller": true,
		"com.google.android.permissioncontroller": true, "com.android.packageinstaller": true, "com.google.android.packageinstaller": true}
	acceptLabels  = map[string]bool{"ok": true, "allow": true, "allow all": true, "while using the app": true, "only this time": true, "yes": true, "continue": true, "save": true, "confirm": true, "turn on": true, "open settings": true}
	dismissLabels = map[string]bool{"cancel": true, "deny": true, "don't allow": true, "not now": true, "no": true, "dismiss": true, "close": true, "close app": true, "later": true, "skip": true}
)

// alert finds a system dialog: its message and its accept/dismiss buttons.
func (s *Session) alert(ctx context.Context) (msg string, accept, dismiss *drivers.Node, open bool, err error) {
	xml, err := s.captureXML(ctx, "snapshot")
	if err != nil {
		return "", nil, nil, false, err
	}
	roots, err := parseHierarchy(xml)
	if err != nil {
		return "", nil, nil, false, err
	}
	for _, r := range roots {
		if !alertPackages[r.get("package")] {
			continue
		}
		snap := toSnapshot([]*xnode{r}, drivers.Rect{})
		var buttons []*drivers.Node
		for i := range snap.Nodes {
			n := &snap.Nodes[i]
			id := n.ID
			switch {
			case strings.HasSuffix(id, ":id/message") || strings.HasSuffix(id, ":id/alertTitle") || strings.Contains(id, ":id/permission_message"):
				if msg == "" || strings.HasSuffix(id, ":id/message") {
					msg = n.Label
				}
			case strings.Contains(id, ":id/button") || strings.Contains(id, ":id/permission_") && n.Role == "button" || n.Role == "button":
				buttons = append(buttons, n)
			}
		}
		for _, b := range buttons {
			l := strings.ToLower(b.Label)
			switch {
			case strings.HasSuffix(b.ID, ":id/button1") || acceptLabels[l]:
				accept = b
			case strings.HasSuffix(b.ID, ":id/button2") || dismissLabels[l]:
				dismiss = b
			}
		}
		if len(buttons) == 1 && accept == nil {
			accept = buttons[0]
		}
		if msg != "" || len(buttons) > 0 {
			return msg, accept, dismiss, true, nil
		}
	}
	return "", nil, nil, false, nil
}

// AlertText implements drivers.AlertHandler for system dialogs.
func (s *Session) AlertText(ctx context.Context) (string, bool, error) {
	msg, _, _, open, err := s.alert(ctx)
	return msg, open, err
}

// AlertRespond implements drivers.AlertHandler: taps the accept or dismiss button.
func (s *Session) AlertRespond(ctx context.Context, accept bool) error {
	_, yes, no, open, err := s.alert(ctx)
	if err != nil || !open {
		return err
	}
	b := no
	if accept {
		b = yes
	}
	if b == nil {
		return fmt.Errorf("the dialog has no %s button", map[bool]string{true: "accept", false: "dismiss"}[accept])
	}
	c := b.Rect.Center()
	if _, err := s.sh(ctx, "input tap "+px(c.X)+" "+px(c.Y)); err != nil {
		return err
	}
	s.settle(ctx)
	return nil
}

// Attrs implements drivers.AttrReader.
func (s *Session) Attrs(ctx context.Context, n *drivers.Node) (map[string]string, error) {
	m := map[string]string{"role": n.Role, "enabled": strconv.FormatBool(n.Enabled), "focused": strconv.FormatBool(n.Focused),
		"bounds": fmt.Sprintf("[%s,%s][%s,%s]", px(n.Rect.X), px(n.Rect.Y), px(n.Rect.X+n.Rect.Width), px(n.Rect.Y+n.Rect.Height))}
	for k, v := range map[string]string{"label": n.Label, "resource-id": n.ID, "text": n.Text, "value": n.Value} {
		if v != "" {
			m[k] = v
		}
	}
	if class, _, ok := strings.Cut(n.Handle, "@"); ok {
		m["class"] = class
	}
	return m, nil
}

// LogTail implements drivers.LogTailer: the last n lines of logcat.
func (s *Session) LogTail(n int) []string {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	out, err := s.sh(ctx, "logcat -d -t "+strconv.Itoa(n))
	if err != nil {
		return []string{"logcat: " + err.Error()}
	}
	return strings.Split(strings.TrimRight(out, "\n"), "\n")
}

// AppState returns the package in front (dumpsys window focus).
func (s *Session) AppState(ctx context.Context) (string, error) {
	out, err := s.sh(ctx, "dumpsys window windows")
	if err != nil {
		return "", err
	}
	for _, marker := range []string{"mCurrentFocus=Window{", "mFocusedApp="} {
		for _, line := range strings.Split(out, "\n") {
			if i := strings.Index(line, marker); i >= 0 {
				for _, f := range strings.Fields(line[i:]) {
					if pkg, _, ok := strings.Cut(strings.TrimSuffix(f, "}"), "/"); ok && packageShaped(pkg) {
						return pkg, nil
					}
				}
			}
		}
	}
	return "", fmt.Errorf("no focused app in dumpsys window")
}

// Setting applies a `settings` command adb can set: animations on|off,
// wifi on|off, airplane on|off.
func (s *Session) Setting(ctx context.Context, name, value string) error {
	on := value == "on"
	if !on && value != "off" {
		return fmt.Errorf("settings %s takes on or off, got %q", name, value)
	}
	var cmds []string
	switch name {
	case "animations":
		scale := "0"
		if on {
			scale = "1"
		}
		for _, k := range []string{"window_animation_scale", "transition_animation_scale", "animator_duration_scale"} {
			cmds = append(cmds, "settings put global "+k+" "+scale)
		}
	case "wifi":
		cmds = []string{"cmd wifi set-wifi-enabled " + map[bool]string{true: "enabled", false: "disabled"}[on]}
	case "airplane":
		cmds = []string{"cmd connectivity airplane-mode " + map[bool]string{true: "enable", false: "disable"}[on]}
	default:
		return drivers.Unsupported("settings "+name, drivers.PlatformAndroid)
	}
	for _, c := range cmds {
		if _, err := s.sh(ctx, c); err != nil {
			return err
		}
	}
	return nil
}

var _ interface {
	drivers.Driver
	drivers.AlertHandler
	drivers.AttrReader
	drivers.LogTailer
	drivers.Preflighter
} = (*Session)(nil)

var _ drivers.Provider = (*Provider)(nil)
