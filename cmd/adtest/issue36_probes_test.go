package main

// Issue 36's items 1 to 8, probed from outside, in one file a reader can
// run alone:
//
//	go test -count=1 -run 'TestIssue36' ./cmd/adtest/
//
// Items 1, 5 and 8 run the CLI's Main as a user would and check what the
// user sees (item 1 needs adb, item 8 Chromium); items 2, 3, 4, 6 and 7
// are testscripts under testdata/issue36b, run end to end against the real
// adtest.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	_ "image/jpeg"
	_ "image/png"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/adtest/adtest/internal/testsupport/adbtest"
	"github.com/rogpeppe/go-internal/testscript"
)

// Item 1: after `close`, the warm daemon hands the Android device back: a
// second session on the one device opens promptly (it used to wait for
// the device lease about ten minutes and end DEVICE_NOT_FOUND).
func TestIssue36Item1AndroidDeviceHandedBack(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	srv := startADBServer(ctx, t)
	connectExampleDevice(ctx, t, srv)
	call, stop := serveTrialDaemon(ctx, t, "--adb-server", srv.Addr())
	defer stop()
	adt := func(bound time.Duration, args ...string) {
		t.Helper()
		actx, cancel := context.WithTimeout(ctx, bound)
		defer cancel()
		code, stdout, stderr := runMainCall(actx, t, call, args...)
		if code != ExitOK {
			t.Fatalf("adtest %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, stdout, stderr)
		}
	}
	adt(30*time.Second, "open", "com.adtest.demo", "--platform", "android", "--session", "a1")
	adt(30*time.Second, "snapshot", "-i", "--session", "a1")
	adt(30*time.Second, "close", "--session", "a1")
	// Promptly: the bound is what an open takes, not the lease's wait.
	adt(20*time.Second, "open", "com.adtest.demo", "--platform", "android", "--session", "a2")
	adt(30*time.Second, "snapshot", "-i", "--session", "a2")
	adt(30*time.Second, "close", "--session", "a2")
}

// serveTrialDaemon runs `adtest daemon serve` in this process with its own
// directory and returns the call that reaches it and its stop.
func serveTrialDaemon(ctx context.Context, t *testing.T, args ...string) (cliCall, func()) {
	t.Helper()
	tmp, err := os.MkdirTemp("", "adt36")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(tmp, "adtest")
	call := cliCall{cwd: tmp, getenv: map[string]string{"ADTEST_DAEMON_DIR": dir, "NO_COLOR": "1"}}
	dctx, cancel := context.WithCancel(ctx)
	served := make(chan struct{})
	go func() {
		defer close(served)
		code, _, stderr := runMainCall(dctx, t, call, append([]string{"daemon", "serve", "--dir", dir, "--idle-timeout", "0"}, args...)...)
		if code != ExitOK {
			t.Errorf("daemon serve: exit %d\n%s", code, stderr)
		}
	}()
	deadline := time.Now().Add(20 * time.Second)
	for daemonPID(dir) <= 0 {
		if time.Now().After(deadline) {
			cancel()
			t.Fatal("the daemon did not start")
		}
		<-time.After(10 * time.Millisecond)
	}
	return call, func() {
		cancel()
		<-served
		os.RemoveAll(tmp)
	}
}

// Item 5: --web-server runs the suite only against CMD's own server. A
// server someone else runs on the port, answering slower than the 1 s
// probe, is refused and named (pid and command line), even when CMD would
// run on without binding the port.
func TestIssue36Item5WebServerNotSomeoneElses(t *testing.T) {
	port, err := adbtest.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	// Someone else's server: its first answer takes 1.5 s, later ones none.
	ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		t.Fatal(err)
	}
	first := make(chan struct{}, 1)
	first <- struct{}{}
	theirs := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-first:
			select {
			case <-time.After(1500 * time.Millisecond):
			case <-r.Context().Done():
			}
		default:
		}
		fmt.Fprintln(w, "someone else's app")
	})}
	go theirs.Serve(ln)
	defer theirs.Close()
	dir := writeFiles(t, map[string]string{
		"screens.txt": "open * -> home\nscreen home\n  text \"Hi\"\n",
		"base.ad":     "context platform=web\nopen ${AD_BASE_URL}\n",
	})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	url := fmt.Sprintf("http://127.0.0.1:%d/", port)
	code, stdout, stderr := runMainCall(ctx, t, cliCall{cwd: dir}, "run", "--fake-device", "screens.txt", "--artifacts-dir", "art",
		"--web-server", "sleep 30", "--web-server-url", url, "base.ad")
	t.Logf("exit %d\nstderr: %s", code, stderr)
	if code != ExitInfra || strings.Contains(stdout, "passed") {
		t.Fatalf("the suite ran against someone else's server: exit %d\nstdout:\n%s", code, stdout)
	}
	if want := fmt.Sprintf("held by pid %d (", os.Getpid()); !strings.Contains(stderr, want) {
		t.Errorf("stderr does not name the holder (%q):\n%s", want, stderr)
	}
}

