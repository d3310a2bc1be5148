package repair

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers"
	webdrv "github.com/adtest/adtest/drivers/web"
	"github.com/adtest/adtest/internal/testsupport/webtest"
	"github.com/adtest/adtest/runner"
)

// The drift corpus on the web: a one-page shop in real Chromium, changed
// the ways its markup drifts. One browser serves the test binary; TestMain
// closes it and fails the binary when a Chromium process or profile
// directory outlives it.

const webApp = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Shop</title></head>
<body><main>
<h1>Shop</h1>
<section aria-label="Account">
  <label>Email <input id="email" type="text"></label>
  <button type="button" id="signin" onclick="say('Signed in')">Sign in</button>
</section>
<section aria-label="Cart">
  <button type="button" id="buy" onclick="say('Bought')">Buy now</button>
  <button type="button" id="menu" onclick="say('Menu open')">☰</button>
</section>
<p id="status" role="status"></p>
</main>
<script>function say(t) { document.getElementById('status').textContent = t; }</script>
</body></html>
`

const webScript = `context platform=web
open "{{BASE}}/app.html"
fill "role=textbox label=\"Email\"" "ada@example.com"
click "role=button label=\"Sign in\""
wait text "Signed in" 3000
click "role=button label=\"Buy now\""
wait text "Bought" 3000
click "role=button label=\"☰\""
wait text "Menu open" 3000
`

// webForm is a contact form; webFormScript the flow as a person writes it
// by hand (bare labels, no role, no annotation).
const webForm = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Contact</title></head>
<body><main>
<h1>Contact</h1>
<form aria-label="Contact" onsubmit="return false">
  <label>Name <input id="name" type="text"></label>
  <button type="button" id="submit" onclick="say('Thanks, ' + document.getElementById('name').value)">Submit</button>
</form>
<p id="status" role="status"></p>
</main>
<script>function say(t) { document.getElementById('status').textContent = t; }</script>
</body></html>
`

const webFormScript = `context platform=web
open "{{BASE}}/app.html"
fill "label=Name" "Ada"
click "label=Submit"
wait text "Thanks, Ada" 3000
`

func webCorpus(t testing.TB) []driftCase {
	renamed := edit(t, webForm, `<label>Name <input`, `<label>Full name <input`, `>Submit</button>`, `>Send</button>`)
	buyNoID := edit(t, webApp, `id="buy" `, ``)
	return []driftCase{
		{name: "renamed label, id kept", script: webScript, want: "repaired", hit: []string{"signin"},
			drift: edit(t, webApp, `onclick="say('Signed in')">Sign in<`, `onclick="say('Signed in')">Log in<`)},
		{name: "changed id, label kept", script: webScript, want: "repaired", hit: []string{"buy-now"},
			drift: edit(t, webApp, `id="buy"`, `id="buy-now"`)},
		{name: "wrapped in a new container", script: webScript, want: "repaired", hit: []string{"buy"},
			drift: edit(t, webApp, "  <button type=\"button\" id=\"buy\" onclick=\"say('Bought')\">Buy now</button>\n",
				"  <section aria-label=\"Promo\"><button type=\"button\" id=\"buy\" onclick=\"say('Bought')\">Buy now</button></section>\n")},
		{name: "moved to another section", script: webScript, want: "repaired", hit: []string{"buy"},
			drift: edit(t, webApp, "  <button type=\"button\" id=\"buy\" onclick=\"say('Bought')\">Buy now</button>\n", "",
				"Sign in</button>\n", "Sign in</button>\n  <button type=\"button\" id=\"buy\" onclick=\"say('Bought')\">Buy now</button>\n")},
		{name: "icon button gained an aria-label", script: webScript, want: "repaired", hit: []string{"menu"},
			drift: edit(t, webApp, `id="menu" onclick`, `id="menu" aria-label="Open menu" onclick`)},
		{name: "changed assertion text", script: webScript, want: "refused", why: "real failure",
			drift: edit(t, webApp, `say('Signed in')`, `say('Welcome back')`)},
		{name: "duplicate label appearing", script: webScript, want: "refused", why: "ambiguous",
			app:   buyNoID,
			drift: edit(t, buyNoID, "Sign in</button>\n", "Sign in</button>\n  <button type=\"button\" onclick=\"say('Bought')\">Buy now</button>\n")},
		{name: "hand-written: field and button renamed, ids kept", script: webFormScript, app: webForm, plain: true, want: "repaired", hit: []string{"name", "submit"},
			drift: renamed},
		{name: "hand-written: the form moved beside an unrelated same-named button", script: webFormScript, app: webForm, plain: true, want: "repaired", hit: []string{"name", "submit"},
			drift: edit(t, renamed, "<form ", "<section aria-label=\"Newsletter\"><button type=\"button\" id=\"newsletter\" onclick=\"say('Subscribed')\">Send</button></section>\n<section aria-label=\"Support\"><form ",
				"</form>", "</form></section>")},
		{name: "hand-written: another button holds the old words", script: webFormScript, app: webForm, plain: true, want: "refused", why: "2 actionable elements share",
			drift: edit(t, renamed, "<form ", "<button type=\"button\" onclick=\"say('Sorry')\">Submit feedback</button>\n<form ")},
		{name: "element removed", script: webScript, want: "refused", why: "shares an id, label or text",
			drift: edit(t, webApp, "  <button type=\"button\" id=\"buy\" onclick=\"say('Bought')\">Buy now</button>\n", "")},
	}
}

