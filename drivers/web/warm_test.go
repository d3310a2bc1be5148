package web

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/adtest/adtest/drivers"
)

var (
	warmProv     *Provider
	warmProvOnce sync.Once
)

// warmProvider is the package's provider in warm isolation.
func warmProvider(t testing.TB) *Provider {
	warmProvOnce.Do(func() {
		p, err := NewProvider(Options{Isolation: IsolationWarm})
		if err != nil {
			t.Fatal(err)
		}
		warmProv = p
	})
	if warmProv == nil {
		t.Fatal("no provider in warm isolation")
	}
	return warmProv
}

// seen opens warm.html on s and returns what it found of the tests before
// it ("nothing" when it found none of their traces).
func seen(t *testing.T, s *Session, query string) string {
	t.Helper()
	ctx := testCtx(t)
	if err := s.Open(ctx, drivers.OpenRequest{Target: srv.URL + "/warm.html" + query}); err != nil {
		t.Fatal(err)
	}
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		var str string
		if err := s.eval(ctx, "seen", `document.getElementById("seen").textContent`, &str); err != nil {
			t.Fatal(err)
		}
		if str != "reading" {
			return str
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			t.Fatal("warm.html did not say what it found")
		}
	}
}

// nextSession opens the worker's next session, as the suite does while a
// test runs.
func nextSession(t *testing.T, p *Provider, o drivers.SessionOptions) *Session {
	t.Helper()
	d, err := p.NewSession(testCtx(t), o)
	if err != nil {
		t.Fatal(err)
	}
	s := d.(*Session)
	t.Cleanup(func() { s.Close(context.Background()) })
	return s
}

// A worker's tests in warm isolation share its browser context and find
// of what the tests before them left (cookies, local and session storage,
// IndexedDB, history) what a test in a fresh browser context finds:
// nothing. Each test's session is opened while the one before runs, as
// the suite does.
func TestWarmSessionsFindNothingOfTheOnesBefore(t *testing.T) {
	fresh := session(t, "")
	want, want2 := seen(t, fresh, ""), seen(t, fresh, "?again")
	if want != "history 2" || want2 != "cookie,local,session,indexeddb,history 3" {
		// The page's own check: a fresh context's first page has the
		// tab's first entry and its own in its history; the second finds
		// what the first left.
		t.Fatalf("a fresh session's pages found %q and %q", want, want2)
	}
	p := warmProvider(t)
	next := nextSession(t, p, drivers.SessionOptions{Worker: 3})
	var ctxID cdp.BrowserContextID
	for i := range 8 {
		s := next
		next = nextSession(t, p, drivers.SessionOptions{Worker: 3})
		if s.warmContext() == nil {
			t.Fatal("the session is not in its worker's warm context")
		}
		if id := s.browserContextID(); i > 0 && id != ctxID {
			t.Fatalf("test %d is in browser context %s, the one before in %s: the context was not kept", i, id, ctxID)
		} else {
			ctxID = id
		}
		if got := seen(t, s, ""); got != want {
			t.Fatalf("test %d found %q of the tests before it, a fresh context %q", i, got, want)
		}
		if got := seen(t, s, "?again"); got != want2 {
			t.Fatalf("test %d: its second page found %q, a fresh context's %q", i, got, want2)
		}
		s.Close(context.Background())
	}
}

// A retry's session (SessionOptions.Fresh) has a browser context of its
// own, not the worker's warm one.
func TestWarmRetryIsFresh(t *testing.T) {
	p := warmProvider(t)
	warm := nextSession(t, p, drivers.SessionOptions{Worker: 4})
	seen(t, warm, "")
	fresh := nextSession(t, p, drivers.SessionOptions{Worker: 4, Fresh: true})
	if fresh.warmContext() != nil || fresh.browserContextID() == warm.browserContextID() {
		t.Fatalf("a Fresh session shares the worker's warm browser context %s", warm.browserContextID())
	}
	if got := seen(t, fresh, ""); got != "history 2" {
		t.Fatalf("a Fresh session found %s", got)
	}
}

// contextPages lists the URLs of the pages of browser context id.
func contextPages(t *testing.T, p *Provider, id cdp.BrowserContextID) []string {
	t.Helper()
	b := p.shared
	res, err := cdp.Call(testCtx(t), chromedp.FromContext(b.ctx).Browser, target.GetTargets, target.GetTargetsParams{})
	if err != nil {
		t.Fatal(err)
	}
	var urls []string
	for _, ti := range res.TargetInfos {
		if ti.BrowserContextID == id && ti.Type == "page" {
			urls = append(urls, ti.URL)
		}
	}
	return urls
}

// The pages a test opened (a popup) close when it ends; a page that asks
// before it is left (beforeunload) does not hold the next test up.
func TestWarmTestLeavesNoPages(t *testing.T) {
	p := warmProvider(t)
	s := nextSession(t, p, drivers.SessionOptions{Worker: 5})
	seen(t, s, "")
	for _, id := range []string{"popup", "leave"} {
		n := find(t, snap(t, s, drivers.SnapshotOptions{}), "button", map[string]string{"popup": "Open a popup", "leave": "Ask before leaving"}[id])
		if err := s.Act(testCtx(t), tap(n)); err != nil {
			t.Fatal(err)
		}
	}
	ctxID := s.browserContextID()
	// (The context also holds the worker's parked page, at about:blank.)
	waitFor(t, "the popup to open", func() bool {
		return slices.ContainsFunc(contextPages(t, p, ctxID), func(u string) bool { return strings.Contains(u, "?popup") })
	})
	next := nextSession(t, p, drivers.SessionOptions{Worker: 5})
	s.Close(context.Background())
	if got := seen(t, next, ""); got != "history 2" {
		t.Fatalf("the next test found %s", got)
	}
	if next.browserContextID() != ctxID {
		t.Fatal("the worker's browser context was thrown away: the test's popup and its question on leaving were not dealt with")
	}
	for _, u := range contextPages(t, p, next.browserContextID()) {
		if strings.Contains(u, "?popup") {
			t.Fatalf("the popup of the test before is still open: %s", u)
		}
	}
}

