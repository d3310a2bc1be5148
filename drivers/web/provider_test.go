package web

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/chromedp/chromedp"
)

func TestNoBrowser(t *testing.T) {
	const base = "infrastructure failure: no Chromium or Chrome browser found; install one (apt-get install chromium-headless-shell, or chromium), or pass --browser PATH, or set ADTEST_CHROME"
	for _, tc := range []struct {
		name string
		opts Options
		path string // PATH for the lookup; empty keeps it
		want string
	}{
		{"--browser not found", Options{BrowserPath: "/nonexistent/chromium"}, "", base + ` (--browser "/nonexistent/chromium" is not an executable file)`},
		{"ADTEST_CHROME not found", Options{Getenv: func(k string) string {
			if k == "ADTEST_CHROME" {
				return "/nope/chrome"
			}
			return ""
		}}, "", base + ` (ADTEST_CHROME "/nope/chrome" is not an executable file)`},
		{"nothing on PATH", Options{Getenv: func(string) string { return "" }}, t.TempDir(), base + " (looked on PATH for chromium-headless-shell, chromium, chromium-browser, google-chrome, google-chrome-stable, chrome)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.path != "" {
				t.Setenv("PATH", tc.path)
			}
			_, err := NewProvider(tc.opts)
			if !errors.Is(err, drivers.ErrInfrastructure) || !errors.Is(err, ErrNoBrowser) {
				t.Fatalf("got %v, want an ErrNoBrowser infrastructure error", err)
			}
			if err.Error() != tc.want {
				t.Errorf("message:\n%s\nwant:\n%s", err, tc.want)
			}
		})
	}
}

// TestKillChromiumMidRun kills the browser under a live session: the call in
// flight fails as infrastructure naming what happened, the next session gets
// a new browser, and Close leaves no process or profile behind.
func TestKillChromiumMidRun(t *testing.T) {
	t.Parallel()
	start := time.Now()
	p, err := NewProvider(Options{Logf: func(f string, a ...any) { t.Logf("%v "+f, append([]any{time.Since(start)}, a...)...) }})
	if err != nil {
		t.Fatal(err)
	}
	ctx := startsCtx(t, 2)
	d := openSession(t, p, "events.html")
	first := p.all[0]
	pids := profileProcesses(first.dataDir)
	if first.pid == 0 || len(pids) < 2 {
		t.Fatalf("browser pid %d, profile processes %v: want the main process and its children", first.pid, pids)
	}
	// A long press is in flight (the button is down) when Chromium dies.
	hold := find(t, snap(t, d, drivers.SnapshotOptions{}), "button", "Hold")
	inFlight := make(chan error, 1)
	go func() {
		inFlight <- d.Act(ctx, drivers.Action{Kind: drivers.ActLongPress, Target: &drivers.Target{Node: hold}, Duration: 20 * time.Second})
	}()
	tick := time.NewTicker(10 * time.Millisecond)
	for pressed := false; !pressed && ctx.Err() == nil; <-tick.C {
		d.do(ctx, "probe", func(ctx context.Context, tg *chromedp.Target) error {
			pressed, _ = chromedp.Evaluate[bool]("window.t0 !== undefined")(ctx, tg)
			return nil
		})
	}
	tick.Stop()
	if err := syscall.Kill(first.pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	err = <-inFlight
	if !errors.Is(err, drivers.ErrInfrastructure) {
		t.Fatalf("long press in flight when the browser died: %v, want an infrastructure error", err)
	}
	if want := "infrastructure failure: web: longpress: Chromium (pid " + strconv.Itoa(first.pid) + ") exited or its CDP connection broke: "; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %q does not start with %q", err, want)
	}
	if _, err := d.Snapshot(ctx, drivers.SnapshotOptions{}); !errors.Is(err, drivers.ErrInfrastructure) {
		t.Errorf("snapshot on the dead session: %v, want an infrastructure error", err)
	}
	openSession(t, p, "basic.html") // a new browser after the kill
	if len(p.all) != 2 || p.all[1].pid == first.pid {
		t.Fatalf("browsers %d, want a second browser", len(p.all))
	}
	if left := leftovers(p.all[:1]); left != "" {
		t.Errorf("the dead browser left %s", left)
	}
	all := p.all
	t.Logf("%v closing", time.Since(start))
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if left := leftovers(all); left != "" {
		t.Errorf("after Close: %s", left)
	}
	if _, err := p.NewSession(ctx, drivers.SessionOptions{}); !errors.Is(err, drivers.ErrInfrastructure) {
		t.Errorf("NewSession after Close: %v", err)
	}
}

