package android

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/drivers/android/adb"
	"github.com/adtest/adtest/internal/userdir"
)

// The pinned on-device helper: agent-device's snapshot helper APK from its
// npm package (ADR 0002). scripts/setup.sh and `adtest android setup` put
// it into HelperDir; the APK is never committed.
const (
	HelperNPMPackage  = "agent-device"
	HelperNPMVersion  = "0.21.5"
	HelperPackage     = "com.callstack.agentdevice.snapshothelper"
	HelperRunner      = HelperPackage + "/.SnapshotInstrumentation"
	HelperVersionCode = 21005
	HelperSHA256      = "e77b65f51664e95680379cd1a5c8331926b63cf506261df56151854673787514"
	HelperAPKName     = "agent-device-android-snapshot-helper-" + HelperNPMVersion + ".apk"
	HelperManifest    = "agent-device-android-snapshot-helper-" + HelperNPMVersion + ".manifest.json"
	helperProtocol    = "android-snapshot-helper-v1"
)

// HelperDir is the per-user cache directory of the helper: the adtest cache
// (internal/userdir: $ADTEST_CACHE_DIR, else $XDG_CACHE_HOME/adtest, else
// ~/.cache/adtest), then android-helper/VERSION. getenv may be nil.
func HelperDir(getenv func(string) string) string {
	return filepath.Join(userdir.Dir(getenv, userdir.Cache), "android-helper", HelperNPMVersion)
}

// LoadHelperAPK reads the cached APK and checks its pinned sha256.
func LoadHelperAPK(dir string) ([]byte, error) {
	path := filepath.Join(dir, HelperAPKName)
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: the Android snapshot helper is not set up (%v); run `adtest android setup` (or scripts/setup.sh), or use --android-snapshot=dump on devices where nothing may be installed", drivers.ErrInfrastructure, err)
	}
	if got := sha256hex(b); got != HelperSHA256 {
		return nil, fmt.Errorf("%w: %s has sha256 %s, want %s; run `adtest android setup` again", drivers.ErrInfrastructure, path, got, HelperSHA256)
	}
	return b, nil
}

func sha256hex(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

// HelperEvent says what the helper path did for one command (ADR 0002
// observability): started, reused, invalidated, fallback, oneshot, dump.
type HelperEvent struct {
	Time    time.Time `json:"ts"`
	Device  string    `json:"device"`
	Command string    `json:"command"` // snapshot, viewport, gesture
	Event   string    `json:"event"`
	Reason  string    `json:"reason,omitempty"`
}

// helper manages the persistent helper session of one device: install or
// upgrade, lazy start, reuse, invalidation and the one-shot fallback.
type helper struct {
	client *adb.Client
	serial string
	apk    func() ([]byte, error)
	report func(HelperEvent)

	mu        sync.Mutex
	installed bool // the right version was seen or installed
	sess      *session
	disabled  string // a failed start disables sessions (reason)
	reqID     atomic.Int64
}

// session is one running `am instrument … -e sessionPort P`.
type session struct {
	port    int
	proc    *adb.Process
	version string // helperApiVersion from the ready status
	dead    chan struct{}
	cancel  context.CancelFunc
}

func (s *session) alive() bool {
	select {
	case <-s.dead:
		return false
	default:
		return true
	}
}

func (h *helper) emit(cmd, event, reason string) {
	if h.report != nil {
		h.report(HelperEvent{Time: time.Now(), Device: h.serial, Command: cmd, Event: event, Reason: reason})
	}
}

// ensureInstalled installs or upgrades the helper when the device has an
// older version or none.
func (h *helper) ensureInstalled(ctx context.Context) error {
	if h.installed {
		return nil
	}
	res, err := h.client.Shell(ctx, h.serial, "cmd package list packages --show-versioncode "+HelperPackage)
	if err != nil {
		return err
	}
	have := 0
	for _, line := range strings.Split(string(res.Stdout), "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && f[0] == "package:"+HelperPackage && strings.HasPrefix(f[1], "versionCode:") {
			have, _ = strconv.Atoi(strings.TrimPrefix(f[1], "versionCode:"))
		}
	}
	if have >= HelperVersionCode {
		h.installed = true
		return nil
	}
	apk, err := h.apk()
	if err != nil {
		return err
	}
	err = h.client.Install(ctx, h.serial, apk, "-r", "-t")
	if err != nil && strings.Contains(err.Error(), "INSTALL_FAILED_UPDATE_INCOMPATIBLE") {
		h.client.Shell(ctx, h.serial, "pm uninstall "+HelperPackage)
		err = h.client.Install(ctx, h.serial, apk, "-r", "-t")
	}
	if err != nil {
		return fmt.Errorf("%w: installing the snapshot helper on %s: %v", drivers.ErrInfrastructure, h.serial, err)
	}
	h.installed = true
	h.emit("install", "installed", fmt.Sprintf("had versionCode %d, want %d", have, HelperVersionCode))
	return nil
}