// webBrowser is the one browser of the test binary, started on first use;
// page is the HTML /app.html serves (the corpus runs one case at a time).
var webBrowser struct {
	once     sync.Once
	prov     *webdrv.Provider
	srv      *httptest.Server
	err      error
	profiles webtest.ProfileRecorder
	mu       sync.Mutex
	page     string
}

func startWebBrowser() {
	b := &webBrowser
	b.prov, b.err = webdrv.NewProvider(webdrv.Options{Logf: b.profiles.Logf})
	b.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b.mu.Lock()
		page := b.page
		b.mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		fmt.Fprint(w, page)
	}))
}

func TestMain(m *testing.M) {
	code := m.Run()
	b := &webBrowser
	if b.srv != nil {
		b.srv.Close()
	}
	if b.prov != nil {
		if err := b.prov.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "web provider close:", err)
			code = 1
		} else if b.err == nil {
			if err := b.profiles.Leaks(); err != nil {
				fmt.Fprintln(os.Stderr, err)
				code = 1
			}
		}
	}
	os.Exit(code)
}

type webRig struct{}

func (webRig) base() string { return webApp }

func (webRig) script(src string) string {
	return strings.ReplaceAll(src, "{{BASE}}", webBrowser.srv.URL)
}

func (webRig) open(t testing.TB, app string, j runner.Journal) *runner.Session {
	t.Helper()
	webBrowser.mu.Lock()
	webBrowser.page = app
	webBrowser.mu.Unlock()
	// A browser start on a loaded machine is not a step: the suite's own
	// session-start bound.
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	d, err := webBrowser.prov.NewSession(ctx, drivers.SessionOptions{})
	if err != nil {
		t.Fatalf("web NewSession: %v", err)
	}
	s := runner.NewSession(d, runner.SessionConfig{Seed: 7, ArtifactsDir: t.TempDir(), Hooks: journalHooks(j), ReadinessTimeout: 500 * time.Millisecond})
	t.Cleanup(func() { s.Close(context.Background()) })
	return s
}

func TestWebDriftCorpus(t *testing.T) {
	webBrowser.once.Do(startWebBrowser)
	if webBrowser.err != nil {
		t.Fatalf("the web drift corpus needs Chromium (apt-get install chromium, or ADTEST_CHROME=PATH): %v", webBrowser.err)
	}
	runCorpus(t, webRig{}, webCorpus(t))
}
