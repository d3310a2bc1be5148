package webtest_test

// ADR 0014 evidence on the web: every web path of the runner crosses the
// side-effect seam, against real Chromium and the example app (examples/web)
// served on a loopback httptest.Server. One browser serves the whole test
// binary; it starts lazily on the first web test and TestMain closes it and
// fails the binary when a Chromium process or profile directory outlives it.
//
// The frame's state is observed from outside the package: an expiry advances
// RefsGeneration by one (ADR 0014: minted 42, current 43) and turns a
// read-only ref into a stale read (a warning); an active frame keeps its
// generation and answers reads without a warning. The mutations each test
// was seen red with are listed in runner/doc.go.

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers"
	webdrv "github.com/adtest/adtest/drivers/web"
	exampleweb "github.com/adtest/adtest/examples/web"
	"github.com/adtest/adtest/internal/testsupport/webtest"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner"
)

// coveredPage is a test-only page next to the example app: a button under a
// full-page cookie banner (the web driver's Preflight reports target_covered).
const coveredPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Covered</title></head>
<body>
<main>
  <h1>Covered</h1>
  <button type="button" id="buy">Buy</button>
  <p id="count">Buy clicks: 0</p>
</main>
<div id="banner" style="position:fixed;left:0;top:0;width:100%;height:100%;background:rgba(0,0,0,.3)">
  <button type="button" id="accept">Accept cookies</button>
</div>
<script>
var n = 0;
document.getElementById('buy').addEventListener('click', function () { n++; document.getElementById('count').textContent = 'Buy clicks: ' + n; });
document.getElementById('accept').addEventListener('click', function () { document.getElementById('banner').remove(); });
</script>
</body></html>`

// webBrowser is the one browser of the test binary, started on first use.
var webBrowser struct {
	once sync.Once
	prov *webdrv.Provider
	// frames is a provider whose sessions draw their pages' frames (as a
	// run that records traces has them: webdrv.Options.FrameControl).
	frames   *webdrv.Provider
	srv      *httptest.Server
	err      error
	profiles webtest.ProfileRecorder // Chromium profile directories, from the provider's log
}

func startWebBrowser() {
	b := &webBrowser
	b.prov, b.err = webdrv.NewProvider(webdrv.Options{Logf: b.profiles.Logf})
	if b.err == nil {
		b.frames, b.err = webdrv.NewProvider(webdrv.Options{Logf: b.profiles.Logf, FrameControl: true})
	}
	mux := http.NewServeMux()
	mux.Handle("/", exampleweb.Handler())
	mux.HandleFunc("/evidence/covered.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(coveredPage))
	})
	traceHandlers(mux)
	b.srv = httptest.NewServer(mux)
}

func TestMain(m *testing.M) {
	code := m.Run()
	if err := stopWebBrowser(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		code = 1
	}
	os.Exit(code)
}

// stopWebBrowser closes the browser and the server, then reports any
// Chromium process or profile directory still present.
func stopWebBrowser() error {
	b := &webBrowser
	if b.srv != nil {
		b.srv.Close()
	}
	if b.prov == nil {
		return nil
	}
	if err := b.prov.Close(); err != nil {
		return fmt.Errorf("web provider close: %v", err)
	}
	if b.frames != nil {
		if err := b.frames.Close(); err != nil {
			return fmt.Errorf("web provider (frames drawn by the sessions) close: %v", err)
		}
	}
	if b.err != nil {
		return nil
	}
	if err := b.profiles.Leaks(); err != nil {
		return fmt.Errorf("web provider: %w", err)
	}
	return nil
}

// webEnv is one runner session on a fresh browser context.
type webEnv struct {
	sess *runner.Session
	base string
}

func newWebEnv(t *testing.T) *webEnv {
	t.Helper()
	webBrowser.once.Do(startWebBrowser)
	if webBrowser.err != nil {
		t.Fatalf("the web evidence tests need Chromium (apt-get install chromium, or ADTEST_CHROME=PATH): %v", webBrowser.err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	d, err := webBrowser.prov.NewSession(ctx, drivers.SessionOptions{})
	if err != nil {
		t.Fatalf("web NewSession: %v", err)
	}
	sess := runner.NewSession(d, runner.SessionConfig{Seed: 42, ArtifactsDir: t.TempDir()})
	t.Cleanup(func() { sess.Close(context.Background()) })
	return &webEnv{sess: sess, base: webBrowser.srv.URL}
}

// run dispatches one script line.
func (e *webEnv) run(t *testing.T, line string) (*runner.Output, *runner.ErrorInfo) {
	t.Helper()
	s, err := lang.Parse("web.ad", []byte(line+"\n"))
	if err != nil {
		t.Fatalf("parse %q: %v", line, err)
	}
	if len(s.Actions) != 1 {
		t.Fatalf("%q: want one action, got %d", line, len(s.Actions))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return e.sess.Dispatch(ctx, s.Actions[0])
}

// must dispatches a line that has to succeed.
func (e *webEnv) must(t *testing.T, line string) *runner.Output {
	t.Helper()
	out, er := e.run(t, line)
	if er != nil {
		t.Fatalf("%s: %s: %s (%s)", line, er.Code, er.Message, er.Reason)
	}
	return out
}

// fails dispatches a line that has to fail with code and reason.
func (e *webEnv) fails(t *testing.T, line, code, reason string) *runner.ErrorInfo {
	t.Helper()
	_, er := e.run(t, line)
	if er == nil {
		t.Fatalf("%s: succeeded, want %s (%s)", line, code, reason)
	}
	if er.Code != code || string(er.Reason) != reason {
		t.Fatalf("%s: %s (%s) %q, want %s (%s)", line, er.Code, er.Reason, er.Message, code, reason)
	}
	return er
}

// open loads a page of the served app.
func (e *webEnv) open(t *testing.T, page string) {
	t.Helper()
	e.must(t, "open "+e.base+"/"+page)
}

var refLine = regexp.MustCompile(`^\s*(@e\d+) .* id="([^"]+)"`)

