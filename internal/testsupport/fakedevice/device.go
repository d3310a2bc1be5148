package fakedevice

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/adtest/adtest/drivers/fake"
)

// Options configure a Device.
type Options struct {
	// Screens is the app the device runs (drivers/fake screens format). Its
	// open lines map package names (and deep-link URLs) to screens.
	Screens *fake.Screens
	// Features advertised in CNXN; default shell_v2,cmd (so the server
	// speaks shell v2 and sync v1 to it).
	Features []string
	Product  string // default adtest_fake
	Model    string // default AdtestFake
	// HelperVersion is the versionCode an installed helper APK reports
	// (default 21005, agent-device 0.21.5's).
	HelperVersion int
	// HelperInstalled starts the device with the helper already installed.
	HelperInstalled bool
	// UnplugOnTap unplugs the device (Unplug) right after a tap on the
	// element with this id: a cable pulled in the middle of a test.
	UnplugOnTap string
}

// HelperPackage is agent-device's snapshot helper package.
const HelperPackage = "com.callstack.agentdevice.snapshothelper"

// Device is one fake device listening for the adb server.
type Device struct {
	opts Options
	ln   net.Listener

	mu         sync.Mutex
	transports map[*transport]bool
	app        *fake.Device
	foreground string // package in front; "" = launcher
	helper     int    // installed helper versionCode, 0 = none
	installs   int
	apkSHA     string
	files      map[string]file
	logcat     []string
	commands   []string
	counts     map[string]int
	settings   map[string]string
	sessions   map[int]*helperSession // device port -> live helper session
	breakNext  int                    // session requests that answer garbage
	breakGest  int                    // gesture requests that answer garbage
	reverses   map[string]string
	unplugged  bool
	wg         sync.WaitGroup
}

type file struct {
	data  []byte
	mode  uint32
	mtime uint32
}

// Start listens on 127.0.0.1:0 and serves until Close.
func Start(opts Options) (*Device, error) {
	if opts.Screens == nil {
		return nil, fmt.Errorf("fakedevice: no screens")
	}
	if len(opts.Features) == 0 {
		opts.Features = []string{"shell_v2", "cmd"}
	}
	if opts.Product == "" {
		opts.Product = "adtest_fake"
	}
	if opts.Model == "" {
		opts.Model = "AdtestFake"
	}
	if opts.HelperVersion == 0 {
		opts.HelperVersion = 21005
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	d := &Device{opts: opts, ln: ln, transports: map[*transport]bool{}, files: map[string]file{},
		counts: map[string]int{}, settings: map[string]string{}, sessions: map[int]*helperSession{}, reverses: map[string]string{}}
	d.app = fake.New(opts.Screens, fake.Options{})
	if opts.HelperInstalled {
		d.helper = opts.HelperVersion
	}
	d.wg.Add(1)
	go d.accept(ln)
	return d, nil
}

// Addr is HOST:PORT for `adb connect`; it is also the serial adb lists.
func (d *Device) Addr() string { return d.ln.Addr().String() }

func (d *Device) accept(ln net.Listener) {
	defer d.wg.Done()
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		t := &transport{dev: d, conn: c, streams: map[uint32]*stream{}}
		d.mu.Lock()
		if d.unplugged {
			d.mu.Unlock()
			c.Close()
			continue
		}
		d.transports[t] = true
		d.mu.Unlock()
		d.wg.Add(1)
		go func() {
			defer d.wg.Done()
			t.serve()
			d.mu.Lock()
			delete(d.transports, t)
			d.mu.Unlock()
		}()
	}
}

// Unplug drops every transport and refuses new ones, as a pulled cable does.
func (d *Device) Unplug() {
	d.mu.Lock()
	d.unplugged = true
	ts := make([]*transport, 0, len(d.transports))
	for t := range d.transports {
		ts = append(ts, t)
	}
	d.mu.Unlock()
	for _, t := range ts {
		t.conn.Close()
	}
}

// Replug accepts transports again.
func (d *Device) Replug() {
	d.mu.Lock()
	d.unplugged = false
	d.mu.Unlock()
}

// Close stops listening and drops every transport.
func (d *Device) Close() error {
	d.ln.Close()
	d.Unplug()
	d.mu.Lock()
	for _, s := range d.sessions {
		s.stop()
	}
	d.mu.Unlock()
	d.wg.Wait()
	return nil
}

// Count returns how often an event happened: instrument-session,
// instrument-oneshot, session-request, uiautomator-dump, install, tap,
// text, keyevent, swipe, am-start, force-stop, screencap, ...
func (d *Device) Count(event string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.counts[event]
}

// Commands returns every shell and exec command received, in order.
func (d *Device) Commands() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.commands...)
}

// App is the app state (screens, focus, values) behind the device.
func (d *Device) App() *fake.Device { return d.app }

// Foreground returns the package in front ("" for the launcher).
func (d *Device) Foreground() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.foreground
}

// Setting returns a value set with `settings put` or the wifi/airplane commands.
func (d *Device) Setting(key string) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.settings[key]
}