// A test that leaves todos in TodoMVC's local storage leaves none to the
// next test's page of the app, even as the page's first script reads it:
// the renderer the two pages share keeps a copy of the origin's storage
// (without the page emptying it itself, 50 of 135 TodoMVC tests found the
// todos of the one before at their start).
func TestWarmTodosDoNotReachTheNextPage(t *testing.T) {
	url := todomvcServer(t)
	p := warmProvider(t)
	var wg sync.WaitGroup
	for w := 10; w < 12; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx := testCtx(t)
			next, err := p.NewSession(ctx, drivers.SessionOptions{Worker: w})
			if err != nil {
				t.Error(err)
				return
			}
			for i := range 12 {
				s := next.(*Session)
				if next, err = p.NewSession(ctx, drivers.SessionOptions{Worker: w}); err != nil {
					t.Error(err)
					return
				}
				if err := addTodos(ctx, s, url); err != nil {
					t.Errorf("worker %d, test %d: %v", w, i, err)
					return
				}
				s.Close(context.Background())
			}
			next.Close(context.Background())
		}()
	}
	wg.Wait()
}

// addTodos opens TodoMVC on s, checks that the page's first script found
// its local storage empty, and adds two todos.
func addTodos(ctx context.Context, s *Session, url string) error {
	// What the page's first script finds, kept where the driver's world
	// can read it (a data attribute is gone with the document's element
	// at that point; session storage is the tab's own).
	if err := s.do(ctx, "probe", func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
			Source: `sessionStorage.setItem("found", String(localStorage.length))`})
		return err
	}); err != nil {
		return err
	}
	if err := s.Open(ctx, drivers.OpenRequest{Target: url}); err != nil {
		return err
	}
	var found string
	if err := s.eval(ctx, "found", `sessionStorage.getItem("found")`, &found); err != nil {
		return err
	}
	if found != "0" {
		return fmt.Errorf("the page's first script found %s items of the tests before in local storage", found)
	}
	for _, todo := range []string{"buy milk", "walk the dog"} {
		field := findNode(s, ctx, "textbox", "What needs to be done?")
		if field == nil {
			return fmt.Errorf("no new-todo field")
		}
		if err := s.Act(ctx, drivers.Action{Kind: drivers.ActFill, Target: &drivers.Target{Node: field}, Text: todo}); err != nil {
			return err
		}
		if err := s.Act(ctx, drivers.Action{Kind: drivers.ActKey, Key: "enter"}); err != nil {
			return err
		}
	}
	return nil
}

// findNode is the node of role and name in a snapshot of s, or nil.
func findNode(s *Session, ctx context.Context, role, name string) *drivers.Node {
	sn, err := s.Snapshot(ctx, drivers.SnapshotOptions{})
	if err != nil {
		return nil
	}
	for i := range sn.Nodes {
		if n := &sn.Nodes[i]; n.Role == role && (n.Label == name || n.Text == name) {
			return &sn.Nodes[i]
		}
	}
	return nil
}

// Closing a page while another page of its renderer runs an app can break
// that app: in Chromium 14x angular-dart's (a dart2js app's) submit handler
// then no longer knows its event (NoSuchMethodError on preventDefault), the
// form submits and the todo is gone with the reload. Warm isolation closes
// the last test's parked page only while no test's page is live (recycle).
// Red when the parked page was closed once the next test's page had loaded.
func TestWarmAppSurvivesTheParkedPagesClose(t *testing.T) {
	url := strings.Replace(todomvcServer(t), "/backbone/index.html", "/angular-dart/web/index.html", 1)
	p := warmProvider(t)
	ctx := testCtx(t)
	next, err := p.NewSession(ctx, drivers.SessionOptions{Worker: 20})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { next.Close(context.Background()) }()
	for i := range 3 {
		s := next.(*Session)
		if next, err = p.NewSession(ctx, drivers.SessionOptions{Worker: 20}); err != nil {
			t.Fatal(err)
		}
		if err := s.Open(ctx, drivers.OpenRequest{Target: url}); err != nil {
			t.Fatal(err)
		}
		// A blank todo (the app ignores it), then one it keeps.
		for _, todo := range []string{"   ", "walk the dog"} {
			field := findNode(s, ctx, "textbox", "What needs to be done?")
			if field == nil {
				t.Fatalf("test %d: no new-todo field", i)
			}
			if err := s.Act(ctx, drivers.Action{Kind: drivers.ActFill, Target: &drivers.Target{Node: field}, Text: todo}); err != nil {
				t.Fatal(err)
			}
			if err := s.Act(ctx, drivers.Action{Kind: drivers.ActKey, Key: "enter"}); err != nil {
				t.Fatal(err)
			}
		}
		if !awaitText(ctx, s, "walk the dog") {
			t.Fatalf("test %d of the worker: the todo is not on the page", i)
		}
		s.Close(context.Background())
	}
}

// awaitText reports whether a snapshot of s shows text within 2 s, one
// rendered frame between two snapshots.
func awaitText(ctx context.Context, s *Session, text string) bool {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		if sn, err := s.Snapshot(ctx, drivers.SnapshotOptions{}); err == nil {
			for i := range sn.Nodes {
				if n := &sn.Nodes[i]; n.Label == text || n.Text == text {
					return true
				}
			}
		}
		if err := s.awaitFrame(ctx, frameExpr); err != nil {
			return false
		}
	}
	return false
}