func captureArgs() string {
	return "-e waitForIdleTimeoutMs 500 -e waitForIdleQuietMs 100 -e timeoutMs 8000 -e maxDepth 128 -e maxNodes 5000"
}

// start launches the persistent session: a forward tcp:P -> tcp:P and the
// long-lived instrumentation, ready when it reports sessionReady=true.
func (h *helper) start(ctx context.Context) (*session, error) {
	if err := h.ensureInstalled(ctx); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	spec := "tcp:" + strconv.Itoa(port)
	if _, err := h.client.Forward(ctx, h.serial, spec, spec, false); err != nil {
		return nil, err
	}
	pctx, cancel := context.WithCancel(context.Background())
	proc, err := h.client.Start(pctx, h.serial, "am instrument -w "+captureArgs()+" -e sessionPort "+strconv.Itoa(port)+" "+HelperRunner)
	if err != nil {
		cancel()
		h.client.KillForward(context.Background(), h.serial, spec)
		return nil, err
	}
	s := &session{port: port, proc: proc, dead: make(chan struct{}), cancel: cancel}
	ready := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(proc.Stdout())
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		proto, isReady := false, false
		sent := false
		for sc.Scan() {
			line := sc.Text()
			if v, ok := strings.CutPrefix(line, "INSTRUMENTATION_STATUS: "); ok {
				k, val, _ := strings.Cut(v, "=")
				switch k {
				case "agentDeviceProtocol":
					proto = val == helperProtocol
				case "sessionReady":
					isReady = val == "true"
				case "helperApiVersion":
					s.version = val
				case "Error":
					if !sent {
						ready <- fmt.Errorf("helper instrumentation: %s", val)
						sent = true
					}
				}
			}
			if !sent && proto && isReady {
				ready <- nil
				sent = true
			}
		}
		if !sent {
			ready <- errors.New("helper instrumentation exited before it was ready")
		}
		<-proc.Done()
		close(s.dead)
	}()
	timer := time.NewTimer(10 * time.Second)
	defer timer.Stop()
	select {
	case err = <-ready:
	case <-timer.C:
		err = errors.New("helper session not ready within 10s")
	case <-ctx.Done():
		err = ctx.Err()
	}
	if err != nil {
		h.stopSession(s)
		return nil, err
	}
	return s, nil
}

// stopSession ends a session: quit request, then the process, then the forward.
func (h *helper) stopSession(s *session) {
	if s == nil {
		return
	}
	if s.alive() {
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		h.roundTrip(ctx, s, "quit "+strconv.FormatInt(h.reqID.Add(1), 10))
		cancel()
	}
	s.proc.Kill()
	s.cancel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	h.client.KillForward(ctx, h.serial, "tcp:"+strconv.Itoa(s.port))
}

// invalidate drops the live session for reason (device gone, exit, error).
func (h *helper) invalidate(cmd, reason string) {
	h.mu.Lock()
	s := h.sess
	h.sess = nil
	h.installed = false // a restart checks the installed version again
	h.mu.Unlock()
	if s != nil {
		h.emit(cmd, "invalidated", reason)
		h.stopSession(s)
	}
}

// close ends the session for good.
func (h *helper) close() {
	h.mu.Lock()
	s := h.sess
	h.sess = nil
	h.mu.Unlock()
	h.stopSession(s)
}

// sessionFor returns a live session, starting one lazily.
func (h *helper) sessionFor(ctx context.Context, cmd string) (*session, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.sess != nil && !h.sess.alive() {
		old := h.sess
		h.sess = nil
		h.installed = false
		h.emit(cmd, "invalidated", "helper process exited")
		go h.stopSession(old)
	}
	if h.sess != nil {
		h.emit(cmd, "reused", "")
		return h.sess, nil
	}
	if h.disabled != "" {
		return nil, errors.New(h.disabled)
	}
	s, err := h.start(ctx)
	if err != nil {
		if errors.Is(err, drivers.ErrInfrastructure) || ctx.Err() != nil {
			return nil, err
		}
		h.disabled = "helper session failed to start: " + err.Error()
		h.emit(cmd, "start-failed", err.Error())
		return nil, errors.New(h.disabled)
	}
	h.sess = s
	h.emit(cmd, "started", "")
	return s, nil
}

