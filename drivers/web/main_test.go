package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers"
)

// One browser for the package (ADR 0002: a warm helper per run).
var (
	prov *Provider
	srv  *httptest.Server
	// frames is a provider whose sessions draw their pages' frames
	// (Options.FrameControl), started on first use (framesProvider).
	framesProv *Provider
	framesOnce sync.Once
)

// framesProvider is the package's provider whose sessions draw their
// pages' frames.
func framesProvider(t testing.TB) *Provider {
	framesOnce.Do(func() {
		p, err := NewProvider(Options{FrameControl: true})
		if err != nil {
			t.Fatal(err)
		}
		framesProv = p
	})
	if framesProv == nil {
		t.Fatal("no provider with frames drawn by the sessions")
	}
	return framesProv
}

func TestMain(m *testing.M) {
	// ADTEST_TEST_FRAME_CONTROL=1 runs every test on pages whose frames
	// the sessions draw (as a run that records traces has them).
	p, err := NewProvider(Options{FrameControl: os.Getenv("ADTEST_TEST_FRAME_CONTROL") == "1"})
	if err != nil {
		fmt.Fprintf(os.Stderr, "drivers/web tests need Chromium (apt-get install chromium, or ADTEST_CHROME=PATH): %v\n", err)
		os.Exit(1)
	}
	prov = p
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.Dir("testdata")))
	// The example app and the example tests' pages (the names property
	// test and the snapshot benchmark read them).
	mux.Handle("/ex/", http.StripPrefix("/ex/", http.FileServer(http.Dir("../../examples/web"))))
	mux.HandleFunc("/many", manyHandler)
	mux.HandleFunc("/slow", slowHandler)
	srv = httptest.NewServer(mux)
	code := m.Run()
	srv.Close()
	all := prov.all
	if err := prov.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "provider close:", err)
		code = 1
	}
	if framesProv != nil {
		all = append(all, framesProv.all...)
		if err := framesProv.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "provider (frames drawn by the sessions) close:", err)
			code = 1
		}
	}
	if leaks := leftovers(all); leaks != "" {
		fmt.Fprintln(os.Stderr, "leak after Close:", leaks)
		code = 1
	}
	os.Exit(code)
}

// leftovers describes processes or profile directories of the given browsers
// that still exist.
func leftovers(all []*browserProc) string {
	dirs := make([]string, len(all))
	for i, b := range all {
		dirs[i] = b.dataDir
	}
	return ProfileLeftovers(dirs)
}

// slowHandler answers after ms milliseconds (default 400) with a page
// titled "Slow": a navigation to it stays in flight that long.
func slowHandler(w http.ResponseWriter, r *http.Request) {
	ms := 400
	fmt.Sscan(r.URL.Query().Get("ms"), &ms)
	t := time.NewTimer(time.Duration(ms) * time.Millisecond)
	defer t.Stop()
	select {
	case <-t.C:
	case <-r.Context().Done():
		return
	}
	w.Header().Set("Content-Type", "text/html")
	w.Write([]byte("<!doctype html><html><head><title>Slow</title></head><body><h1>Slow page</h1></body></html>"))
}

// manyHandler serves a page with n buttons (default 1000).
func manyHandler(w http.ResponseWriter, r *http.Request) {
	n := 1000
	fmt.Sscan(r.URL.Query().Get("n"), &n)
	var b strings.Builder
	b.WriteString("<!doctype html><html><head><title>Many</title></head><body><main>")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "<div class=row><span>Row %d</span> <button id=b%d>Button %d</button></div>", i, i, i)
	}
	b.WriteString("</main></body></html>")
	w.Header().Set("Content-Type", "text/html")
	w.Write([]byte(b.String()))
}

func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// startsCtx is testCtx for a test that starts browsers: each start may
// take the provider's startTimeout, and a bound of the test's below that
// fails it on a loaded machine where the product would not have failed.
func startsCtx(t testing.TB, starts int) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(starts)*startTimeout+30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// session opens a fresh session of the shared provider on path of the test
// server and closes it when the test ends.
func session(t testing.TB, path string) *Session {
	t.Helper()
	s := openSession(t, prov, path)
	t.Cleanup(func() { s.Close(context.Background()) })
	return s
}