// snapshot takes `snapshot -i` (a complete frame) and returns the refs by
// DOM id, and the frame's generation.
func (e *webEnv) snapshot(t *testing.T) (map[string]string, int64) {
	t.Helper()
	out := e.must(t, "snapshot -i")
	refs := map[string]string{}
	for _, l := range strings.Split(out.Text, "\n") {
		if m := refLine.FindStringSubmatch(l); m != nil {
			refs[m[2]] = m[1]
		}
	}
	return refs, e.sess.RefsGeneration()
}

// text reads the text of the element with a DOM id (a read: the frame is untouched).
func (e *webEnv) text(t *testing.T, id string) string {
	t.Helper()
	return e.must(t, "get text id="+id).Text
}

// expectExpired asserts the frame minted at gen expired exactly once: the
// generation advanced by one, a read of probe is a stale read, and a ref
// mutation of probe is rejected with ref_frame_expired before dispatch.
func (e *webEnv) expectExpired(t *testing.T, gen int64, probe string) {
	t.Helper()
	if got := e.sess.RefsGeneration(); got != gen+1 {
		t.Errorf("refsGeneration %d, want %d (expired once after %d)", got, gen+1, gen)
	}
	out := e.must(t, "get text "+probe)
	if !strings.Contains(out.Warning, "is stale") {
		t.Errorf("get text %s: warning %q, want a stale read", probe, out.Warning)
	}
	er := e.fails(t, "click "+probe, runner.CodeCommandFailed, "ref_frame_expired")
	if er.Details["ref"] != probe {
		t.Errorf("rejection names ref %v, want %s", er.Details["ref"], probe)
	}
}

