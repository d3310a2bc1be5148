package web

// Issue 16, cause 3: the snapshot shows text and structure as a person
// reads the page.

import (
	"testing"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner/match"
)

// nodeByID returns the node with DOM id, or nil.
func nodeByID(sn *drivers.Snapshot, id string) *drivers.Node {
	for i := range sn.Nodes {
		if sn.Nodes[i].ID == id {
			return &sn.Nodes[i]
		}
	}
	return nil
}

// TestSnapshotTextRuns: an element read as one piece of text is one node
// with that text, its inline parts joined as rendered.
func TestSnapshotTextRuns(t *testing.T) {
	t.Parallel()
	s := session(t, "text.html")
	sn := snap(t, s, drivers.SnapshotOptions{})
	for _, tc := range []struct{ id, role, text, why string }{
		{"todo-count", "text", "2 items left", "text only in child elements (React, AngularJS)"},
		{"react-count", "text", "1 item left", "a run split into spans, spaces in spans of their own"},
		{"code", "text", "foo.bar", "highlighted code: no space between inline spans"},
		{"wbr", "text", "supercalifragilistic", "<wbr> is no space"},
		{"brs", "text", "line one line two", "<br> breaks words"},
		{"mixed", "text", "Sale: half price", "display:none text is not read"},
		{"save", "button", "Save draft", "a button's text from inline spans"},
		{"inner-id", "text", "Total: 7 items", "a run around an element with an id"},
		{"total", "text", "7", "an element with an id inside a run keeps its node"},
	} {
		n := nodeByID(sn, tc.id)
		if n == nil {
			t.Errorf("%s (%s): no node with id %q:\n%s", tc.id, tc.why, tc.id, dump(sn))
			continue
		}
		if n.Role != tc.role || n.Text != tc.text {
			t.Errorf("%s (%s): %s %q, want %s %q", tc.id, tc.why, n.Role, n.Text, tc.role, tc.text)
		}
	}
	// The elements inside a run that show words of their own are parts:
	// nodes text= finds (as Playwright's getByText does), each with its own
	// box, that the snapshot does not print; blocks are nodes.
	parts := map[string]bool{}
	for i, n := range sn.Nodes {
		switch n.Text {
		case "2", "items left", "1", "item", "left", "foo", ".bar", "Sale:", "half",
			"Save", "draft": // words of their own inside a button are parts too (issue 34)
			parts[n.Text] = true
			if !n.Part || n.Role != "text" || n.Rect.Empty() || n.Rect.Width >= sn.Nodes[n.Parent].Rect.Width {
				t.Errorf("node %d: want a part, a text node narrower than its run: %+v", i, n)
			}
		default:
			if n.Part {
				t.Errorf("node %d: a part that is not one: %+v", i, n)
			}
		}
	}
	if len(parts) != 11 {
		t.Errorf("parts found: %v, want 2, items left, 1, item, left, foo, .bar, Sale:, half, Save, draft:\n%s", parts, dump(sn))
	}
	for _, w := range []string{"First", "Second", "Top", "Bottom"} {
		find(t, sn, "text", w)
	}
}

// TestSnapshotIDsKeepNodes: every element with an id is a node an id=
// selector resolves, without the text of its content (that belongs to
// the nodes inside it) and without a node for a label already naming its
// control.
func TestSnapshotIDsKeepNodes(t *testing.T) {
	t.Parallel()
	s := session(t, "text.html")
	sn := snap(t, s, drivers.SnapshotOptions{})
	for _, id := range []string{"blocks", "styled", "wrapper", "empty-section", "name-label"} {
		n := nodeByID(sn, id)
		if n == nil {
			t.Errorf("no node with id %q:\n%s", id, dump(sn))
			continue
		}
		if n.Role != "generic" || n.Text != "" || n.Label != "" {
			t.Errorf("id %q: %s label %q text %q, want a generic node without text", id, n.Role, n.Label, n.Text)
		}
	}
	if n := nodeByID(sn, "empty-section"); n != nil && !n.Hidden {
		t.Errorf("an empty section (no box) is not hidden: %+v", *n)
	}
	if got := match.Exists(sn, selector(t, "text=Name")); len(got) != 1 || sn.Nodes[got[0]].Role != "textbox" {
		t.Errorf("text=Name matches %v, want only the textbox", got)
	}
}

// TestSnapshotControlWords: the words a control shows are its text even
// when its name differs (text= finds both, runner/match).
func TestSnapshotControlWords(t *testing.T) {
	t.Parallel()
	s := session(t, "text.html")
	sn := snap(t, s, drivers.SnapshotOptions{})
	for _, tc := range []struct{ sel, role, label string }{
		{"text=×", "button", "Remove Buy milk"},
		{`text="Remove Buy milk"`, "button", "Remove Buy milk"},
		{`text="Read more"`, "link", "More about pricing"},
		{`text="More about pricing"`, "link", "More about pricing"},
	} {
		got := match.Exists(sn, selector(t, tc.sel))
		if len(got) != 1 || sn.Nodes[got[0]].Role != tc.role || sn.Nodes[got[0]].Label != tc.label {
			t.Errorf("%s matches %v, want the %s %q:\n%s", tc.sel, got, tc.role, tc.label, dump(sn))
		}
	}
}

