package web

import (
	"testing"

	"github.com/adtest/adtest/drivers"
	"github.com/sebdah/goldie/v2"
)

func TestSnapshotGolden(t *testing.T) {
	t.Parallel()
	s := session(t, "basic.html")
	g := goldie.New(t)
	for _, tc := range []struct {
		name string
		opts drivers.SnapshotOptions
	}{
		{"basic_full", drivers.SnapshotOptions{}},
		{"basic_interactive", drivers.SnapshotOptions{Interactive: true}},
		{"basic_depth2", drivers.SnapshotOptions{Depth: 2}},
		{"basic_scope_login", drivers.SnapshotOptions{Scope: "login form", Interactive: true}},
		{"basic_raw", drivers.SnapshotOptions{Raw: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g.Assert(t, tc.name, []byte(dump(snap(t, s, tc.opts))))
		})
	}
}

func TestFilterNodes(t *testing.T) {
	t.Parallel()
	// a tree: 0 main > 1 text, 2 form > 3 button, 4 group > 5 textbox; 6 link
	full := []drivers.Node{
		{Role: "main", Parent: -1, Depth: 0},
		{Role: "text", Text: "Hello", Parent: 0, Depth: 1},
		{Role: "form", Label: "Login", Parent: 0, Depth: 1},
		{Role: "button", Label: "Go", Interactive: true, Parent: 2, Depth: 2},
		{Role: "group", Parent: 2, Depth: 2},
		{Role: "textbox", Label: "Email", Interactive: true, Parent: 4, Depth: 3},
		{Role: "link", Label: "Docs", Interactive: true, Parent: -1, Depth: 0},
	}
	type pd struct {
		role          string
		parent, depth int
	}
	for _, tc := range []struct {
		name string
		opts drivers.SnapshotOptions
		want []pd
	}{
		{"no options keeps all", drivers.SnapshotOptions{}, []pd{{"main", -1, 0}, {"text", 0, 1}, {"form", 0, 1}, {"button", 2, 2}, {"group", 2, 2}, {"textbox", 4, 3}, {"link", -1, 0}}},
		{"interactive are roots in document order", drivers.SnapshotOptions{Interactive: true}, []pd{{"button", -1, 0}, {"textbox", -1, 0}, {"link", -1, 0}}},
		{"depth 2 keeps two levels", drivers.SnapshotOptions{Depth: 2}, []pd{{"main", -1, 0}, {"text", 0, 1}, {"form", 0, 1}, {"link", -1, 0}}},
		{"scope is the subtree, rebased", drivers.SnapshotOptions{Scope: "login"}, []pd{{"form", -1, 0}, {"button", 0, 1}, {"group", 0, 1}, {"textbox", 2, 2}}},
		{"scope by substring of text", drivers.SnapshotOptions{Scope: "ell"}, []pd{{"text", -1, 0}}},
		{"scope and interactive", drivers.SnapshotOptions{Scope: "Login", Interactive: true}, []pd{{"button", -1, 0}, {"textbox", -1, 0}}},
		{"scope that matches nothing", drivers.SnapshotOptions{Scope: "nope"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := filterNodes(append([]drivers.Node(nil), full...), tc.opts)
			var gotPD []pd
			for _, n := range got {
				gotPD = append(gotPD, pd{n.Role, n.Parent, n.Depth})
			}
			if len(gotPD) != len(tc.want) {
				t.Fatalf("got %v, want %v", gotPD, tc.want)
			}
			for i := range gotPD {
				if gotPD[i] != tc.want[i] {
					t.Fatalf("got %v, want %v", gotPD, tc.want)
				}
			}
		})
	}
}

func TestSnapshotStaticTextAndRefsOrder(t *testing.T) {
	t.Parallel()
	s := session(t, "basic.html")
	sn := snap(t, s, drivers.SnapshotOptions{})
	p := find(t, sn, "text", "Hello Ada")
	if !p.Visible || p.Rect.Empty() {
		t.Errorf("paragraph node %+v: want visible with a rect", *p)
	}
	for _, n := range sn.Nodes {
		if n.Text == "Secret text" {
			t.Errorf("display:none text is in the snapshot: %+v", n)
		}
	}
	// Below the fold: not in view (Visible), but rendered (not Hidden), so
	// `is visible` holds as in Playwright.
	far := find(t, sn, "text", "Far away")
	if far.Visible || far.Hidden {
		t.Errorf("off-screen node: visible=%v hidden=%v, want neither", far.Visible, far.Hidden)
	}
	if sn.Title != "Basic" || sn.Viewport.Width <= 0 || sn.Viewport.Height <= 0 {
		t.Errorf("title %q viewport %+v", sn.Title, sn.Viewport)
	}
	// handles are unique and stable between two snapshots of the same page
	again := snap(t, s, drivers.SnapshotOptions{})
	seen := map[string]bool{}
	for i, n := range sn.Nodes {
		if n.Handle == "" || seen[n.Handle] {
			t.Fatalf("node %d handle %q empty or repeated", i, n.Handle)
		}
		seen[n.Handle] = true
		if again.Nodes[i].Handle != n.Handle {
			t.Errorf("node %d handle changed %q -> %q", i, n.Handle, again.Nodes[i].Handle)
		}
	}
}

func TestNormalizeURL(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"http://127.0.0.1:8080/a", "http://127.0.0.1:8080/a"},
		{"https://example.com", "https://example.com"},
		{"example.com/shop", "http://example.com/shop"},
		{"localhost:8080/login.html", "http://localhost:8080/login.html"},
		{"about:blank", "about:blank"},
		{"data:text/html,<p>hi</p>", "data:text/html,<p>hi</p>"},
		{"file:///tmp/x.html", "file:///tmp/x.html"},
	} {
		if got := normalizeURL(tc.in); got != tc.want {
			t.Errorf("normalizeURL(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
