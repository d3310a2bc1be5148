package match

import (
	"slices"
	"strings"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
)

// The one place that names an element: the selector segments a script may
// write for a node (the recorder's chain, the repair's new line, a
// divergence's suggestions) and the target-v1 evidence written above it (the
// recorder, the repair, `adtest annotate`). Every name is checked with the
// matcher above, so what is written resolves back to the node it names.

// Basis says what ties a selector, or a suggested element, to its element.
type Basis string

// The bases of a name (the segment that names the node) and of a link (what
// links a repair's candidate to the element a step meant).
const (
	BasisID        Basis = "id"         // id=
	BasisRoleLabel Basis = "role-label" // role= label=, or the same role and label
	BasisLabel     Basis = "label"      // label=
	BasisValue     Basis = "value"      // value=
	BasisText      Basis = "text"       // text=
	BasisRole      Basis = "role"       // role= alone (a fill's last resort)
	BasisRoleText  Basis = "role-text"  // the same role and text
	// BasisContractID and BasisContractWords link a step without target-v1
	// evidence to the one element its command can act on (a fill's
	// editable, a click's actionable) that keeps the selector's id, or whose
	// label, text or id holds the selector's words.
	BasisContractID    Basis = "contract+id"
	BasisContractWords Basis = "contract+words"
	// BasisOther is a divergence suggestion's basis for a name other than
	// id, role+label or label (the spec's id|role-label|label|other).
	BasisOther Basis = "other"
)

// Place is one node of one tree.
type Place struct {
	Tree *drivers.Snapshot
	Node int
}

// Name is one selector segment that matches exactly its node.
type Name struct {
	Segment string
	Basis   Basis
}

// Naming is what a name must respect besides uniqueness.
type Naming struct {
	// Command is the step's command: a fill's segments say editable=true
	// and fall back to role= alone.
	Command string
	// Skip rejects a segment that must not be written (a secret's value).
	Skip func(string) bool
}

func (o Naming) skips(s string) bool { return o.Skip != nil && o.Skip(s) }

// Names returns, in order (id, role+label, label, value, text), the
// selector segments naming the node of places[0] that match exactly the
// place's node in every place, with Segment. The first place's node gives
// the values.
func Names(places []Place, o Naming) []Name {
	if len(places) == 0 {
		return nil
	}
	n := &places[0].Tree.Nodes[places[0].Node]
	suffix := ""
	editable := lang.TraitsOf(o.Command).TypesText
	if editable {
		suffix = " editable=true"
	}
	var out []Name
	hasRole := false
	add := func(seg string, b Basis) {
		seg += suffix
		for _, x := range out {
			if x.Segment == seg {
				return
			}
		}
		if o.skips(seg) || !Unique(places, seg) {
			return
		}
		out = append(out, Name{Segment: seg, Basis: b})
		hasRole = hasRole || b == BasisRoleLabel || b == BasisRole
	}
	q := lang.QuoteSelectorValue
	if n.ID != "" {
		add("id="+q(n.ID), BasisID)
	}
	if n.Role != "" && n.Label != "" {
		add("role="+q(n.Role)+" label="+q(n.Label), BasisRoleLabel)
	}
	if n.Label != "" {
		add("label="+q(n.Label), BasisLabel)
	}
	if n.Value != "" {
		add("value="+q(n.Value), BasisValue)
	}
	if n.Text != "" && n.Text != n.Label && n.Text != n.Value {
		add("text="+q(n.Text), BasisText)
	}
	if editable && !hasRole && n.Role != "" {
		add("role="+q(n.Role), BasisRole)
	}
	return out
}

// Unique reports whether the one-segment selector seg matches exactly the
// place's node in every place.
func Unique(places []Place, seg string) bool {
	c, err := lang.ParseSelectorChain(seg)
	if err != nil || len(c.Segments) != 1 {
		return false
	}
	for _, p := range places {
		m := Segment(p.Tree, c.Segments[0])
		if len(m) != 1 || m[0] != p.Node {
			return false
		}
	}
	return true
}

// Chain joins segments into a chain and returns it when it resolves to the
// place's node in every place (mutating: as a mutation resolves), nil
// otherwise.
func Chain(places []Place, segments []string, mutating bool) *lang.SelectorChain {
	if len(segments) == 0 {
		return nil
	}
	c, err := lang.ParseSelectorChain(strings.Join(segments, " || "))
	if err != nil {
		return nil
	}
	for _, p := range places {
		if Resolve(p.Tree, c, mutating).Node != p.Node {
			return nil
		}
	}
	return c
}

// Segments are the segments of names.
func Segments(names []Name) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n.Segment
	}
	return out
}

// Payload limits of a target-v1 annotation (spec §1.7).
const (
	maxEvidenceField = 256
	maxAncestry      = 8
)