func selector(t *testing.T, s string) *lang.SelectorChain {
	t.Helper()
	c, err := lang.ParseSelectorChain(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestSnapshotVisibility: display none and visibility hidden leave no node
// (is absent); a rendered box is visible by Playwright's rule (`is visible`
// = hittable, or a rect and not Hidden) whether or not it is in view;
// Visible (what scroll --until waits for) is in view.
func TestSnapshotVisibility(t *testing.T) {
	t.Parallel()
	s := session(t, "visibility.html")
	sn := snap(t, s, drivers.SnapshotOptions{})
	for _, id := range []string{"none", "vh", "vh-parent"} {
		if n := nodeByID(sn, id); n != nil {
			t.Errorf("id %q is a node, want none: %+v", id, *n)
		}
	}
	for _, tc := range []struct {
		id                string
		isVisible, inView bool
		why               string
	}{
		{"plain", true, true, "a paragraph"},
		{"vh-child", true, true, "visibility visible inside visibility hidden"},
		{"transparent", true, true, "opacity 0 is visible for Playwright"},
		{"clear-btn", true, true, "a transparent button still takes clicks"},
		{"zero", false, false, "no box"},
		{"clip-in", true, true, "inside its clipping box"},
		{"clip-out", true, false, "clipped away by overflow hidden"},
		{"contents", true, true, "display contents with an id: the box of its content"},
		{"in-contents", true, true, "inside display contents"},
		{"far", true, false, "below the fold: present, visible, not in view"},
	} {
		n := nodeByID(sn, tc.id)
		if n == nil {
			t.Errorf("%s (%s): no node:\n%s", tc.id, tc.why, dump(sn))
			continue
		}
		if got := match.NodeVisible(n); got != tc.isVisible || n.Visible != tc.inView {
			t.Errorf("%s (%s): is visible %v, in view %v; want %v, %v", tc.id, tc.why, got, n.Visible, tc.isVisible, tc.inView)
		}
	}
}

// TestSnapshotListBoxOptions: the options of a list box are nodes (a
// drop-down's are not) and a click on one selects it.
func TestSnapshotListBoxOptions(t *testing.T) {
	t.Parallel()
	s := session(t, "listbox.html")
	sn := snap(t, s, drivers.SnapshotOptions{})
	for _, name := range []string{"Cheese", "Olives", "Chili", "Small", "Large", "Red", "Blue"} {
		if o := find(t, sn, "option", name); !o.Visible || !o.Hittable || !o.Interactive {
			t.Errorf("option %q: %+v, want visible, hittable, interactive", name, *o)
		}
	}
	for _, n := range sn.Nodes {
		if n.Role == "option" && (n.Label == "Water" || n.Label == "Juice") {
			t.Errorf("a closed drop-down's option is a node: %+v", n)
		}
	}
	if o := find(t, sn, "option", "Olives"); !o.Selected {
		t.Errorf("the selected option is not selected: %+v", *o)
	}
	if err := s.Act(testCtx(t), tap(find(t, sn, "option", "Cheese"))); err != nil {
		t.Fatal(err)
	}
	waitText(t, s, "picked", "Cheese")
}

// TestSnapshotShadowSlots: open shadow roots are walked in the flat tree
// (slotted content where its slot is, nested roots), text runs read
// through them, and a node inside a nested root is acted on.
func TestSnapshotShadowSlots(t *testing.T) {
	t.Parallel()
	s := session(t, "shadow-slots.html")
	sn := snap(t, s, drivers.SnapshotOptions{})
	got := dump(sn)
	want := `generic id="card" visible hittable
  heading label="Card title" text="Card title" visible hittable
  text label="Card body" text="Card body" visible hittable
  button label="Deep action" id="deep" text="Deep action" visible hittable interactive
text label="3 left" id="count" text="3 left" visible hittable
  text label="3" text="3" visible hittable part
  text label="left" text="left" visible hittable part
text label="Nothing" id="r" text="Nothing" visible hittable
`
	if got != want {
		t.Fatalf("snapshot:\n%s\nwant:\n%s", got, want)
	}
	if err := s.Act(testCtx(t), tap(find(t, sn, "button", "Deep action"))); err != nil {
		t.Fatal(err)
	}
	waitText(t, s, "r", "Deep clicked")
}

// TestSnapshotSameOriginFrame: a same-origin frame's document is part of
// the tree, its nodes' rects are in the page's viewport (offset by the
// frame's border and padding), and acting on them works; another origin's
// frame stays opaque.
func TestSnapshotSameOriginFrame(t *testing.T) {
	t.Parallel()
	s := session(t, "frame.html")
	ctx := testCtx(t)
	// open waits for the load event, which waits for the frames' loads.
	sn := snap(t, s, drivers.SnapshotOptions{})
	f := nodeByID(sn, "frame")
	if f == nil || f.Role != "iframe" {
		t.Fatalf("frame node %+v:\n%s", f, dump(sn))
	}
	if n := nodeByID(sn, "inner-count"); n == nil || n.Text != "3 in frame" || n.Parent < 0 || sn.Nodes[n.Parent].ID != "frame" {
		t.Errorf("text run in the frame: %+v", n)
	}
	b := nodeByID(sn, "frame-btn")
	if b == nil {
		t.Fatalf("no frame button:\n%s", dump(sn))
	}
	if !b.Visible || !b.Hittable {
		t.Errorf("frame button: %+v, want visible and hittable", *b)
	}
	// The frame's content box starts 8 px (border 5, padding 3) inside it.
	if b.Rect.X < f.Rect.X+8 || b.Rect.Y < f.Rect.Y+8 {
		t.Errorf("frame button at %+v, frame at %+v: not offset into the frame", b.Rect, f.Rect)
	}
	for _, n := range sn.Nodes {
		if n.Label == "Other origin" {
			t.Errorf("another origin's frame was read: %+v", n)
		}
	}
	q := nodeByID(sn, "q")
	if err := s.Act(ctx, drivers.Action{Kind: drivers.ActFill, Target: &drivers.Target{Node: q}, Text: "deep"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Act(ctx, tap(b)); err != nil {
		t.Fatal(err)
	}
	waitText(t, s, "frame-out", "Frame clicked deep")
}