// expectActive asserts the frame minted at gen is still active: same
// generation and a read of probe without a staleness warning.
func (e *webEnv) expectActive(t *testing.T, gen int64, probe string) {
	t.Helper()
	if got := e.sess.RefsGeneration(); got != gen {
		t.Errorf("refsGeneration %d, want %d (frame preserved)", got, gen)
	}
	out := e.must(t, "get text "+probe)
	if out.Warning != "" {
		t.Errorf("get text %s: warning %q, want none (frame active)", probe, out.Warning)
	}
}

func ref(t *testing.T, refs map[string]string, id string) string {
	t.Helper()
	r, ok := refs[id]
	if !ok {
		t.Fatalf("snapshot -i has no element with id %q: %v", id, refs)
	}
	return r
}

// (a) ref target: snapshot -i, click @eN, click @eM. The first click acts;
// the second is rejected with ref_frame_expired and never reaches the page.
func TestWebEvidenceRefTarget(t *testing.T) {
	t.Run("navigating click", func(t *testing.T) {
		e := newWebEnv(t)
		e.open(t, "tour.html")
		refs, gen := e.snapshot(t)
		e.must(t, "click "+ref(t, refs, "next-step"))
		e.must(t, `wait text "Step 2 of 2: the checkout desk." 5000`)
		er := e.fails(t, "click "+ref(t, refs, "skip"), runner.CodeCommandFailed, "ref_frame_expired")
		if er.Details["currentGeneration"] != gen+1 {
			t.Errorf("currentGeneration %v, want %d", er.Details["currentGeneration"], gen+1)
		}
		// "Skip the tour" would have gone to index.html.
		e.must(t, `is visible "text=\"Step 2 of 2: the checkout desk.\""`)
		if u := e.sess.LastSnapshot().URL; u != e.base+"/tour-2.html" {
			t.Errorf("page %s, want %s/tour-2.html", u, e.base)
		}
	})
	t.Run("same-document click", func(t *testing.T) {
		// The handle of the second element stays valid in the page, so
		// only the frame stands between the stale ref and a second click.
		e := newWebEnv(t)
		e.open(t, "playground.html")
		refs, _ := e.snapshot(t)
		e.must(t, "click "+ref(t, refs, "like"))
		if got := e.text(t, "event"); got != "Likes: 1" {
			t.Fatalf("after the first click: %q, want %q", got, "Likes: 1")
		}
		e.fails(t, "click "+ref(t, refs, "hold"), runner.CodeCommandFailed, "ref_frame_expired")
		e.fails(t, "click "+ref(t, refs, "like"), runner.CodeCommandFailed, "ref_frame_expired")
		if got := e.text(t, "event"); got != "Likes: 1" {
			t.Errorf("page shows %q, want %q: exactly one click reached the page", got, "Likes: 1")
		}
	})
}

// (b) selector target: every selector mutation expires the frame, and a
// selector action is never rejected because the frame expired.
func TestWebEvidenceSelectorTarget(t *testing.T) {
	for _, tc := range []struct {
		name, page, line, probe, id, want string
	}{
		{"click", "playground.html", "click id=like", "like", "event", "Likes: 1"},
		{"fill", "playground.html", `fill id=search "mugs"`, "like", "", ""},
		{"hover", "playground.html", "hover id=help", "like", "", ""},
		{"focus", "playground.html", "focus id=search", "like", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newWebEnv(t)
			e.open(t, tc.page)
			refs, gen := e.snapshot(t)
			probe := ref(t, refs, tc.probe)
			e.must(t, tc.line)
			e.expectExpired(t, gen, probe)
			// Expired frame: the same selector action is admitted again.
			e.must(t, tc.line)
			if got := e.sess.RefsGeneration(); got != gen+1 {
				t.Errorf("refsGeneration %d after the second action, want %d (idempotent while expired)", got, gen+1)
			}
			if tc.id != "" {
				if got := e.text(t, tc.id); got != "Likes: 2" {
					t.Errorf("page shows %q, want %q: both selector clicks acted", got, "Likes: 2")
				}
			}
		})
	}
}

