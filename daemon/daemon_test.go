package daemon

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/drivers/fake"
	"github.com/adtest/adtest/internal/atomicfile"
	"github.com/adtest/adtest/recorder"
)

const screens = `
open demo -> login
screen login "Sign in"
  textbox "Email" id=email editable
  button "Sign in" id=signin -> goto home
screen home "Home"
  text "Signed in"
  button "Log out" id=logout -> goto login
`

const testVersion = "test-build"

type testDaemon struct {
	dir  string
	sock string
	tcp  string
	prov *fake.Provider
	done chan error
	stop context.CancelFunc
}

// startDaemon runs a daemon in-process over the fake device; it is stopped
// (and its files checked gone) when the test ends.
func startDaemon(t *testing.T, mod func(*Config)) *testDaemon {
	t.Helper()
	sc, err := fake.ParseScreens("screens.txt", screens)
	if err != nil {
		t.Fatal(err)
	}
	td := &testDaemon{dir: filepath.Join(shortTemp(t), "adtest"), prov: fake.NewProvider(sc, nil), done: make(chan error, 1)}
	ready := make(chan struct{})
	cfg := Config{
		Dir: td.dir, Version: testVersion, DefaultPlatform: drivers.PlatformFake, IdleTimeout: -1,
		Providers: func(ctx context.Context, platform string) (drivers.Provider, error) {
			if platform != drivers.PlatformFake {
				return nil, errors.New("only fake here")
			}
			return td.prov, nil
		},
		Ready: func(sock, tcp string) { td.sock, td.tcp = sock, tcp; close(ready) },
	}
	if mod != nil {
		mod(&cfg)
	}
	td.dir = cfg.Dir
	ctx, cancel := context.WithCancel(context.Background())
	td.stop = cancel
	go func() { td.done <- Serve(ctx, cfg) }()
	select {
	case <-ready:
	case err := <-td.done:
		t.Fatalf("Serve: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("daemon did not start")
	}
	t.Cleanup(func() {
		cancel()
		select {
		case <-td.done:
		case <-time.After(20 * time.Second):
			t.Error("daemon did not stop")
		}
		for _, n := range []string{SocketName, tokenName, infoName} {
			if _, err := os.Stat(filepath.Join(td.dir, n)); err == nil {
				t.Errorf("%s left behind after stop", n)
			}
		}
	})
	return td
}

// shortTemp is a temp dir with a short path (unix socket paths are limited).
func shortTemp(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp("", "adt")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}

func (td *testDaemon) client() *Client { return &Client{Dir: td.dir, Version: testVersion} }

func do(t *testing.T, c *Client, req *Request) *Response {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	resp, err := c.Do(ctx, req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Op, req.Command, err)
	}
	return resp
}

func cmd(session, command string, argv ...string) *Request {
	return &Request{Op: OpCommand, Session: session, Command: command, Argv: argv}
}

func mustOK(t *testing.T, resp *Response) *Response {
	t.Helper()
	if !resp.OK || resp.Error != nil {
		t.Fatalf("want ok, got %+v", resp.Error)
	}
	return resp
}

func wantReason(t *testing.T, resp *Response, reason drivers.Reason) {
	t.Helper()
	if resp.OK || resp.Error == nil || resp.Error.Reason != reason {
		t.Fatalf("want error reason %s, got ok=%v %+v", reason, resp.OK, resp.Error)
	}
}

// rawRequest writes line to the daemon socket and returns the answer.
func rawRequest(t *testing.T, network, addr string, line []byte) *Response {
	t.Helper()
	c, err := net.DialTimeout(network, addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(20 * time.Second))
	go func() { _, _ = c.Write(line) }()
	b, err := readLine(bufio.NewReader(c), MaxResponseBytes)
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	var r Response
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("answer %q: %v", b, err)
	}
	return &r
}