// Evidence is the target-v1 evidence of node i of tree for a step whose
// selector is chain: identity (the id only when it is unique), ancestry
// (nearest first, at most 8), sibling index, order among the nodes of the
// same role and label, rect. It is nil when the node has no role, a field
// is too long or skip rejects one (a secret's value: the evidence is left
// out rather than masked), or when replay's binding check of chain with it
// would not isolate the node (replay fails such evidence as unverifiable).
func Evidence(tree *drivers.Snapshot, i int, chain *lang.SelectorChain, mutating bool, skip func(string) bool) *lang.TargetEvidence {
	n := &tree.Nodes[i]
	ev := &lang.TargetEvidence{Role: n.Role, Label: normLabel(n.Label), Ancestry: []lang.AncestorEntry{},
		Sibling: SiblingIndex(tree, i), Verification: "verified",
		Rect: &lang.EvidenceRect{X: n.Rect.X, Y: n.Rect.Y, Width: n.Rect.Width, Height: n.Rect.Height}}
	if UniqueID(tree, n.ID) {
		ev.ID = n.ID
	}
	for p := n.Parent; p >= 0 && len(ev.Ancestry) < maxAncestry; p = tree.Nodes[p].Parent {
		an := &tree.Nodes[p]
		ev.Ancestry = append(ev.Ancestry, lang.AncestorEntry{Role: an.Role, Label: normLabel(an.Label)})
	}
	for j := 0; j < i; j++ {
		m := &tree.Nodes[j]
		if m.Role == n.Role && normLabel(m.Label) == ev.Label {
			ev.ViewportOrder++
		}
	}
	fields := []string{ev.ID, ev.Role, ev.Label}
	for _, a := range ev.Ancestry {
		fields = append(fields, a.Role, a.Label)
	}
	for _, f := range fields {
		if len(f) > maxEvidenceField || (skip != nil && skip(f)) {
			return nil
		}
	}
	if ev.Role == "" || !Binds(tree, chain, ev, i, mutating) {
		return nil
	}
	return ev
}

// normLabel trims a label and collapses its internal whitespace, as the
// annotation parser normalises it.
func normLabel(s string) string { return strings.Join(strings.Fields(s), " ") }

// Binds reports whether replay's target-binding verification (spec §4.2.2)
// of chain with evidence ev isolates node i of tree: the chain matches, the
// recorded identity (the sibling index breaking ties) singles out one
// member, and the chain resolves to that member, which is i.
func Binds(tree *drivers.Snapshot, chain *lang.SelectorChain, ev *lang.TargetEvidence, i int, mutating bool) bool {
	var members []int
	for _, j := range Exists(tree, chain) {
		if HasIdentity(tree, j, ev) {
			members = append(members, j)
		}
	}
	member := -1
	switch {
	case len(members) == 1:
		member = members[0]
	case len(members) > 1:
		for _, j := range members {
			if SiblingIndex(tree, j) == ev.Sibling {
				if member >= 0 {
					return false
				}
				member = j
			}
		}
	}
	return member == i && Resolve(tree, chain, mutating).Node == member
}

// UniqueID reports whether id is set and occurs once in tree (an id shared
// by several nodes names none of them).
func UniqueID(tree *drivers.Snapshot, id string) bool {
	if id == "" {
		return false
	}
	k := 0
	for i := range tree.Nodes {
		if tree.Nodes[i].ID == id {
			k++
		}
	}
	return k == 1
}

// Acts reports whether command can act on n: a fill needs an editable
// element, the other target commands an actionable (interactive) one, and
// an empty command (a read, a wait) takes any element.
func Acts(command string, n *drivers.Node) bool {
	switch t := lang.TraitsOf(command); {
	case t.TypesText:
		return n.Editable
	case t.Touch:
		return n.Interactive || n.Editable
	}
	return true
}

// Suggestion is one element offered for a failed target, named by its
// first unique selector (the JSON shape of a divergence's suggestions).
type Suggestion struct {
	Basis    Basis  `json:"basis"`
	Label    string `json:"label,omitempty"`
	Role     string `json:"role,omitempty"`
	Selector string `json:"selector"`
	Node     int    `json:"-"` // index in the snapshot
}

// basisRank orders suggestions: the stronger name first.
var basisRank = []Basis{BasisID, BasisRoleLabel, BasisLabel, BasisOther}

// Suggest offers at most limit elements of snap for a failed target whose
// words are want: elements command can act on whose label, text or id holds
// one of want's words (any element when want has none), each named by its
// first unique selector, ranked by that name's basis (id, role-label,
// label, other: spec §4.3.2) then document order.
// An element no selector names alone is not offered.
func Suggest(snap *drivers.Snapshot, command, want string, limit int) []Suggestion {
	if snap == nil {
		return nil
	}
	words := strings.Fields(NormText(want))
	var out []Suggestion
	for i := range snap.Nodes {
		n := &snap.Nodes[i]
		if n.Label == "" && n.ID == "" && n.Text == "" || !Acts(command, n) {
			continue
		}
		hay := NormText(n.Label + " " + n.Text + " " + n.ID)
		hit := len(words) == 0
		for _, w := range words {
			if len(w) >= 2 && strings.Contains(hay, w) {
				hit = true
				break
			}
		}
		if !hit {
			continue
		}
		names := Names([]Place{{snap, i}}, Naming{Command: command})
		if len(names) == 0 {
			continue
		}
		b := names[0].Basis
		if b != BasisID && b != BasisRoleLabel && b != BasisLabel {
			b = BasisOther
		}
		out = append(out, Suggestion{Basis: b, Label: n.Label, Role: CanonRole(n.Role), Selector: names[0].Segment, Node: i})
	}
	slices.SortStableFunc(out, func(a, b Suggestion) int {
		return slices.Index(basisRank, a.Basis) - slices.Index(basisRank, b.Basis)
	})
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}
