package web

import (
	"fmt"
	"strings"

	"github.com/adtest/adtest/drivers"
)

// rawSnapshot is the compact JSON page.js returns.
type rawSnapshot struct {
	URL   string    `json:"u"`
	Title string    `json:"ti"`
	VW    float64   `json:"vw"`
	VH    float64   `json:"vh"`
	Nodes []rawNode `json:"n"`
}

type rawNode struct {
	Role   string  `json:"r"`
	Label  string  `json:"l"`
	ID     string  `json:"i"`
	Text   string  `json:"t"`
	Value  string  `json:"v"`
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	W      float64 `json:"w"`
	H      float64 `json:"h"`
	Flags  int     `json:"f"`
	Parent int     `json:"p"`
	Depth  int     `json:"d"`
	Handle string  `json:"k"`
	// Unseen is what the page library knows it cannot see inside the
	// element (a cross-origin frame); Closed marks a custom element that
	// may hold a closed shadow root, for the driver to ask Chromium (1: a
	// node of its own anyway, 2: a node only for that).
	Unseen string `json:"u"`
	Closed int    `json:"c"`
}

// Flag bits of rawNode.Flags (page.js). Visible is in view: rendered,
// inside the viewport and not clipped away by an ancestor. Hidden is not
// rendered (Playwright's rule for not visible: no box with an area, or
// visibility hidden; opacity 0 is rendered), so the runner's `is visible`
// (hittable, or a rect and not hidden) holds for an element a user can
// scroll to, and `scroll --until` (which reads Visible) scrolls until it is
// in view. display none and visibility hidden leave no node at all (`is
// absent`).
const (
	flagVisible     = 1
	flagEditable    = 2
	flagSelected    = 4
	flagFocused     = 8
	flagEnabled     = 16
	flagHittable    = 32
	flagInteractive = 64
	flagRendered    = 128 // a box with an area, not visibility hidden
	flagPart        = 256 // an element with words of its own inside a text node or a control
)

func (r *rawSnapshot) toSnapshot() *drivers.Snapshot {
	s := &drivers.Snapshot{URL: r.URL, Title: r.Title, Viewport: drivers.Rect{Width: r.VW, Height: r.VH}}
	s.Nodes = make([]drivers.Node, len(r.Nodes))
	for i, n := range r.Nodes {
		s.Nodes[i] = drivers.Node{
			Role: n.Role, Label: n.Label, ID: n.ID, Text: n.Text, Value: n.Value,
			Rect:        drivers.Rect{X: n.X, Y: n.Y, Width: n.W, Height: n.H},
			Visible:     n.Flags&flagVisible != 0,
			Hidden:      n.Flags&flagRendered == 0,
			Editable:    n.Flags&flagEditable != 0,
			Selected:    n.Flags&flagSelected != 0,
			Focused:     n.Flags&flagFocused != 0,
			Enabled:     n.Flags&flagEnabled != 0,
			Hittable:    n.Flags&flagHittable != 0,
			Interactive: n.Flags&flagInteractive != 0,
			Part:        n.Flags&flagPart != 0,
			Unseen:      n.Unseen,
			Parent:      n.Parent,
			Depth:       n.Depth,
			Handle:      n.Handle,
		}
	}
	return s
}

// filterNodes applies the snapshot options to a full capture: Scope keeps
// the subtree of the first node whose label or text equals the scope
// (case-insensitive, whitespace collapsed; else the first that contains it),
// Interactive keeps interactive nodes, Depth keeps nodes whose depth (after
// the other filters, roots at 0) is below Depth. Parents and depths are
// renumbered over the kept nodes; document order is kept. A scope that
// matches nothing gives no nodes.
func filterNodes(nodes []drivers.Node, opts drivers.SnapshotOptions) []drivers.Node {
	lo, hi := 0, len(nodes)
	if opts.Scope != "" {
		root := findScope(nodes, opts.Scope)
		if root < 0 {
			return []drivers.Node{}
		}
		lo, hi = root, root+1
		for hi < len(nodes) && nodes[hi].Depth > nodes[root].Depth {
			hi++
		}
	}
	if !opts.Interactive && opts.Depth <= 0 && lo == 0 && hi == len(nodes) {
		return nodes
	}
	newIndex := make([]int, len(nodes)) // old index -> new index, -1 when dropped
	for i := range newIndex {
		newIndex[i] = -1
	}
	out := make([]drivers.Node, 0, hi-lo)
	for i := lo; i < hi; i++ {
		n := nodes[i]
		if opts.Interactive && !n.Interactive {
			continue
		}
		// nearest kept ancestor inside the range
		parent := -1
		for p := n.Parent; p >= lo && p >= 0; p = nodes[p].Parent {
			if newIndex[p] >= 0 {
				parent = newIndex[p]
				break
			}
		}
		depth := 0
		if parent >= 0 {
			depth = out[parent].Depth + 1
		}
		if opts.Depth > 0 && depth >= opts.Depth {
			continue
		}
		n.Parent, n.Depth = parent, depth
		newIndex[i] = len(out)
		out = append(out, n)
	}
	return out
}

func findScope(nodes []drivers.Node, scope string) int {
	want := normText(scope)
	for i, n := range nodes {
		if !n.Part && (normText(n.Label) == want || normText(n.Text) == want) {
			return i
		}
	}
	for i, n := range nodes {
		if !n.Part && (strings.Contains(normText(n.Label), want) || strings.Contains(normText(n.Text), want)) {
			return i
		}
	}
	return -1
}

func normText(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// describeNode is a short human name of a node for messages.
func describeNode(n *drivers.Node) string {
	name := n.Label
	if name == "" {
		name = n.Text
	}
	if name == "" {
		name = n.ID
	}
	if name == "" {
		return n.Role
	}
	return fmt.Sprintf("%s %q", n.Role, name)
}

func staleError(desc string) error {
	return &drivers.TargetError{
		Reason:  drivers.ReasonTargetStale,
		Message: fmt.Sprintf("%s is no longer on the page (it was removed or the page navigated since the snapshot)", desc),
		Hint:    "take a new snapshot and use its refs, or target the element with a selector",
	}
}