func TestSessionCommands(t *testing.T) {
	td := startDaemon(t, nil)
	c := td.client()
	mustOK(t, do(t, c, cmd("", "open", "demo")))
	snap := mustOK(t, do(t, c, &Request{Op: OpCommand, Command: "snapshot", Argv: []string{"-i"}, JSON: true}))
	if _, ok := snap.Data["refsGeneration"]; !ok {
		t.Fatalf("snapshot data without refsGeneration: %v", snap.Data)
	}
	if !strings.Contains(snap.Text, `@e2 [button] "Sign in"`) {
		t.Fatalf("snapshot text:\n%s", snap.Text)
	}
	// A pinned ref of the current generation is admitted interactively.
	gen := fmt.Sprint(snap.Data["refsGeneration"])
	mustOK(t, do(t, c, cmd("", "click", "@e2~s"+gen)))
	// The click expired the frame: the same ref is refused with its typed reason.
	wantReason(t, do(t, c, cmd("", "click", "@e2~s"+gen)), "ref_frame_expired")
	wantReason(t, do(t, c, cmd("", "click", "@e2")), "ref_frame_expired")
	mustOK(t, do(t, c, cmd("", "snapshot", "-i")))
	wantReason(t, do(t, c, cmd("", "click", "@e2~s"+gen)), "ref_generation_mismatch")
	list := mustOK(t, do(t, c, &Request{Op: OpSessions}))
	if b, _ := json.Marshal(list.Data); !strings.Contains(string(b), `"name":"default"`) {
		t.Fatalf("session list: %s", b)
	}
	mustOK(t, do(t, c, cmd("", "close")))
	wantReason(t, do(t, c, cmd("", "snapshot")), drivers.ReasonSessionNotFound)
}

func TestSocketIsPrivate(t *testing.T) {
	// The other user must be able to reach what it runs and the socket's
	// directory, or a denial proves nothing about the socket: TMPDIR may be
	// inside a directory only root may enter (as mktemp -d makes one).
	base, why := reachableTemp(t)
	td := startDaemon(t, func(c *Config) { c.Dir = filepath.Join(base, "adtest") })
	fi, err := os.Stat(td.dir)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o700 {
		t.Errorf("daemon dir mode %04o, want 0700", fi.Mode().Perm())
	}
	si, err := os.Lstat(td.sock)
	if err != nil {
		t.Fatal(err)
	}
	if si.Mode().Perm() != 0o600 || si.Mode()&os.ModeSocket == 0 {
		t.Errorf("socket mode %v, want a 0600 socket", si.Mode())
	}
	if os.Getuid() != 0 {
		t.Log("not root: cannot run a client as another user; modes checked only")
		return
	}
	if base == "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("no directory another user can reach to run the client from: %s (CI must run the dial as another user)", why)
		}
		t.Skipf("no directory another user can reach to run the client from: %s", why)
	}
	// Another user's process: this test binary, copied where that user can
	// run it, dialling the socket as uid/gid 65534.
	bin := filepath.Join(base, "client")
	self, _ := os.Executable()
	src, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, src, 0o755); err != nil {
		t.Fatal(err)
	}
	dial := func() string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		p := exec.CommandContext(ctx, bin, "-test.run=^TestHelperDial$")
		p.Env = []string{"ADTEST_HELPER_SOCKET=" + td.sock}
		p.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		out, err := p.CombinedOutput()
		m := regexp.MustCompile(`DIAL: .*`).FindString(string(out))
		if m == "" {
			t.Fatalf("the other user's client did not dial (%v):\n%s", err, out)
		}
		return m
	}
	chmod := func(path string, mode os.FileMode) {
		t.Helper()
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
	}
	// As the daemon made them: the directory keeps others out.
	if got := dial(); got != "DIAL: permission denied" {
		t.Errorf("dir 0700, socket 0600: %s, want permission denied", got)
	}
	// The socket's own mode, with a directory others may pass through...
	chmod(td.dir, 0o711)
	defer chmod(td.dir, 0o700)
	if got := dial(); got != "DIAL: permission denied" {
		t.Errorf("dir 0711, socket 0600: %s, want permission denied", got)
	}
	// ...and the control: the same path with an open socket connects, so
	// the denial above is the socket's permissions, not the path.
	chmod(td.sock, 0o666)
	if got := dial(); got != "DIAL: connected" {
		t.Errorf("dir 0711, socket 0666: %s, want connected (the other user cannot reach the socket at all)", got)
	}
	chmod(td.sock, 0o600)
}

// reachableTemp is a fresh directory (mode 0755, removed at cleanup) whose
// every ancestor another user may pass through: in TMPDIR when it allows
// that, else /tmp or /dev/shm. It returns "" and why when none does.
func reachableTemp(t *testing.T) (string, string) {
	t.Helper()
	var why []string
	for _, root := range []string{os.TempDir(), "/tmp", "/dev/shm"} {
		if blocked := closedAncestor(root); blocked != "" {
			why = append(why, fmt.Sprintf("%s: %s is closed to other users", root, blocked))
			continue
		}
		d, err := os.MkdirTemp(root, "adt")
		if err != nil {
			why = append(why, err.Error())
			continue
		}
		t.Cleanup(func() { os.RemoveAll(d) })
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d, ""
	}
	return "", strings.Join(why, "; ")
}