// HelperVersion returns the installed helper's versionCode (0 = none).
func (d *Device) HelperVersion() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.helper
}

// SetHelperVersion installs (or with 0 removes) the helper at version v, as
// an out-of-band reinstall would: its running instrumentation ends.
func (d *Device) SetHelperVersion(v int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.helper = v
	for _, s := range d.sessions {
		s.stop()
	}
}

// KillHelper ends every running helper instrumentation (a process crash).
func (d *Device) KillHelper() {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, s := range d.sessions {
		s.stop()
	}
}

// BreakGesture makes the next n session gesture requests answer a
// malformed reply without injecting anything.
func (d *Device) BreakGesture(n int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.breakGest = n
}

// LiveSessions returns the number of helper sessions running.
func (d *Device) LiveSessions() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	n := 0
	for _, s := range d.sessions {
		if !s.stopped() {
			n++
		}
	}
	return n
}

// BreakSession makes the next n session requests answer a malformed reply.
func (d *Device) BreakSession(n int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.breakNext = n
}

func (d *Device) count(event string) {
	d.counts[event]++
}

// logTime is logcat's threadtime timestamp layout.
const logTime = "01-02 15:04:05.000"

func (d *Device) log(format string, a ...any) {
	line := time.Now().Format(logTime) + "  1000  1000 I adtest-fake: " + fmt.Sprintf(format, a...)
	d.logcat = append(d.logcat, line)
	if len(d.logcat) > 2000 {
		d.logcat = d.logcat[len(d.logcat)-1000:]
	}
}

// handler returns the service handler of an OPEN, or nil to refuse it.
func (d *Device) handler(service string) func(*stream) {
	switch {
	case strings.HasPrefix(service, "shell,v2,") || strings.HasPrefix(service, "shell,v2:"):
		_, cmd, _ := strings.Cut(strings.TrimPrefix(service, "shell,v2,"), ":")
		if strings.HasPrefix(service, "shell,v2:") {
			cmd = strings.TrimPrefix(service, "shell,v2:")
		}
		return func(s *stream) { d.shellV2(s, cmd) }
	case strings.HasPrefix(service, "shell:"):
		cmd := strings.TrimPrefix(service, "shell:")
		return func(s *stream) {
			d.run(s, cmd, s, s, s.Done())
		}
	case strings.HasPrefix(service, "exec:"):
		cmd := strings.TrimPrefix(service, "exec:")
		return func(s *stream) { d.run(s, cmd, s, s, s.Done()) }
	case service == "sync:":
		return d.syncService
	case strings.HasPrefix(service, "tcp:"):
		port, err := strconv.Atoi(strings.TrimPrefix(service, "tcp:"))
		if err != nil {
			return nil
		}
		d.mu.Lock()
		sess := d.sessions[port]
		d.mu.Unlock()
		if sess == nil || sess.stopped() {
			return nil // connection refused on the device
		}
		return func(s *stream) { d.sessionRequest(sess, s) }
	case strings.HasPrefix(service, "reverse:"):
		return func(s *stream) { d.reverse(s, strings.TrimPrefix(service, "reverse:")) }
	}
	return nil
}