// (c) coordinate target: a click at a point expires the frame and is never
// rejected because the frame expired.
func TestWebEvidenceCoordinateTarget(t *testing.T) {
	e := newWebEnv(t)
	e.open(t, "playground.html")
	refs, gen := e.snapshot(t)
	var like *drivers.Node
	for i, n := range e.sess.LastSnapshot().Nodes {
		if n.ID == "like" {
			like = &e.sess.LastSnapshot().Nodes[i]
		}
	}
	if like == nil {
		t.Fatal("no Like button in the snapshot")
	}
	c := like.Rect.Center()
	point := fmt.Sprintf("click %d %d", int(c.X), int(c.Y))
	e.must(t, point)
	if got := e.text(t, "event"); got != "Likes: 1" {
		t.Fatalf("after the point click: %q, want %q", got, "Likes: 1")
	}
	e.expectExpired(t, gen, ref(t, refs, "hold"))
	e.must(t, point)
	if got := e.text(t, "event"); got != "Likes: 2" {
		t.Errorf("page shows %q, want %q: both point clicks acted", got, "Likes: 2")
	}
	if got := e.sess.RefsGeneration(); got != gen+1 {
		t.Errorf("refsGeneration %d, want %d (idempotent while expired)", got, gen+1)
	}
}

// (d) alerts are fused requests: accept and dismiss expire the frame even
// when no alert is open; alert get preserves it.
func TestWebEvidenceAlerts(t *testing.T) {
	for _, tc := range []struct {
		line    string
		expires bool
		out     string
	}{
		{"alert accept", true, "alert accept"},
		{"alert dismiss", true, "alert dismiss"},
		{"alert get", false, "no alert"},
		{"alert", false, "no alert"},
	} {
		t.Run(tc.line, func(t *testing.T) {
			e := newWebEnv(t)
			e.open(t, "account.html")
			refs, gen := e.snapshot(t)
			if out := e.must(t, tc.line); out.Text != tc.out {
				t.Errorf("%s: %q, want %q", tc.line, out.Text, tc.out)
			}
			probe := ref(t, refs, "save")
			if tc.expires {
				e.expectExpired(t, gen, probe)
			} else {
				e.expectActive(t, gen, probe)
			}
		})
	}
	t.Run("open alert", func(t *testing.T) {
		// With a dialog open: get reads it without a seam, dismiss answers it.
		e := newWebEnv(t)
		e.open(t, "account.html")
		e.snapshot(t)
		e.must(t, "click id=delete")
		gen := e.sess.RefsGeneration()
		if out := e.must(t, "alert get"); out.Text != "Delete your account? This cannot be undone." {
			t.Errorf("alert get: %q", out.Text)
		}
		if got := e.sess.RefsGeneration(); got != gen {
			t.Errorf("alert get moved refsGeneration %d -> %d", gen, got)
		}
		e.must(t, "alert dismiss")
		if got := e.text(t, "account-status"); got != "Account kept" {
			t.Errorf("after alert dismiss: %q, want %q", got, "Account kept")
		}
	})
}

// (e) keyboard: dismiss and enter expire the frame even when nothing is
// focused; status and get preserve it.
func TestWebEvidenceKeyboard(t *testing.T) {
	for _, tc := range []struct {
		line    string
		expires bool
		out     string
	}{
		{"keyboard dismiss", true, "keyboard dismiss"},
		{"keyboard enter", true, "keyboard enter"},
		{"keyboard status", false, "keyboard visible: false"},
		{"keyboard get", false, "keyboard visible: false"},
	} {
		t.Run(tc.line, func(t *testing.T) {
			e := newWebEnv(t)
			e.open(t, "playground.html")
			refs, gen := e.snapshot(t)
			if out := e.must(t, tc.line); out.Text != tc.out {
				t.Errorf("%s: %q, want %q", tc.line, out.Text, tc.out)
			}
			if tc.expires {
				e.expectExpired(t, gen, ref(t, refs, "like"))
			} else {
				e.expectActive(t, gen, ref(t, refs, "like"))
			}
		})
	}
	t.Run("focused field", func(t *testing.T) {
		e := newWebEnv(t)
		e.open(t, "playground.html")
		e.must(t, `fill id=search "mugs"`)
		refs, gen := e.snapshot(t)
		if out := e.must(t, "keyboard status"); out.Text != "keyboard visible: true" {
			t.Errorf("keyboard status: %q, want %q", out.Text, "keyboard visible: true")
		}
		e.expectActive(t, gen, ref(t, refs, "like"))
		e.must(t, "keyboard enter")
		if got := e.text(t, "event"); got != "Searched for mugs" {
			t.Errorf("after keyboard enter: %q, want %q", got, "Searched for mugs")
		}
		e.expectExpired(t, gen, ref(t, refs, "like"))
	})
}

// (f) open on an existing session expires the frame before dispatch; when
// the navigation then fails, the frame stays expired (ADR 0014 item 16).
func TestWebEvidenceOpenExpires(t *testing.T) {
	// A port nobody listens on: the navigation fails with connection refused.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + l.Addr().String() + "/"
	l.Close()
	for _, tc := range []struct {
		name, line, reason, page string
	}{
		{"relaunch", "open --relaunch %s/tour.html", "", "/tour.html"},
		{"relaunch unreachable", "open --relaunch " + dead, "navigation_failed", ""},
		{"reopen unreachable", "open " + dead, "navigation_failed", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newWebEnv(t)
			e.open(t, "playground.html")
			refs, gen := e.snapshot(t)
			line := tc.line
			if strings.Contains(line, "%s") {
				line = fmt.Sprintf(line, e.base)
			}
			if tc.reason == "" {
				e.must(t, line)
			} else {
				e.fails(t, line, runner.CodeCommandFailed, tc.reason)
			}
			e.expectExpired(t, gen, ref(t, refs, "like"))
			if tc.page != "" {
				e.must(t, `wait text "Step 1 of 2: the entrance." 5000`)
				if u := e.sess.LastSnapshot().URL; u != e.base+tc.page {
					t.Errorf("page %s, want %s%s", u, e.base, tc.page)
				}
			}
		})
	}
}

// (g) a pre-seam failure (the web driver's Preflight: target_covered)
// leaves the frame active, and nothing reached the covered element.
func TestWebEvidenceCoveredPreservesFrame(t *testing.T) {
	for _, tc := range []struct{ name, target string }{
		{"ref", "ref"},
		{"selector", "id=buy"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newWebEnv(t)
			e.open(t, "evidence/covered.html")
			refs, gen := e.snapshot(t)
			target := tc.target
			if target == "ref" {
				target = ref(t, refs, "buy")
			}
			er := e.fails(t, "click "+target, runner.CodeCommandFailed, "target_covered")
			if !strings.Contains(er.Message, "is covered by") {
				t.Errorf("message %q does not name the covering element", er.Message)
			}
			e.expectActive(t, gen, ref(t, refs, "buy"))
			// The frame still authorizes a mutation: accept the banner by ref.
			e.must(t, "click "+ref(t, refs, "accept"))
			e.expectExpired(t, gen, ref(t, refs, "buy"))
			if got := e.text(t, "count"); got != "Buy clicks: 0" {
				t.Errorf("page shows %q, want %q: the covered click never reached the page", got, "Buy clicks: 0")
			}
			refs, _ = e.snapshot(t)
			e.must(t, "click "+ref(t, refs, "buy"))
			if got := e.text(t, "count"); got != "Buy clicks: 1" {
				t.Errorf("after the banner is gone: %q, want %q", got, "Buy clicks: 1")
			}
		})
	}
}