// TestRemoteCDP attaches to a Chromium started outside the provider with
// --remote-debugging-port=0, by its http:// and its ws:// address.
func TestRemoteCDP(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cmd := exec.Command(prov.execPath, "--headless", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--no-first-run", "--disable-sync", "--no-sandbox",
		"--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1", "--user-data-dir="+dir, "about:blank")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		killProfileProcesses(dir)
	})
	wsURL := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if _, after, ok := strings.Cut(sc.Text(), "DevTools listening on "); ok {
				wsURL <- after
			}
		}
	}()
	var ws string
	select {
	case ws = <-wsURL:
	case <-time.After(startTimeout):
		t.Fatal("remote Chromium did not print its DevTools address")
	}
	httpURL := "http://" + strings.SplitN(strings.TrimPrefix(ws, "ws://"), "/", 2)[0]
	for _, url := range []string{httpURL, ws} {
		t.Run(strings.SplitN(url, ":", 2)[0], func(t *testing.T) {
			p, err := NewProvider(Options{CDPURL: url, Getenv: func(string) string { return "" }})
			if err != nil {
				t.Fatal(err)
			}
			ctx := testCtx(t)
			d := openSession(t, p, "basic.html")
			sn, err := d.Snapshot(ctx, drivers.SnapshotOptions{})
			if err != nil {
				t.Fatal(err)
			}
			find(t, sn, "text", "Hello Ada")
			if err := p.Close(); err != nil {
				t.Fatal(err)
			}
			if cmd.ProcessState != nil {
				t.Fatal("closing an attached provider stopped the remote browser")
			}
			// Our tabs are gone from the remote browser; its own blank page stays.
			resp, err := http.Get(httpURL + "/json/list")
			if err != nil {
				t.Fatal(err)
			}
			var targets []struct{ Type, URL string }
			err = json.NewDecoder(resp.Body).Decode(&targets)
			resp.Body.Close()
			var pages []string
			for _, tg := range targets {
				if tg.Type == "page" {
					pages = append(pages, tg.URL)
				}
			}
			if err != nil || len(pages) != 1 || pages[0] != "about:blank" {
				t.Errorf("pages left on the remote browser: %v (%v)", pages, err)
			}
		})
	}
	_, err = NewProvider(Options{CDPURL: "localhost:9222"})
	if err == nil || err.Error() != `infrastructure failure: --cdp-url "localhost:9222" must start with ws://, wss://, http:// or https://` {
		t.Errorf("bad --cdp-url: %v", err)
	}
}

func TestBrowserPerWorker(t *testing.T) {
	t.Parallel()
	p, err := NewProvider(Options{BrowserPerWorker: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx := startsCtx(t, 2) // failed under load 25 with testCtx's 30 s
	for _, w := range []int{0, 1, 0} {
		d, err := p.NewSession(ctx, drivers.SessionOptions{Worker: w})
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close(ctx)
	}
	if len(p.all) != 2 || p.perWorker[0] == p.perWorker[1] || p.perWorker[0].pid == p.perWorker[1].pid {
		t.Errorf("want two browsers for two workers, got %d", len(p.all))
	}
	all := p.all
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if left := leftovers(all); left != "" {
		t.Errorf("after Close: %s", left)
	}
}

// TestSpareSessionsAreFreshContexts: sessions handed out (from the warm
// spare or not) each have their own browser context.
func TestSpareSessionsAreFreshContexts(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for i := 0; i < 4; i++ {
		s := session(t, "storage.html")
		id := string(s.browserContextID())
		if id == "" || seen[id] {
			t.Fatalf("session %d: browser context %q is empty or reused", i, id)
		}
		seen[id] = true
		if got := textByID(t, s, "c"); got != "cookie=none local=none" {
			t.Errorf("session %d sees state of another: %q", i, got)
		}
	}
}

// TestConcurrentSessions: workers open sessions at the same time on the
// shared browser (and its warm spare) and each gets its own page.
func TestConcurrentSessions(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	errs := make(chan error, 4)
	for w := 0; w < 4; w++ {
		go func() {
			d, err := prov.NewSession(ctx, drivers.SessionOptions{Worker: w})
			if err != nil {
				errs <- err
				return
			}
			defer d.Close(ctx)
			if err := d.Open(ctx, drivers.OpenRequest{Target: srv.URL + "/storage.html"}); err != nil {
				errs <- err
				return
			}
			sn, err := d.Snapshot(ctx, drivers.SnapshotOptions{})
			if err == nil && (len(sn.Nodes) != 1 || sn.Nodes[0].Text != "cookie=none local=none") {
				err = errors.New("worker " + strconv.Itoa(w) + " saw " + dump(sn))
			}
			errs <- err
		}()
	}
	for i := 0; i < 4; i++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