// shellV2 runs cmd with the shell protocol: stdin packets in, stdout,
// stderr and exit packets out.
func (d *Device) shellV2(s *stream, cmd string) {
	stdinR, stdinW := io.Pipe()
	go func() {
		defer stdinW.Close()
		var h [5]byte
		for {
			if _, err := io.ReadFull(s, h[:]); err != nil {
				return
			}
			n := binary.LittleEndian.Uint32(h[1:])
			b := make([]byte, n)
			if _, err := io.ReadFull(s, b); err != nil {
				return
			}
			switch h[0] {
			case 0:
				stdinW.Write(b)
			case 4:
				stdinW.Close()
			}
		}
	}()
	var wmu sync.Mutex
	pk := func(id byte) io.Writer {
		return writerFunc(func(b []byte) (int, error) {
			wmu.Lock()
			defer wmu.Unlock()
			hdr := make([]byte, 5+len(b))
			hdr[0] = id
			binary.LittleEndian.PutUint32(hdr[1:], uint32(len(b)))
			copy(hdr[5:], b)
			if _, err := s.Write(hdr); err != nil {
				return 0, err
			}
			return len(b), nil
		})
	}
	code := d.run(stdinR, cmd, pk(1), pk(2), s.Done())
	pk(3).Write([]byte{byte(code)})
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

// syncService serves sync v1: STAT, SEND/DATA/DONE, RECV, LIST, QUIT.
func (d *Device) syncService(s *stream) {
	for {
		var h [8]byte
		if _, err := io.ReadFull(s, h[:]); err != nil {
			return
		}
		id, n := string(h[:4]), binary.LittleEndian.Uint32(h[4:])
		if n > 1<<20 {
			return
		}
		arg := make([]byte, n)
		if _, err := io.ReadFull(s, arg); err != nil {
			return
		}
		path := string(arg)
		d.mu.Lock()
		d.count("sync-" + strings.ToLower(id))
		d.mu.Unlock()
		switch id {
		case "STAT":
			d.mu.Lock()
			f, ok := d.files[path]
			d.mu.Unlock()
			out := make([]byte, 16)
			copy(out, "STAT")
			if ok {
				binary.LittleEndian.PutUint32(out[4:], f.mode)
				binary.LittleEndian.PutUint32(out[8:], uint32(len(f.data)))
				binary.LittleEndian.PutUint32(out[12:], f.mtime)
			}
			s.Write(out)
		case "SEND":
			p, modeS, _ := strings.Cut(path, ",")
			mode, _ := strconv.Atoi(modeS)
			var data bytes.Buffer
			for {
				if _, err := io.ReadFull(s, h[:]); err != nil {
					return
				}
				n := binary.LittleEndian.Uint32(h[4:])
				if string(h[:4]) == "DONE" {
					d.mu.Lock()
					d.files[p] = file{data: data.Bytes(), mode: uint32(mode), mtime: n}
					d.mu.Unlock()
					s.Write([]byte("OKAY\x00\x00\x00\x00"))
					break
				}
				if string(h[:4]) != "DATA" || n > 64<<10 {
					syncFail(s, "bad SEND chunk")
					return
				}
				if _, err := io.CopyN(&data, s, int64(n)); err != nil {
					return
				}
			}
		case "RECV":
			d.mu.Lock()
			f, ok := d.files[path]
			d.mu.Unlock()
			if !ok {
				syncFail(s, "remote object '"+path+"' does not exist")
				continue
			}
			for off := 0; off < len(f.data); off += 64 << 10 {
				chunk := f.data[off:min(off+64<<10, len(f.data))]
				hd := make([]byte, 8, 8+len(chunk))
				copy(hd, "DATA")
				binary.LittleEndian.PutUint32(hd[4:], uint32(len(chunk)))
				s.Write(append(hd, chunk...))
			}
			s.Write([]byte("DONE\x00\x00\x00\x00"))
		case "LIST":
			d.mu.Lock()
			var names []string
			dir := strings.TrimSuffix(path, "/") + "/"
			for p := range d.files {
				if strings.HasPrefix(p, dir) && !strings.Contains(p[len(dir):], "/") {
					names = append(names, p)
				}
			}
			sort.Strings(names)
			var out bytes.Buffer
			for _, p := range names {
				f := d.files[p]
				name := p[len(dir):]
				var e [20]byte
				copy(e[:], "DENT")
				binary.LittleEndian.PutUint32(e[4:], f.mode)
				binary.LittleEndian.PutUint32(e[8:], uint32(len(f.data)))
				binary.LittleEndian.PutUint32(e[12:], f.mtime)
				binary.LittleEndian.PutUint32(e[16:], uint32(len(name)))
				out.Write(e[:])
				out.WriteString(name)
			}
			d.mu.Unlock()
			out.Write(append([]byte("DONE"), make([]byte, 16)...))
			s.Write(out.Bytes())
		case "QUIT":
			return
		default:
			syncFail(s, "unknown sync request "+id)
			return
		}
	}
}

func syncFail(s *stream, msg string) {
	b := make([]byte, 8+len(msg))
	copy(b, "FAIL")
	binary.LittleEndian.PutUint32(b[4:], uint32(len(msg)))
	copy(b[8:], msg)
	s.Write(b)
}

// reverse acknowledges reverse:forward/killforward/list-forward; the rules
// are recorded (the fake app never connects back).
func (d *Device) reverse(s *stream, req string) {
	d.mu.Lock()
	switch {
	case strings.HasPrefix(req, "forward:"):
		spec := strings.TrimPrefix(strings.TrimPrefix(req, "forward:"), "norebind:")
		remote, local, _ := strings.Cut(spec, ";")
		d.reverses[remote] = local
		d.count("reverse")
		d.mu.Unlock()
		s.Write([]byte("OKAYOKAY"))
		return
	case strings.HasPrefix(req, "killforward:"):
		delete(d.reverses, strings.TrimPrefix(req, "killforward:"))
		d.mu.Unlock()
		s.Write([]byte("OKAYOKAY"))
		return
	case req == "list-forward":
		var b strings.Builder
		for r, l := range d.reverses {
			fmt.Fprintf(&b, "%s %s %s\n", "host", r, l)
		}
		d.mu.Unlock()
		s.Write([]byte(fmt.Sprintf("OKAY%04x%s", b.Len(), b.String())))
		return
	}
	d.mu.Unlock()
	msg := "unknown reverse request"
	s.Write([]byte(fmt.Sprintf("FAIL%04x%s", len(msg), msg)))
}

// Reverses returns the reverse rules set on the device (remote -> local).
func (d *Device) Reverses() map[string]string {
	d.mu.Lock()
	defer d.mu.Unlock()
	m := map[string]string{}
	for k, v := range d.reverses {
		m[k] = v
	}
	return m
}

func sha(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }
