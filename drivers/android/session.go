package android

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/drivers/android/adb"
)

// Session is one test attempt on one device.
type Session struct {
	p      *Provider
	serial string
	helper *helper

	pending []HelperEvent // helper events since the last DrainEvents; under p.mu

	mu       sync.Mutex
	pkg      string // the app opened
	viewport drivers.Rect
	appOpen  bool   // the app opened last has not been closed
	released bool   // the device lease was given back
	logMark  string // the last logcat line when the session began
	// traceMark is the last logcat line a trace read; tracing is set by
	// StartEvents.
	traceMark string
	tracing   bool
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
	if err := s.live(); err != nil {
		return err
	}
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
	s.appOpen = true
	s.mu.Unlock()
	s.settle(ctx, "")
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
	pkg, appOpen, released := s.pkg, s.appOpen, s.released
	s.released, s.appOpen = true, false
	s.mu.Unlock()
	if released {
		return nil
	}
	s.p.mu.Lock()
	delete(s.p.sessions, s)
	lease := s.p.lease(s.serial)
	s.p.mu.Unlock()
	defer func() { <-lease }() // the device is free for the next session
	if !appOpen || pkg == "" || !s.p.isOnline(s.serial) {
		return nil
	}
	_, err := s.sh(ctx, "am force-stop "+pkg)
	return err
}

// live fails every call on a session that Close released.
func (s *Session) live() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.released {
		return fmt.Errorf("android session on %s: %w", s.serial, drivers.ErrClosed)
	}
	return nil
}

// DrainEvents implements drivers.EventSource: the helper events of this
// session's device since the last call, then (once StartEvents was called)
// the logcat lines written since the last call (logEvents).
func (s *Session) DrainEvents() []drivers.Event {
	s.p.mu.Lock()
	evs := s.pending
	s.pending = nil
	s.p.mu.Unlock()
	logs := s.logEvents()
	if len(evs) == 0 && logs == nil {
		return nil
	}
	out := make([]drivers.Event, 0, len(evs)+len(logs))
	for _, e := range evs {
		out = append(out, drivers.Event{Time: e.Time, Source: drivers.FromHelper, Kind: drivers.EventKind(e.Event), Device: e.Device, Command: e.Command, Reason: e.Reason})
	}
	return append(out, logs...)
}

var _ drivers.EventSource = (*Session)(nil)

// Snapshot implements drivers.Driver.
func (s *Session) Snapshot(ctx context.Context, opts drivers.SnapshotOptions) (*drivers.Snapshot, error) {
	if err := s.live(); err != nil {
		return nil, err
	}
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

// settle waits, bounded by SettleTimeout, until the action's effects are
// observable (the settle contract): the screen changed from before (the
// capture taken before the action; "" when there is none) and two captures
// in a row agree, or nothing changed within a quiet window.
func (s *Session) settle(ctx context.Context, before string) {
	if s.p.opts.Snapshot == SnapshotDump {
		return // each dump idles for a second already
	}
	ctx, cancel := context.WithTimeout(ctx, s.p.opts.SettleTimeout)
	defer cancel()
	// quiet matches the helper's own waitForIdleQuietMs.
	const quiet, every = 100 * time.Millisecond, 20 * time.Millisecond
	start := time.Now()
	changed := before == ""
	prev := ""
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		xml, err := s.helper.snapshotXML(ctx)
		if err != nil {
			return
		}
		if !changed && xml != before {
			changed = true
		} else if changed && xml == prev {
			return
		} else if !changed && time.Since(start) >= quiet {
			return // the action changed nothing on screen
		}
		prev = xml
		if changed {
			continue // each capture waits for UI idle on the device itself
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// beforeAction captures the screen an action starts from, for settle.
func (s *Session) beforeAction(ctx context.Context) string {
	if s.p.opts.Snapshot == SnapshotDump {
		return ""
	}
	xml, _ := s.helper.snapshotXML(ctx)
	return xml
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
