package web_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/examples/internal/suiterun"
	web "github.com/adtest/adtest/examples/web"
	"github.com/adtest/adtest/lang"
)

func TestHandlerServesThePages(t *testing.T) {
	srv := httptest.NewServer(web.Handler())
	defer srv.Close()
	for _, tc := range []struct{ path, title string }{
		{"/", "<title>Acme Shop</title>"},
		{"/login.html", "<title>Sign in · Acme Shop</title>"},
		{"/hello.html", "<title>Welcome · Acme Shop</title>"},
		{"/checkout.html", "<title>Checkout · Acme Shop</title>"},
		{"/catalog.html", "<title>Catalog · Acme Shop</title>"},
		{"/account.html", "<title>Account · Acme Shop</title>"},
		{"/tour.html", "<title>Store tour · Acme Shop</title>"},
		{"/tour-2.html", "<title>Store tour, step 2 · Acme Shop</title>"},
		{"/orders.html", "<title>Orders · Acme Shop</title>"},
		{"/playground.html", "<title>Playground · Acme Shop</title>"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			resp, err := http.Get(srv.URL + tc.path)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || !strings.Contains(string(body), tc.title) {
				t.Errorf("status %d, body without %q", resp.StatusCode, tc.title)
			}
		})
	}
}

func suiteFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("suite/*.ad")
	if err != nil || len(files) == 0 {
		t.Fatalf("no suite files: %v", err)
	}
	return files
}

// TestSuiteIsWellFormed: every script starts with `context platform=web`,
// opens the served app first, and checks clean; login.ad has 11 steps; the
// suite uses every command the web platform supports.
func TestSuiteIsWellFormed(t *testing.T) {
	used := map[string]bool{}
	for _, f := range suiteFiles(t) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, diags := lang.CheckSource(f, src, lang.CheckOptions{Platform: drivers.PlatformWeb})
		for _, d := range diags {
			if d.Severity == lang.SeverityError {
				t.Errorf("%s", d.Format(f))
			}
		}
		if s == nil {
			continue
		}
		if first, _, _ := strings.Cut(string(src), "\n"); !strings.HasPrefix(first, "context platform=web") {
			t.Errorf("%s starts with %q, want context platform=web", f, first)
		}
		if len(s.Actions) == 0 || s.Actions[0].Command != "open" || !strings.HasPrefix(s.Actions[0].Positionals[0], "${AD_BASE_URL}/") {
			t.Errorf("%s: the first step must open ${AD_BASE_URL}/...", f)
		}
		if filepath.Base(f) == "login.ad" && len(s.Actions) != 11 {
			t.Errorf("login.ad has %d steps, want 11", len(s.Actions))
		}
		for _, a := range s.Actions {
			used[a.Command] = true
		}
	}
	want := []string{"alert", "appstate", "back", "click", "close", "fill", "find", "focus", "gesture", "get", "hover",
		"is", "keyboard", "open", "press", "screenshot", "scroll", "snapshot", "swipe", "type", "viewport", "wait"}
	var missing []string
	for _, c := range want {
		if !used[c] {
			missing = append(missing, c)
		}
	}
	if len(missing) > 0 {
		t.Errorf("the suite never uses %v", missing)
	}
}

// TestSuitePassesOnChromium runs the whole suite against the served app on
// real Chromium through the suite runner, as `adtest run --serve-example`.
func TestSuitePassesOnChromium(t *testing.T) {
	srv := httptest.NewServer(web.Handler())
	defer srv.Close()
	cwd, _ := os.Getwd()
	res := suiterun.Run(t, suiterun.Options{Name: "test", Workers: 1, Cwd: cwd, BaseURL: srv.URL}, suiterun.Discover(t, cwd, "suite"))
	var names []string
	for _, tr := range res.Tests {
		names = append(names, filepath.Base(tr.File))
		if tr.Status != "passed" {
			msg := ""
			if n := len(tr.Attempts); n > 0 && tr.Attempts[n-1].Error != nil {
				e := tr.Attempts[n-1].Error
				msg = e.Message
			}
			t.Errorf("%s: %s: %s", tr.File, tr.Status, msg)
		}
	}
	sort.Strings(names)
	files := suiteFiles(t)
	for i := range files {
		files[i] = filepath.Base(files[i])
	}
	if !slices.Equal(names, files) {
		t.Errorf("ran %v, want %v", names, files)
	}
}