// openSession opens a fresh session of p, on path of the test server unless
// path is "". Closing it is left to the caller (or to p.Close).
func openSession(t testing.TB, p *Provider, path string) *Session {
	t.Helper()
	ctx := startsCtx(t, 1) // the provider's first session starts its browser
	d, err := p.NewSession(ctx, drivers.SessionOptions{})
	if err != nil {
		t.Fatalf("NewSession: %v", err)
	}
	s := d.(*Session)
	if path != "" {
		if err := s.Open(ctx, drivers.OpenRequest{Target: srv.URL + "/" + path}); err != nil {
			t.Fatalf("Open %s: %v", path, err)
		}
	}
	return s
}

// open (re)loads path of the test server in s.
func open(t testing.TB, s *Session, path string) {
	t.Helper()
	if err := s.Open(testCtx(t), drivers.OpenRequest{Target: srv.URL + "/" + path}); err != nil {
		t.Fatalf("Open %s: %v", path, err)
	}
}

func snap(t testing.TB, s *Session, opts drivers.SnapshotOptions) *drivers.Snapshot {
	t.Helper()
	sn, err := s.Snapshot(testCtx(t), opts)
	if err != nil {
		t.Fatalf("Snapshot: %v", err)
	}
	return sn
}

// find returns the first node with role and label (or text).
func find(t testing.TB, sn *drivers.Snapshot, role, name string) *drivers.Node {
	t.Helper()
	for i := range sn.Nodes {
		n := &sn.Nodes[i]
		if n.Role == role && (n.Label == name || n.Text == name) {
			return n
		}
	}
	t.Fatalf("no %s %q in snapshot:\n%s", role, name, dump(sn))
	return nil
}

// textOf returns the text of the node with DOM id.
func textByID(t testing.TB, s *Session, id string) string {
	t.Helper()
	sn := snap(t, s, drivers.SnapshotOptions{})
	for _, n := range sn.Nodes {
		if n.ID == id {
			return n.Text
		}
	}
	t.Fatalf("no node with id %q:\n%s", id, dump(sn))
	return ""
}

// waitText polls until the node with DOM id shows want.
func waitText(t testing.TB, s *Session, id, want string) {
	t.Helper()
	ctx := testCtx(t)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	got := ""
	for {
		got = textByID(t, s, id)
		if got == want {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("#%s shows %q, want %q", id, got, want)
		case <-tick.C:
		}
	}
}

func tap(n *drivers.Node) drivers.Action {
	return drivers.Action{Kind: drivers.ActTap, Target: &drivers.Target{Node: n, Point: n.Rect.Center()}}
}

// dump renders a snapshot one node per line, without rectangles.
func dump(sn *drivers.Snapshot) string {
	var b strings.Builder
	for _, n := range sn.Nodes {
		b.WriteString(strings.Repeat("  ", n.Depth))
		b.WriteString(n.Role)
		for _, kv := range [][2]string{{"label", n.Label}, {"id", n.ID}, {"text", n.Text}, {"value", n.Value}} {
			if kv[1] != "" {
				fmt.Fprintf(&b, " %s=%q", kv[0], kv[1])
			}
		}
		for _, st := range []struct {
			on   bool
			name string
		}{{n.Visible, "visible"}, {n.Hidden, "hidden"}, {n.Editable, "editable"}, {n.Selected, "selected"}, {n.Focused, "focused"}, {!n.Enabled, "disabled"}, {n.Hittable, "hittable"}, {n.Interactive, "interactive"}, {n.Part, "part"}, {n.Unseen != "", "unseen:" + n.Unseen}} {
			if st.on {
				b.WriteString(" " + st.name)
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

func targetReason(err error) string {
	var te *drivers.TargetError
	if errors.As(err, &te) {
		return string(te.Reason)
	}
	return ""
}