// closedAncestor returns the first directory on dir's path that others may
// not search (no o+x), or "".
func closedAncestor(dir string) string {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	for p := dir; ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		if err != nil || !fi.IsDir() || fi.Mode().Perm()&0o001 == 0 {
			return p
		}
		if p == filepath.Dir(p) {
			return ""
		}
	}
}

// TestHelperDial is the other user's client of TestSocketIsPrivate.
func TestHelperDial(t *testing.T) {
	sock := os.Getenv("ADTEST_HELPER_SOCKET")
	if sock == "" {
		return
	}
	c, err := net.DialTimeout("unix", sock, 5*time.Second)
	if err != nil {
		if errors.Is(err, syscall.EACCES) {
			os.Stdout.WriteString("DIAL: permission denied\n")
			return
		}
		os.Stdout.WriteString("DIAL: " + err.Error() + "\n")
		return
	}
	c.Close()
	os.Stdout.WriteString("DIAL: connected\n")
}

func TestClientRefusesForeignDir(t *testing.T) {
	dir := filepath.Join(shortTemp(t), "adtest")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	c := &Client{Dir: dir, Version: testVersion}
	_, err := c.Do(context.Background(), &Request{Op: OpStatus})
	if err == nil || !strings.Contains(err.Error(), "chmod 700") {
		t.Fatalf("a group/world-readable daemon dir must be refused, got %v", err)
	}
}

func TestTCPNeedsToken(t *testing.T) {
	td := startDaemon(t, func(c *Config) { c.Listen = "127.0.0.1:0" })
	fi, err := os.Stat(TokenPath(td.dir))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("token mode %04o, want 0600", fi.Mode().Perm())
	}
	token, err := ReadToken(td.dir)
	if err != nil || len(token) < 32 {
		t.Fatalf("token %q: %v", token, err)
	}
	for _, tc := range []struct{ name, token string }{{"none", ""}, {"wrong", strings.Repeat("0", len(token))}, {"prefix", token[:len(token)-1]}} {
		c := &Client{Addr: td.tcp, Token: tc.token, Version: testVersion}
		wantReason(t, do(t, c, &Request{Op: OpStatus}), drivers.ReasonUnauthorized)
		resp := rawRequest(t, "tcp", td.tcp, []byte(`{"v":1,"version":"test-build","op":"status","token":"`+tc.token+"\"}\n"))
		wantReason(t, resp, drivers.ReasonUnauthorized)
	}
	c := &Client{Addr: td.tcp, Token: token, Version: testVersion}
	mustOK(t, do(t, c, &Request{Op: OpStatus}))
}

func TestBadRequestsKeepServing(t *testing.T) {
	td := startDaemon(t, nil)
	wantReason(t, rawRequest(t, "unix", td.sock, []byte("this is not json\n")), drivers.ReasonBadRequest)
	big := make([]byte, MaxRequestBytes+10)
	for i := range big {
		big[i] = 'x'
	}
	wantReason(t, rawRequest(t, "unix", td.sock, append(big, '\n')), drivers.ReasonRequestTooLarge)
	wantReason(t, rawRequest(t, "unix", td.sock, []byte(`{"v":1,"version":"test-build","op":"nope"}`+"\n")), drivers.ReasonBadRequest)
	// A client that connects and says nothing is dropped after the read bound;
	// meanwhile others are served.
	idle, err := net.Dial("unix", td.sock)
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	c := td.client()
	mustOK(t, do(t, c, &Request{Op: OpStatus}))
	mustOK(t, do(t, c, cmd("", "open", "demo")))
	mustOK(t, do(t, c, cmd("", "snapshot")))
}