// reply is a parsed session answer.
type reply struct {
	headers map[string]string
	body    []byte
}

// roundTrip sends one session request over a new TCP connection to the
// forward and reads headers, a blank line and the body until EOF.
func (h *helper) roundTrip(ctx context.Context, s *session, line string) (*reply, error) {
	host, _, _ := net.SplitHostPort(h.client.Addr())
	if host == "" || host == "localhost" {
		host = "127.0.0.1"
	}
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", net.JoinHostPort(host, strconv.Itoa(s.port)))
	if err != nil {
		return nil, err
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	if dl, ok := ctx.Deadline(); ok {
		c.SetDeadline(dl)
	}
	if _, err := io.WriteString(c, line+"\n"); err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(io.LimitReader(c, 64<<20))
	if err != nil {
		return nil, err
	}
	head, body, ok := bytes.Cut(raw, []byte("\n\n"))
	if !ok {
		return nil, fmt.Errorf("malformed session reply (%d bytes, no header block)", len(raw))
	}
	r := &reply{headers: map[string]string{}, body: body}
	for _, l := range strings.Split(string(head), "\n") {
		k, v, ok := strings.Cut(l, "=")
		if !ok {
			return nil, fmt.Errorf("malformed session header %q", l)
		}
		r.headers[k] = v
	}
	return r, nil
}

// request runs one session command; any failure invalidates the session.
func (h *helper) request(ctx context.Context, cmd string, extra string) (*reply, error) {
	s, err := h.sessionFor(ctx, cmd)
	if err != nil {
		return nil, err
	}
	return h.do(ctx, s, cmd, extra)
}

// do sends one request on s; a failure invalidates s.
func (h *helper) do(ctx context.Context, s *session, cmd string, extra string) (*reply, error) {
	id := strconv.FormatInt(h.reqID.Add(1), 10)
	line := cmd + " " + id
	if extra != "" {
		line += " " + extra
	}
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	r, err := h.roundTrip(rctx, s, line)
	if err == nil {
		err = checkReply(r, id, s.version)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		reason := "protocol error: " + err.Error()
		if !s.alive() {
			reason = "helper process exited"
		}
		h.invalidate(cmd, reason)
		return nil, err
	}
	return r, nil
}

func checkReply(r *reply, id, version string) error {
	if got := r.headers["requestId"]; got != id {
		return fmt.Errorf("reply for request %q, want %q", got, id)
	}
	if p := r.headers["agentDeviceProtocol"]; p != "" && p != helperProtocol {
		return fmt.Errorf("protocol %q", p)
	}
	if v := r.headers["helperApiVersion"]; version != "" && v != "" && v != version {
		return fmt.Errorf("helper version changed from %s to %s", version, v)
	}
	if r.headers["ok"] != "true" {
		return fmt.Errorf("helper error %s: %s", r.headers["errorType"], r.headers["message"])
	}
	if bl, ok := r.headers["byteLength"]; ok {
		if n, err := strconv.Atoi(bl); err != nil || n != len(r.body) {
			return fmt.Errorf("byteLength %s but %d bytes", bl, len(r.body))
		}
	}
	return nil
}

// oneShot runs the helper once (`am instrument -w … [-e mode M]`) and
// returns its result fields and the joined payload chunks.
func (h *helper) oneShot(ctx context.Context, mode string, extras map[string]string) (map[string]string, []byte, error) {
	if err := func() error {
		h.mu.Lock()
		defer h.mu.Unlock()
		return h.ensureInstalled(ctx)
	}(); err != nil {
		return nil, nil, err
	}
	cmd := "am instrument -w " + captureArgs()
	if mode != "" {
		cmd += " -e mode " + mode
	}
	keys := make([]string, 0, len(extras))
	for k := range extras {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		cmd += " -e " + k + " " + adb.Quote(extras[k])
	}
	res, err := h.client.Shell(ctx, h.serial, cmd+" "+HelperRunner)
	if err != nil {
		return nil, nil, err
	}
	result, payload, err := parseInstrumentation(string(res.Stdout))
	if err != nil {
		return nil, nil, fmt.Errorf("%w: snapshot helper one-shot on %s: %v", drivers.ErrInfrastructure, h.serial, err)
	}
	return result, payload, nil
}

// parseInstrumentation reads `am instrument -w` text output: status records
// (INSTRUMENTATION_STATUS: k=v … INSTRUMENTATION_STATUS_CODE: n) carrying
// base64 chunks, then the result record.
func parseInstrumentation(out string) (map[string]string, []byte, error) {
	cur := map[string]string{}
	result := map[string]string{}
	var chunks []string
	count := -1
	haveResult := false
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimRight(line, "\r")
		switch {
		case strings.HasPrefix(line, "INSTRUMENTATION_STATUS: "):
			k, v, _ := strings.Cut(strings.TrimPrefix(line, "INSTRUMENTATION_STATUS: "), "=")
			cur[k] = v
		case strings.HasPrefix(line, "INSTRUMENTATION_STATUS_CODE: "):
			if e, ok := cur["Error"]; ok {
				return nil, nil, errors.New(e)
			}
			if p, ok := cur["payloadBase64"]; ok {
				i, err1 := strconv.Atoi(cur["chunkIndex"])
				n, err2 := strconv.Atoi(cur["chunkCount"])
				if err1 != nil || err2 != nil || n <= 0 || i < 0 || i >= n || (count >= 0 && n != count) {
					return nil, nil, fmt.Errorf("bad chunk %q of %q", cur["chunkIndex"], cur["chunkCount"])
				}
				if count < 0 {
					count = n
					chunks = make([]string, n)
				}
				if chunks[i] != "" {
					return nil, nil, fmt.Errorf("duplicate chunk %d", i)
				}
				chunks[i] = p
			}
			cur = map[string]string{}
		case strings.HasPrefix(line, "INSTRUMENTATION_RESULT: "):
			k, v, _ := strings.Cut(strings.TrimPrefix(line, "INSTRUMENTATION_RESULT: "), "=")
			result[k] = v
		case strings.HasPrefix(line, "INSTRUMENTATION_CODE: "):
			haveResult = true
		}
	}
	if !haveResult {
		return nil, nil, errors.New("instrumentation output without a result")
	}
	if result["ok"] != "true" {
		return nil, nil, fmt.Errorf("helper failed: %s %s", result["errorType"], result["message"])
	}
	var payload []byte
	for i, c := range chunks {
		if c == "" {
			return nil, nil, fmt.Errorf("missing chunk %d of %d", i, count)
		}
		b, err := base64.StdEncoding.DecodeString(c)
		if err != nil {
			return nil, nil, fmt.Errorf("chunk %d: %v", i, err)
		}
		payload = append(payload, b...)
	}
	return result, payload, nil
}

