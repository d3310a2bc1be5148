package android

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/adtest/adtest/drivers"
)

// xnode is one <node> of a uiautomator-shaped hierarchy (the helper's or
// uiautomator dump's).
type xnode struct {
	attrs    map[string]string
	children []*xnode
}

func (n *xnode) get(k string) string { return n.attrs[k] }
func (n *xnode) is(k string) bool    { return n.attrs[k] == "true" }

// parseHierarchy reads <hierarchy><node …>…</hierarchy> into window roots.
func parseHierarchy(src string) ([]*xnode, error) {
	dec := xml.NewDecoder(strings.NewReader(src))
	var roots []*xnode
	var stack []*xnode
	sawHierarchy := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("snapshot XML: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "hierarchy":
				sawHierarchy = true
			case "node":
				n := &xnode{attrs: make(map[string]string, len(t.Attr))}
				for _, a := range t.Attr {
					n.attrs[a.Name.Local] = a.Value
				}
				if len(stack) == 0 {
					roots = append(roots, n)
				} else {
					p := stack[len(stack)-1]
					p.children = append(p.children, n)
				}
				stack = append(stack, n)
			}
		case xml.EndElement:
			if t.Name.Local == "node" && len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
	}
	if !sawHierarchy {
		return nil, fmt.Errorf("snapshot XML: no <hierarchy> element")
	}
	return roots, nil
}

// parseBounds reads "[l,t][r,b]".
func parseBounds(s string) (drivers.Rect, bool) {
	var l, t, r, b int
	if _, err := fmt.Sscanf(s, "[%d,%d][%d,%d]", &l, &t, &r, &b); err != nil {
		return drivers.Rect{}, false
	}
	return drivers.Rect{X: float64(l), Y: float64(t), Width: float64(r - l), Height: float64(b - t)}, true
}

// coveredMark ends the handle of a node under another package's window.
const coveredMark = "#covered"

// editableClass reports text-entry widgets.
func editableClass(class string) bool {
	c := strings.ToLower(class)
	return strings.Contains(c, "edittext") || strings.Contains(c, "textfield") || strings.Contains(c, "autocomplete")
}

// roleOf is the lower-cased class tail (android.widget.Button -> button);
// the runner's matcher maps edittext/textview to textbox/text.
func roleOf(class string) string {
	if i := strings.LastIndexAny(class, ".$"); i >= 0 {
		class = class[i+1:]
	}
	if class == "" {
		return "view"
	}
	return strings.ToLower(class)
}

// toSnapshot flattens the hierarchy into the common Node model: invisible
// subtrees are pruned, inactive application windows are dropped when an
// active one exists, and a window covered by a higher dialog window keeps
// its nodes but they are not hittable. viewport is the screen.
func toSnapshot(roots []*xnode, viewport drivers.Rect) *drivers.Snapshot {
	snap := &drivers.Snapshot{Viewport: viewport}
	// Window roots: keep the active ones and every non-application window
	// above them (dialogs, keyboards).
	type win struct {
		n     *xnode
		layer int
	}
	var wins []win
	anyActive := false
	for _, r := range roots {
		if r.is("window-active") {
			anyActive = true
		}
	}
	for _, r := range roots {
		if anyActive && r.get("window-active") == "false" && r.get("window-type") == "1" {
			// An inactive app window still shows under a dialog: keep it,
			// but covered.
			l, _ := strconv.Atoi(r.get("window-layer"))
			wins = append(wins, win{n: r, layer: l - 1000})
			continue
		}
		l, _ := strconv.Atoi(r.get("window-layer"))
		wins = append(wins, win{n: r, layer: l})
	}
	top := -1 << 30
	var topWin *xnode
	for _, w := range wins {
		if w.layer >= top {
			top, topWin = w.layer, w.n
		}
	}
	var walk func(n *xnode, parent, depth int, covered bool)
	walk = func(n *xnode, parent, depth int, covered bool) {
		if n.get("visible-to-user") == "false" {
			return // hidden subtree
		}
		r, _ := parseBounds(n.get("bounds"))
		class := n.get("class")
		text := n.get("text")
		desc := n.get("content-desc")
		editable := editableClass(class)
		node := drivers.Node{
			Role: roleOf(class), ID: n.get("resource-id"), Rect: r,
			Enabled:  n.get("enabled") != "false",
			Focused:  n.is("focused"),
			Selected: n.is("selected") || n.is("checked"),
			Editable: editable && n.get("enabled") != "false",
			Parent:   parent, Depth: depth,
			Handle: class + "@" + n.get("bounds"),
		}
		if covered {
			node.Handle += coveredMark
		}
		if editable {
			// A text field's label is its description (hint); its text is the value.
			node.Label, node.Value = desc, text
			if node.Label == "" {
				node.Label = n.get("hint")
			}
		} else {
			node.Label = text
			if node.Label == "" {
				node.Label = desc
			}
			node.Text = text
		}
		onScreen := !r.Empty() && r.X < viewport.Width && r.Y < viewport.Height && r.X+r.Width > 0 && r.Y+r.Height > 0
		if viewport.Empty() {
			onScreen = !r.Empty()
		}
		node.Visible = onScreen
		node.Hidden = !onScreen
		clickable := n.is("clickable") || n.is("long-clickable") || n.is("checkable")
		node.Hittable = onScreen && node.Enabled && !covered && (clickable || n.is("focusable") || editable)
		node.Interactive = clickable || editable || n.is("scrollable") || n.is("checkable")
		idx := len(snap.Nodes)
		snap.Nodes = append(snap.Nodes, node)
		for _, c := range n.children {
			walk(c, idx, depth+1, covered)
		}
	}
	for _, w := range wins {
		if w.n.get("package") != "" && snap.URL == "" && w.layer == top {
			snap.URL = w.n.get("package")
		}
		// A window under a window of another package (a system dialog) is covered.
		walk(w.n, -1, 0, w.n != topWin && topWin.get("package") != w.n.get("package"))
	}
	return snap
}
