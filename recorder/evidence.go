package recorder

import (
	"strings"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner/match"
)

// Payload limits of a target-v1 annotation (spec §1.7).
const (
	maxField    = 256
	maxAncestry = 8
)

// evidence computes the target-v1 evidence of node idx of tree for a step
// whose selector is chain. It returns nil when the runner's binding check
// would not isolate the node (adtest fails "unverifiable" evidence on
// replay, so none is written), or when a field would be too long or echo a
// masked literal.
func (r *Recorder) evidence(tree *drivers.Snapshot, idx int, chain *lang.SelectorChain, mutating bool) *lang.TargetEvidence {
	n := &tree.Nodes[idx]
	ev := &lang.TargetEvidence{Role: n.Role, Label: normLabel(n.Label), Ancestry: []lang.AncestorEntry{},
		Sibling: match.SiblingIndex(tree, idx), Verification: "verified",
		Rect: &lang.EvidenceRect{X: n.Rect.X, Y: n.Rect.Y, Width: n.Rect.Width, Height: n.Rect.Height}}
	if uniqueID(tree, n.ID) {
		ev.ID = n.ID
	}
	for p := n.Parent; p >= 0 && len(ev.Ancestry) < maxAncestry; p = tree.Nodes[p].Parent {
		an := &tree.Nodes[p]
		ev.Ancestry = append(ev.Ancestry, lang.AncestorEntry{Role: an.Role, Label: normLabel(an.Label)})
	}
	// viewportOrder: the node's rank among the nodes of the same role and
	// label, in document order.
	for i := 0; i < idx; i++ {
		m := &tree.Nodes[i]
		if m.Role == n.Role && normLabel(m.Label) == ev.Label {
			ev.ViewportOrder++
		}
	}
	fields := []string{ev.ID, ev.Role, ev.Label}
	for _, a := range ev.Ancestry {
		fields = append(fields, a.Role, a.Label)
	}
	for _, f := range fields {
		if len(f) > maxField || r.leaks(f) {
			return nil
		}
	}
	if ev.Role == "" || !bindsTarget(tree, chain, ev, idx, mutating) {
		return nil
	}
	return ev
}

// normLabel trims a label and collapses its internal whitespace, as the
// annotation parser normalises it.
func normLabel(s string) string { return strings.Join(strings.Fields(s), " ") }

// bindsTarget reports whether replay's target-binding verification (spec
// §4.2.2) of chain with evidence ev isolates node idx of tree, composed of
// the runner's matcher: the chain matches, the recorded identity (the
// sibling index breaking ties) singles out one member, and the chain
// resolves to that member, which is idx.
func bindsTarget(tree *drivers.Snapshot, chain *lang.SelectorChain, ev *lang.TargetEvidence, idx int, mutating bool) bool {
	var members []int
	for _, i := range match.Exists(tree, chain) {
		if match.HasIdentity(tree, i, ev) {
			members = append(members, i)
		}
	}
	member := -1
	switch {
	case len(members) == 1:
		member = members[0]
	case len(members) > 1:
		for _, i := range members {
			if match.SiblingIndex(tree, i) == ev.Sibling {
				if member >= 0 {
					return false
				}
				member = i
			}
		}
	}
	return member == idx && match.Resolve(tree, chain, mutating).Node == member
}
