package recorder

import (
	"errors"
	"fmt"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner/match"
)

// place is a node in one tree.
type place struct {
	tree *drivers.Snapshot
	idx  int
}

// locate finds n in tree: by the driver's handle, else by identity and rect.
func locate(tree *drivers.Snapshot, n *drivers.Node) int {
	if n.Handle != "" {
		for i := range tree.Nodes {
			if tree.Nodes[i].Handle == n.Handle {
				return i
			}
		}
	}
	for i := range tree.Nodes {
		m := &tree.Nodes[i]
		if m.Handle == "" && m.Role == n.Role && m.Label == n.Label && m.ID == n.ID && m.Text == n.Text && m.Value == n.Value && m.Rect == n.Rect {
			return i
		}
	}
	return -1
}

// chainFor builds the selector chain of the node idx of the authorising tree
// t: the candidates id, role+label, label, value and text, each kept only
// when it matches exactly that node in t and in the full capture taken
// before the step (when the node is found there). It returns the chain and
// the place the evidence is computed in (the full capture when there is one).
func (r *Recorder) chainFor(t *drivers.Snapshot, idx int, full *drivers.Snapshot, command string) (*lang.SelectorChain, *drivers.Snapshot, int, error) {
	places := []place{{t, idx}}
	if full != nil && full != t {
		if fi := locate(full, &t.Nodes[idx]); fi >= 0 {
			places = append(places, place{full, fi})
		}
	}
	ref := places[len(places)-1]
	if lang.TraitsOf(command).Press {
		if d := retarget(ref.tree, ref.idx); d >= 0 {
			n := &ref.tree.Nodes[d]
			var moved []place
			for _, p := range places {
				if p.tree == ref.tree {
					moved = append(moved, place{p.tree, d})
				} else if i := locate(p.tree, n); i >= 0 {
					moved = append(moved, place{p.tree, i})
				}
			}
			places, ref = moved, place{ref.tree, d}
		}
	}
	n := &ref.tree.Nodes[ref.idx]
	// The node's names, each unique in every place: the first place gives
	// the values.
	named := make([]match.Place, 0, len(places))
	named = append(named, match.Place{Tree: ref.tree, Node: ref.idx})
	for _, p := range places {
		if p.tree != ref.tree {
			named = append(named, match.Place{Tree: p.tree, Node: p.idx})
		}
	}
	names := match.Names(named, match.Naming{Command: command, Skip: r.leaks})
	if len(names) == 0 {
		return nil, nil, -1, fmt.Errorf("no selector matches only this element (%s)", nodeSummary(n))
	}
	chain := match.Chain(named, match.Segments(names), lang.TraitsOf(command).Mutating)
	if chain == nil {
		return nil, nil, -1, errors.New("the selector chain does not resolve back to this element")
	}
	return chain, ref.tree, ref.idx, nil
}

func nodeSummary(n *drivers.Node) string { return match.Describe(n.Role, n.Label, n.Text, n.ID) }

// leaks reports whether s would write a masked literal anywhere, even
// inside a word: the recorder refuses such a text rather than mask it.
func (r *Recorder) leaks(s string) bool { return r.mask.Finds(s) }

// retarget is container retargeting (§5.4): a click on an identity-empty
// container (no unique id, no label, no value) is recorded against its first
// labelled descendant, when the subtree has no other interactive node and
// the descendant's centre lies inside the container. -1 when not applicable.
func retarget(tree *drivers.Snapshot, idx int) int {
	n := &tree.Nodes[idx]
	if match.UniqueID(tree, n.ID) || n.Label != "" || n.Value != "" {
		return -1
	}
	end := idx + 1
	for end < len(tree.Nodes) && tree.Nodes[end].Depth > n.Depth {
		end++
	}
	found := -1
	for i := idx + 1; i < end; i++ {
		d := &tree.Nodes[i]
		if d.Interactive {
			return -1
		}
		if found < 0 && (d.Label != "" || d.Text != "") {
			found = i
		}
	}
	if found < 0 {
		return -1
	}
	c := tree.Nodes[found].Rect.Center()
	r := n.Rect
	if c.X < r.X || c.X > r.X+r.Width || c.Y < r.Y || c.Y > r.Y+r.Height {
		return -1
	}
	return found
}
