package repair

import (
	"fmt"
	"strings"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner/match"
)

// Candidates: which element on the divergence screen the failed step meant,
// and the selector that names it. Everything here is the replay matcher's
// (runner/match) rules: a candidate must match uniquely, keep the old
// element's role and share an identity with it (id, label or text).

// Identity is what is known of an element: the old one from its target-v1
// annotation and the selector as written, the new one from the screen.
type Identity struct {
	Role  string   `json:"role,omitempty"`
	ID    string   `json:"id,omitempty"`
	Label string   `json:"label,omitempty"`
	Text  string   `json:"text,omitempty"`
	Texts []string `json:"-"` // every label/text the old step named
	// Source says where an old identity came from: target-v1, selector or both.
	Source string `json:"source,omitempty"`
}

// oldIdentity is the identity of the element a step meant: the target-v1
// evidence when the line carries one, and the selector's own terms.
func oldIdentity(a *lang.Action, chain *lang.SelectorChain) Identity {
	var id Identity
	add := func(s string) {
		if t := match.NormText(s); t != "" {
			for _, x := range id.Texts {
				if x == t {
					return
				}
			}
			id.Texts = append(id.Texts, t)
		}
	}
	if ev := a.TargetEvidence; ev != nil {
		id.Role, id.ID, id.Label, id.Source = ev.Role, ev.ID, ev.Label, "target-v1"
		add(ev.Label)
	}
	fromSel := false
	for _, seg := range chain.Segments {
		for _, t := range seg.Terms {
			if t.IsBool {
				continue
			}
			switch t.Key {
			case "role":
				if id.Role == "" {
					id.Role, fromSel = t.Value, true
				}
			case "id":
				if id.ID == "" {
					id.ID, fromSel = t.Value, true
				}
			case "label", "text":
				if id.Label == "" && t.Key == "label" {
					id.Label = t.Value
				}
				if t.Key == "text" && id.Text == "" {
					id.Text = t.Value
				}
				add(t.Value)
				fromSel = true
			}
		}
	}
	switch {
	case fromSel && id.Source != "":
		id.Source = "target-v1+selector"
	case fromSel:
		id.Source = "selector"
	}
	return id
}

// nodeIdentity is the identity of node i of snap.
func nodeIdentity(snap *drivers.Snapshot, i int) Identity {
	n := &snap.Nodes[i]
	return Identity{Role: match.CanonRole(n.Role), ID: n.ID, Label: n.Label, Text: n.Text}
}

// Candidate is one element the failed step may have meant.
type Candidate struct {
	Node     int    // index in the divergence screen's snapshot
	Basis    string // id, role-label, role-text: what links it to the old element
	Selector string // the new selector
}

// link ranks: the stronger link first.
var bases = []string{"id", "role-label", "role-text"}

// linkOf is how node n is linked to the old identity ("" when it is not),
// and why it is refused when it would be: a different role, or no shared
// identity.
func linkOf(old Identity, n *drivers.Node) string {
	if match.CanonRole(n.Role) != match.CanonRole(old.Role) {
		return ""
	}
	if old.ID != "" && n.ID == old.ID {
		return "id"
	}
	for _, t := range old.Texts {
		if n.Label != "" && match.NormText(n.Label) == t {
			return "role-label"
		}
	}
	for _, t := range old.Texts {
		if n.Text != "" && match.NormText(n.Text) == t {
			return "role-text"
		}
	}
	return ""
}

// candidates ranks the elements of snap the failed step may have meant. A
// basis that links several elements is ambiguous: none of them is offered
// on it, and a weaker basis never offers one of them either (a duplicate
// label is refused, not guessed). The refusal says why nothing is offered.
func candidates(snap *drivers.Snapshot, a *lang.Action, chain *lang.SelectorChain, mutating bool) ([]Candidate, string) {
	old := oldIdentity(a, chain)
	if old.Role == "" {
		return nil, "the old element's role is unknown (no target-v1 annotation and no role= in the selector): a repair could point the step at another kind of element"
	}
	if snap == nil || len(snap.Nodes) == 0 {
		return nil, "the divergence screen could not be captured"
	}
	linked := map[string][]int{}
	sameRole := 0
	for i := range snap.Nodes {
		n := &snap.Nodes[i]
		if match.CanonRole(n.Role) == match.CanonRole(old.Role) {
			sameRole++
		}
		if b := linkOf(old, n); b != "" {
			linked[b] = append(linked[b], i)
		}
	}
	var out []Candidate
	taken := map[int]bool{}
	ambiguous := ""
	for _, b := range bases {
		nodes := linked[b]
		if len(nodes) > 1 {
			for _, i := range nodes {
				taken[i] = true
			}
			if ambiguous == "" {
				ambiguous = fmt.Sprintf("%d elements share the old element's %s (%s): ambiguous, not guessed", len(nodes), basisWords(b), describe(old))
			}
			continue
		}
		if len(nodes) == 0 || taken[nodes[0]] {
			continue
		}
		i := nodes[0]
		taken[i] = true
		sel := selectorFor(snap, i, chain, mutating)
		if sel == "" {
			continue
		}
		out = append(out, Candidate{Node: i, Basis: b, Selector: sel})
	}
	if len(out) > 0 {
		return out, ""
	}
	if ambiguous != "" {
		return nil, ambiguous
	}
	if sameRole == 0 {
		return nil, fmt.Sprintf("no %s on the screen", old.Role)
	}
	return nil, fmt.Sprintf("no %s on the screen shares an id, label or text with the old element (%s)", old.Role, describe(old))
}

func basisWords(b string) string {
	switch b {
	case "id":
		return "id"
	case "role-label":
		return "role and label"
	}
	return "role and text"
}

