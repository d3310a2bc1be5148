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
	"fmt"
	"sort"
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
	// A server this call started and that serves no session is killed
	// again: a failed attempt leaves no adb server behind.
	fail := func(err error) (*Provider, error) {
		kctx, kcancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		_ = c.StopStartedServer(kctx)
		kcancel()
		return nil, err
	}
	list, err := c.Devices(sctx)
	if err != nil {
		return fail(infra("%v", err))
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
		var seen []string
		for _, d := range list {
			seen = append(seen, d.Serial+" "+d.State)
		}
		hint := "start an emulator, plug a device in, or `adb connect HOST:PORT`"
		if len(seen) > 0 {
			hint = "the server lists " + strings.Join(seen, ", ") + "; an unauthorized device needs its USB debugging prompt accepted"
		}
		return fail(infra("%s at the adb server %s (%s)", want, c.Addr(), hint))
	}
	tctx, tcancel := context.WithCancel(context.Background())
	p.cancel = tcancel
	ch, err := c.TrackDevices(tctx)
	if err != nil {
		tcancel()
		return fail(infra("%v", err))
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
	// The last log line, so the failure log is this session's slice of logcat.
	if out, err := s.sh(ctx, "logcat -d -t 1"); err == nil {
		s.logMark = strings.TrimRight(out, "\r\n")
	}
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