// snapshotXML captures through the session; when the session fails, it
// stops it and falls back to one-shot for this command (a read).
func (h *helper) snapshotXML(ctx context.Context) (string, error) {
	r, err := h.request(ctx, "snapshot", "")
	if err == nil {
		return string(r.body), nil
	}
	if ctx.Err() != nil || errors.Is(err, drivers.ErrInfrastructure) {
		return "", err
	}
	h.emit("snapshot", "fallback", err.Error())
	_, payload, oerr := h.oneShot(ctx, "", nil)
	if oerr != nil {
		return "", oerr
	}
	return string(payload), nil
}

// viewport reads the screen size (idempotent: one-shot fallback allowed).
func (h *helper) viewport(ctx context.Context) (drivers.Rect, error) {
	var m map[string]string
	r, err := h.request(ctx, "viewport", "")
	if err == nil {
		m = r.headers
	} else {
		if ctx.Err() != nil || errors.Is(err, drivers.ErrInfrastructure) {
			return drivers.Rect{}, err
		}
		h.emit("viewport", "fallback", err.Error())
		m, _, err = h.oneShot(ctx, "viewport", nil)
		if err != nil {
			return drivers.Rect{}, err
		}
	}
	num := func(k string) float64 { f, _ := strconv.ParseFloat(m[k], 64); return f }
	return drivers.Rect{X: num("x"), Y: num("y"), Width: num("width"), Height: num("height")}, nil
}

// gesture injects a touch plan. Through a live session a failure is
// returned as is (events may be partly injected: never retried one-shot).
// Without a session the helper runs it one-shot.
func (h *helper) gesture(ctx context.Context, planB64 string) error {
	s, err := h.sessionFor(ctx, "gesture")
	if err != nil {
		if ctx.Err() != nil || errors.Is(err, drivers.ErrInfrastructure) {
			return err
		}
		// No session, so nothing was injected yet: the helper runs it once.
		h.emit("gesture", "oneshot", err.Error())
		_, _, err = h.oneShot(ctx, "gesture", map[string]string{"payloadBase64": planB64})
		return err
	}
	_, err = h.do(ctx, s, "gesture", planB64)
	return err
}