// Item 8: a page that floods its console (2,000 lines of 1 KB a task) no
// longer starves the run: its clicks take a click's time and the trace
// says how many console lines were dropped. The figures are logged (-v),
// never asserted.
func TestIssue36Item8ConsoleFlood(t *testing.T) {
	chrome, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("this probe needs Chromium (scripts/setup.sh)")
	}
	dir := writeFiles(t, map[string]string{
		"site/flood.html": `<!doctype html><title>Flood</title>
<button id="go" onclick="document.getElementById('out').textContent='Clicked'">Go</button>
<p id="out">Waiting</p>
<script>
const line = "x".repeat(1024), until = performance.now() + 30000;
let n = 0;
function flood() { for (let i = 0; i < 2000; i++) console.log(line, n++); if (performance.now() < until) setTimeout(flood, 0); }
flood();
</script>
`,
		"flood.ad": `context platform=web timeout=60000
open ${AD_BASE_URL}/flood.html
wait text "Waiting" 5000
wait 1500
click "role=button label=\"Go\""
wait text "Clicked" 5000
click "role=button label=\"Go\""
`,
	})
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	code, stdout, stderr := runMainCall(ctx, t, cliCall{cwd: dir, getenv: map[string]string{"ADTEST_CHROME": chrome}},
		"run", "--serve", "site", "--artifacts-dir", "art", "--trace", "on", "flood.ad")
	if code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	traces, _ := filepath.Glob(filepath.Join(dir, "art", "*", "flood.ad", "attempt-1", "trace", "trace.json"))
	timings, _ := filepath.Glob(filepath.Join(dir, "art", "*", "flood.ad", "attempt-1", "timing.ndjson"))
	if len(traces) != 1 || len(timings) != 1 {
		t.Fatalf("trace %v, timing %v", traces, timings)
	}
	tr, _ := os.ReadFile(traces[0])
	if !regexp.MustCompile(`"text":\s*"\d{1,3}(,\d{3})* console lines dropped \(the page logged more than 200 a second\)"`).Match(tr) {
		t.Errorf("the trace does not say how many console lines were dropped (%d bytes)", len(tr))
	}
	tm, _ := os.ReadFile(timings[0])
	for _, m := range regexp.MustCompile(`"command":"click","durationMs":(\d+)`).FindAllSubmatch(tm, -1) {
		t.Logf("click on the flooding page: %s ms", m[1])
	}
}