func TestVersionMismatchRefused(t *testing.T) {
	td := startDaemon(t, nil)
	c := &Client{Dir: td.dir, Version: "other-build"}
	_, err := c.Do(context.Background(), &Request{Op: OpStatus})
	var ve *VersionError
	if !errors.As(err, &ve) || !strings.Contains(err.Error(), "different versions") {
		t.Fatalf("want a version refusal, got %v", err)
	}
	resp := rawRequest(t, "unix", td.sock, []byte(`{"v":99,"version":"test-build","op":"status"}`+"\n"))
	wantReason(t, resp, drivers.ReasonVersionMismatch)
	if !strings.Contains(resp.Error.Message, "protocol 99") {
		t.Fatalf("message should name both protocols: %s", resp.Error.Message)
	}
}

// waitOp polls the fake device until it received an operation of kind.
func waitOp(t *testing.T, d *fake.Device, kind string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for d.Count(kind) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("no %s operation reached the device", kind)
		}
		<-tick.C
	}
}

func TestKilledClientDoesNotWedgeSession(t *testing.T) {
	td := startDaemon(t, nil)
	c := td.client()
	mustOK(t, do(t, c, cmd("", "open", "demo")))
	dev := td.prov.Devices()[0]
	dev.HangOn("tap", 1)
	// A client sends a click that hangs in the device, then dies.
	conn, err := net.Dial("unix", td.sock)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(&Request{V: ProtocolVersion, ID: "x", Version: testVersion, Op: OpCommand, Session: "default", Command: "click", Argv: []string{"id=signin"}})
	if _, err := conn.Write(append(b, '\n')); err != nil {
		t.Fatal(err)
	}
	waitOp(t, dev, "tap")
	conn.Close()
	// The session answers the next command.
	mustOK(t, do(t, c, cmd("", "snapshot")))
}

func TestSessionsSerialisedAndParallel(t *testing.T) {
	td := startDaemon(t, nil)
	c := td.client()
	mustOK(t, do(t, c, cmd("a", "open", "demo")))
	mustOK(t, do(t, c, cmd("b", "open", "demo")))
	devA := td.prov.Devices()[0]
	devA.HangOn("tap", 1)
	hung := make(chan *Response, 1)
	ctxA, cancelA := context.WithCancel(context.Background())
	defer cancelA()
	go func() {
		r, _ := c.Do(ctxA, cmd("a", "click", "id=signin"))
		hung <- r
	}()
	waitOp(t, devA, "tap")
	// Another session runs while a's command hangs.
	mustOK(t, do(t, c, cmd("b", "click", "id=signin")))
	// A second command on a waits for the first: with a short bound (the
	// request's own 200 ms) the daemon gives up and says the session is busy.
	// The client's bound only guards the test against a hang, so it is long:
	// 100 ms of slack for the round trip was too little under load.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r, err := c.Do(ctx, &Request{Op: OpCommand, Session: "a", Command: "snapshot", TimeoutMs: 200})
	if err != nil {
		t.Fatal(err)
	}
	wantReason(t, r, drivers.ReasonSessionBusy)
	cancelA()
	<-hung
	mustOK(t, do(t, c, cmd("a", "snapshot")))
}

func TestRestartReportsLostSession(t *testing.T) {
	dir := filepath.Join(shortTemp(t), "adtest")
	if err := ensureDir(dir); err != nil {
		t.Fatal(err)
	}
	// What a daemon that died with a session leaves behind.
	if err := atomicfile.WriteFile(filepath.Join(dir, sessionsName), []byte(`{"pid":1,"live":[{"name":"default","platform":"fake"}]}`), atomicfile.Options{Perm: 0o600}); err != nil {
		t.Fatal(err)
	}
	td := startDaemon(t, func(c *Config) { c.Dir = dir })
	c := td.client()
	wantReason(t, do(t, c, cmd("", "click", "id=signin")), drivers.ReasonSessionLost)
	wantReason(t, do(t, c, cmd("", "snapshot")), drivers.ReasonSessionLost)
	if n := len(td.prov.Devices()); n != 0 {
		t.Fatalf("a lost session must not act on a fresh device (%d opened)", n)
	}
	// Opening again starts over.
	mustOK(t, do(t, c, cmd("", "open", "demo")))
	mustOK(t, do(t, c, cmd("", "snapshot")))
}

func TestIdleExit(t *testing.T) {
	dir := filepath.Join(shortTemp(t), "adtest")
	sc, _ := fake.ParseScreens("s", screens)
	prov := fake.NewProvider(sc, nil)
	done := make(chan error, 1)
	go func() {
		done <- Serve(context.Background(), Config{Dir: dir, Version: testVersion, IdleTimeout: 100 * time.Millisecond, DefaultPlatform: drivers.PlatformFake,
			Providers: func(context.Context, string) (drivers.Provider, error) { return prov, nil }})
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("an idle daemon did not exit")
	}
	if _, err := os.Stat(filepath.Join(dir, SocketName)); err == nil {
		t.Fatal("socket left after idle exit")
	}
}