func describe(id Identity) string { return match.Describe(id.Role, id.Label, id.Text, id.ID) }

// selectorFor names node i of snap: first the old chain with each term's
// value taken from the node (the smallest edit a reviewer reads), else the
// recorder's order (id, role+label, label, text). Every segment kept
// matches the node and only it, and the chain resolves to it.
func selectorFor(snap *drivers.Snapshot, i int, old *lang.SelectorChain, mutating bool) string {
	n := &snap.Nodes[i]
	q := lang.QuoteSelectorValue
	var bools []string
	var segs []string
	for _, seg := range old.Segments {
		var terms []string
		ok := true
		for _, t := range seg.Terms {
			if t.IsBool {
				terms = append(terms, fmt.Sprintf("%s=%t", t.Key, t.Bool))
				continue
			}
			var v string
			switch t.Key {
			case "role":
				v = t.Value
				if match.CanonRole(n.Role) != match.CanonRole(t.Value) {
					v = match.CanonRole(n.Role)
				}
				terms = append(terms, "role="+v)
				continue
			case "id":
				v = n.ID
			case "label":
				v = n.Label
			case "value":
				v = n.Value
			case "text":
				v = n.Text
				if v == "" {
					v = match.NodeText(n)
				}
			default:
				ok = false
			}
			if v == "" {
				ok = false
				break
			}
			terms = append(terms, t.Key+"="+q(v))
		}
		if ok && len(terms) > 0 {
			segs = append(segs, strings.Join(terms, " "))
		}
		if len(bools) == 0 {
			for _, t := range seg.Terms {
				if t.IsBool {
					bools = append(bools, fmt.Sprintf("%s=%t", t.Key, t.Bool))
				}
			}
		}
	}
	if s := uniqueChain(snap, i, segs, mutating); s != "" {
		return s
	}
	suffix := ""
	if len(bools) > 0 {
		suffix = " " + strings.Join(bools, " ")
	}
	var tries []string
	if n.ID != "" {
		tries = append(tries, "id="+q(n.ID)+suffix)
	}
	if n.Label != "" {
		tries = append(tries, "role="+match.CanonRole(n.Role)+" label="+q(n.Label)+suffix, "label="+q(n.Label)+suffix)
	}
	if n.Text != "" {
		tries = append(tries, "role="+match.CanonRole(n.Role)+" text="+q(n.Text)+suffix)
	}
	for _, t := range tries {
		if s := uniqueChain(snap, i, []string{t}, mutating); s != "" {
			return s
		}
	}
	return ""
}

// uniqueChain joins the segments that match node i alone into a chain, ""
// when none does or the chain would resolve elsewhere.
func uniqueChain(snap *drivers.Snapshot, i int, segs []string, mutating bool) string {
	var keep []string
	for _, s := range segs {
		c, err := lang.ParseSelectorChain(s)
		if err != nil || len(c.Segments) != 1 {
			continue
		}
		m := match.Segment(snap, c.Segments[0])
		if len(m) == 1 && m[0] == i {
			keep = append(keep, s)
		}
	}
	if len(keep) == 0 {
		return ""
	}
	expr := strings.Join(keep, " || ")
	c, err := lang.ParseSelectorChain(expr)
	if err != nil || match.Resolve(snap, c, mutating).Node != i {
		return ""
	}
	return expr
}

// evidenceFor is the target-v1 evidence of node i, as the recorder writes
// it: identity, ancestry (nearest first, at most 8), sibling index, order
// among same-role same-label nodes, rect.
func evidenceFor(snap *drivers.Snapshot, i int, unverifiable bool) *lang.TargetEvidence {
	n := &snap.Nodes[i]
	norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	ev := &lang.TargetEvidence{Role: n.Role, Label: norm(n.Label), Ancestry: []lang.AncestorEntry{},
		Sibling: match.SiblingIndex(snap, i), Verification: "verified",
		Rect: &lang.EvidenceRect{X: n.Rect.X, Y: n.Rect.Y, Width: n.Rect.Width, Height: n.Rect.Height}}
	if n.ID != "" {
		count := 0
		for j := range snap.Nodes {
			if snap.Nodes[j].ID == n.ID {
				count++
			}
		}
		if count == 1 {
			ev.ID = n.ID
		}
	}
	for p := n.Parent; p >= 0 && len(ev.Ancestry) < 8; p = snap.Nodes[p].Parent {
		an := &snap.Nodes[p]
		ev.Ancestry = append(ev.Ancestry, lang.AncestorEntry{Role: an.Role, Label: norm(an.Label)})
	}
	for j := 0; j < i; j++ {
		m := &snap.Nodes[j]
		if m.Role == n.Role && norm(m.Label) == ev.Label {
			ev.ViewportOrder++
		}
	}
	if unverifiable {
		ev.Verification = "unverifiable"
	}
	return ev
}

// snapshotLines renders the nodes around node i, one per line, the node
// itself marked with ">".
func snapshotLines(snap *drivers.Snapshot, i, around int) []string {
	var out []string
	for j := max(0, i-around); j < len(snap.Nodes) && j <= i+around; j++ {
		n := &snap.Nodes[j]
		mark := "  "
		if j == i {
			mark = "> "
		}
		s := mark + strings.Repeat("  ", n.Depth) + match.CanonRole(n.Role)
		if n.Label != "" {
			s += " " + lang.QuoteSelectorValue(n.Label)
		}
		if n.Text != "" && n.Text != n.Label {
			s += " text=" + lang.QuoteSelectorValue(n.Text)
		}
		if n.ID != "" {
			s += " id=" + lang.QuoteSelectorValue(n.ID)
		}
		out = append(out, s)
	}
	return out
}