// TestIssue36Items2To7 runs the probes of issue 36's items 2, 3, 4, 6 and 7, each
// a script under testdata/issue36b, end to end against the real adtest:
//
//	go test -count=1 -run TestIssue36Items2To7 ./cmd/adtest/
//
// repair_quote (2): every command printed for a person to paste is quoted.
// secret_encoded (3): a secret's URL, JSON, HTML and base64 forms are masked.
// repair_outside (6): a repair of a script outside the working directory
// applies with the printed command, git apply and patch alike.
// screenshot_split (4): a secret split across elements, in an iframe, in
// ::after content is painted over in the failure screenshot.
// repair_trace (7): the failed attempt's trace is the failure's, the
// repair's replays have their own, "after" is the screen before close.
func TestIssue36Items2To7(t *testing.T) {
	p := scriptParams("testdata/issue36b")
	p.Cmds["pngblank"] = cmdPNGBlank
	p.Cmds["traceunref"] = cmdTraceUnref
	p.Cmds["pngpainted"] = cmdPNGPainted
	p.Cmds["jpgblank"] = cmdPNGBlank
	testscript.Run(t, p)
}

// pngblank FILE (and jpgblank): FILE (a glob of one), a PNG or a JPEG, is
// of one colour (! pngblank: it shows something).
func cmdPNGBlank(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: pngblank FILE")
	}
	data, err := os.ReadFile(globOne(ts, args[0]))
	ts.Check(err)
	img, _, err := image.Decode(bytes.NewReader(data))
	ts.Check(err)
	b := img.Bounds()
	first := img.At(b.Min.X, b.Min.Y)
	blank := true
	for y := b.Min.Y; y < b.Max.Y && blank; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r1, g1, b1, _ := img.At(x, y).RGBA()
			r0, g0, b0, _ := first.RGBA()
			if r1 != r0 || g1 != g0 || b1 != b0 {
				blank = false
				break
			}
		}
	}
	if blank != !neg {
		ts.Fatalf("%s: blank=%v", args[0], blank)
	}
}

// pngpainted FILE: FILE (a glob of one) holds only white and the paint of
// a masked secret (#333333), and some of the paint: every text on the page
// was a secret, painted over.
func cmdPNGPainted(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: pngpainted FILE")
	}
	data, err := os.ReadFile(globOne(ts, args[0]))
	ts.Check(err)
	img, _, err := image.Decode(bytes.NewReader(data))
	ts.Check(err)
	b := img.Bounds()
	other, paint := 0, 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			switch {
			case r>>8 == 0xff && g>>8 == 0xff && bl>>8 == 0xff:
			case r>>8 == 0x33 && g>>8 == 0x33 && bl>>8 == 0x33:
				paint++
			default:
				other++
			}
		}
	}
	if other > 0 || paint == 0 {
		ts.Fatalf("%s: %d pixels neither white nor paint, %d painted", args[0], other, paint)
	}
}

// traceunref DIR: every picture in the trace directory DIR (a glob of
// one) is named by its trace.json (a picture nothing names was written by
// someone else); prints each step's status.
func cmdTraceUnref(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: traceunref DIR")
	}
	dir := globOne(ts, args[0])
	index, err := os.ReadFile(filepath.Join(dir, "trace.json"))
	ts.Check(err)
	var data struct {
		Steps []struct{ Status string } `json:"steps"`
	}
	ts.Check(json.Unmarshal(index, &data))
	ents, err := os.ReadDir(dir)
	ts.Check(err)
	for _, e := range ents {
		if n := e.Name(); strings.HasSuffix(n, ".jpg") && !bytes.Contains(index, []byte(`"`+n+`"`)) {
			ts.Fatalf("%s: picture %s is named by no step of trace.json", args[0], n)
		}
	}
	for _, st := range data.Steps {
		fmt.Fprintln(ts.Stdout(), st.Status)
	}
}

// globOne is the one path the glob pattern (relative to $WORK) matches.
func globOne(ts *testscript.TestScript, pattern string) string {
	m, _ := filepath.Glob(ts.MkAbs(pattern))
	if len(m) != 1 {
		ts.Fatalf("%s matches %d paths, want 1", pattern, len(m))
	}
	return m[0]
}