func TestStopClosesSessionsAndProviders(t *testing.T) {
	td := startDaemon(t, nil)
	c := td.client()
	mustOK(t, do(t, c, cmd("", "open", "demo")))
	mustOK(t, do(t, c, &Request{Op: OpStop}))
	select {
	case err := <-td.done:
		td.done <- err
	case <-time.After(20 * time.Second):
		t.Fatal("daemon did not stop")
	}
	if _, err := td.prov.NewSession(context.Background(), drivers.SessionOptions{}); err == nil {
		t.Fatal("the provider should be closed after stop")
	}
	if _, err := os.Stat(filepath.Join(td.dir, sessionsName)); err == nil {
		t.Fatal("sessions.json left after a clean stop")
	}
	// Nothing listens any more; a client without Start reports it.
	_, err := c.Do(context.Background(), &Request{Op: OpStatus})
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("want ErrUnavailable, got %v", err)
	}
}

func recordingConfig(c *Config) {
	c.Recorders = func(info RecordingInfo) Recording {
		return recorder.New(recorder.Options{Platform: info.Platform, Device: "fake"})
	}
	c.WriteScript = recorder.WriteFile
}

func TestRecordingPublishedAtClose(t *testing.T) {
	td := startDaemon(t, recordingConfig)
	c := td.client()
	path := filepath.Join(shortTemp(t), "flow.ad")
	open := cmd("", "open", "demo")
	open.SaveScript, open.ScriptPath = true, path
	mustOK(t, do(t, c, open))
	mustOK(t, do(t, c, cmd("", "snapshot", "-i")))
	fill := cmd("", "fill", "@e1", "hunter2")
	fill.RecordAs = "PIN"
	mustOK(t, do(t, c, fill))
	mustOK(t, do(t, c, cmd("", "snapshot", "-i")))
	// list runs beside commands (the race detector watches the fields it reads)
	go func() { _, _ = c.Do(context.Background(), &Request{Op: OpSessions}) }()
	mustOK(t, do(t, c, cmd("", "click", "@e2")))
	mustOK(t, do(t, c, cmd("", "wait", "text=\"Signed in\"", "1000")))
	resp := mustOK(t, do(t, c, cmd("", "close")))
	if resp.Data["script"] != path {
		t.Fatalf("close data: %v", resp.Data)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := regexp.MustCompile(`(?m)^# agent-device:target-v1 .*\n`).ReplaceAllString(string(b), "")
	want := `context platform=fake device="fake" theme=unknown
open "demo"
fill "id=\"email\" editable=true || role=\"textbox\" label=\"Email\" editable=true || label=\"Email\" editable=true" "${PIN}"
click "id=\"signin\" || role=\"button\" label=\"Sign in\" || label=\"Sign in\""
wait "text=\"Signed in\"" 1000
close
`
	if got != want {
		t.Fatalf("script:\n%s\nwant:\n%s", b, want)
	}
	if strings.Contains(string(b), "hunter2") {
		t.Fatal("the --record-as literal reached the script")
	}
	// The device got the literal.
	var filled string
	for _, op := range td.prov.Devices()[0].Ops() {
		if op.Kind == "fill" {
			filled = op.Text
		}
	}
	if filled != "hunter2" {
		t.Fatalf("the device was filled with %q", filled)
	}
}

func TestRecordingRules(t *testing.T) {
	td := startDaemon(t, recordingConfig)
	c := td.client()
	// --save-script only on a new session's first open.
	mustOK(t, do(t, c, cmd("", "open", "demo")))
	again := cmd("", "open", "demo")
	again.SaveScript = true
	wantReason(t, do(t, c, again), "recording_not_first_open")
	wantReason(t, do(t, c, &Request{Op: OpSaveScript}), "not_recording")
	fill := cmd("", "fill", "id=email", "x")
	fill.RecordAs = "X"
	wantReason(t, do(t, c, fill), "invalid_args")
	// A second open aborts a recording.
	rec := cmd("r", "open", "demo")
	rec.SaveScript, rec.ScriptPath = true, filepath.Join(shortTemp(t), "r.ad")
	mustOK(t, do(t, c, rec))
	if w := mustOK(t, do(t, c, cmd("r", "open", "demo"))).Warning; !strings.Contains(w, "recording aborted") {
		t.Fatalf("want an abort warning, got %q", w)
	}
	wantReason(t, do(t, c, &Request{Op: OpSaveScript, Session: "r"}), "not_recording")
}

func TestSaveScriptNeedsDestinationGuard(t *testing.T) {
	td := startDaemon(t, recordingConfig)
	c := td.client()
	path := filepath.Join(shortTemp(t), "g.ad")
	open := cmd("", "open", "demo")
	open.SaveScript, open.ScriptPath = true, path
	mustOK(t, do(t, c, open))
	mustOK(t, do(t, c, cmd("", "click", "id=signin")))
	r := do(t, c, &Request{Op: OpSaveScript})
	wantReason(t, r, "destination_guard_missing")
	if !strings.Contains(r.Error.Message, `step 2 "click id=signin"`) {
		t.Fatalf("message should name the step: %s", r.Error.Message)
	}
	mustOK(t, do(t, c, cmd("", "wait", "text=\"Signed in\"", "1000")))
	mustOK(t, do(t, c, &Request{Op: OpSaveScript}))
	b, _ := os.ReadFile(path)
	if strings.Contains(string(b), "\nclose") || !strings.HasSuffix(string(b), "wait \"text=\\\"Signed in\\\"\" 1000\n") {
		t.Fatalf("published script:\n%s", b)
	}
}

// TestStopAcrossBuilds: a rebuilt adtest cannot use the old daemon, but it
// can stop it.
func TestStopAcrossBuilds(t *testing.T) {
	td := startDaemon(t, nil)
	other := &Client{Dir: td.dir, Version: "rebuilt"}
	var ve *VersionError
	if _, err := other.Do(context.Background(), &Request{Op: OpStatus}); !errors.As(err, &ve) {
		t.Fatalf("want a version refusal, got %v", err)
	}
	mustOK(t, do(t, other, &Request{Op: OpStop}))
	if !WaitStopped(context.Background(), td.dir, 20*time.Second) {
		t.Fatal("the daemon did not stop")
	}
}

func TestTerminate(t *testing.T) {
	dir := filepath.Join(shortTemp(t), "adtest")
	if ok, err := Terminate(dir); ok || err != nil {
		t.Fatalf("no daemon: got %v %v", ok, err)
	}
}

// TestDeadHelperLosesSession: when the session's browser or device goes
// away, the failing command says so (infrastructure) and later ones are
// told the session was lost, until it is opened again.
func TestDeadHelperLosesSession(t *testing.T) {
	td := startDaemon(t, nil)
	c := td.client()
	mustOK(t, do(t, c, cmd("", "open", "demo")))
	if err := td.prov.Devices()[0].Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	r := do(t, c, cmd("", "snapshot"))
	wantReason(t, r, "infrastructure")
	r = do(t, c, cmd("", "snapshot"))
	wantReason(t, r, drivers.ReasonSessionLost)
	if !strings.Contains(r.Error.Message, "browser or device went away") {
		t.Fatalf("message: %s", r.Error.Message)
	}
	mustOK(t, do(t, c, cmd("", "open", "demo")))
	mustOK(t, do(t, c, cmd("", "snapshot")))
}

func TestDefaultScriptPath(t *testing.T) {
	at := time.Date(2026, 2, 9, 12, 0, 0, 0, time.UTC)
	if got := defaultScriptPath("/s", "e2e", at); got != "/s/e2e-2026-02-09T12-00-00-000Z.ad" {
		t.Fatalf("got %s", got)
	}
	if got := defaultScriptPath("/s", "a.b_c-d", at); got != "/s/a.b_c-d-2026-02-09T12-00-00-000Z.ad" {
		t.Fatalf("got %s", got)
	}
}

func TestSocketPathTooLong(t *testing.T) {
	dir := filepath.Join(shortTemp(t), strings.Repeat("d", 120))
	err := Serve(context.Background(), Config{Dir: dir, Version: testVersion,
		Providers: func(context.Context, string) (drivers.Provider, error) { return nil, errors.New("none") }})
	if err == nil || !strings.Contains(err.Error(), "ADTEST_DAEMON_DIR") {
		t.Fatalf("want a clear error, got %v", err)
	}
}
