// Package match is the selector matcher and the target-v1 identity check
// (spec §3.2, §4.2.2) over the neutral node model: the runner resolves and
// verifies targets with it. It is also the one place that names an element
// (name.go): the selectors and the target-v1 evidence the recorder, the
// repair, annotate and a divergence's suggestions write, checked with the
// same matcher. It imports only lang and drivers.
package match

import (
	"fmt"
	"strings"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
)

// NormText trims, lower-cases and collapses internal whitespace (spec §3.2).
func NormText(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// NormRole strips XCUIElementType / a leading AX, lower-cases and keeps the
// part after the last '.' or '/'.
func NormRole(r string) string {
	r = strings.TrimSpace(r)
	r = strings.TrimPrefix(r, "XCUIElementType")
	if i := strings.LastIndexAny(r, "./"); i >= 0 {
		r = r[i+1:]
	}
	if strings.HasPrefix(r, "AX") && len(r) > 2 {
		r = r[2:]
	}
	return NormText(r)
}

// roleAliases map legacy leaf names to the neutral kinds they keep matching.
var roleAliases = map[string]string{
	"statictext": "text", "textview": "text", "edittext": "textbox", "textfield": "textbox",
	"text-field": "textbox", "securetextfield": "textbox", "searchfield": "searchbox",
	"image": "img", // ARIA 1.3's name of img (Chromium's accessibility tree)
}

func CanonRole(r string) string {
	r = NormRole(r)
	if a, ok := roleAliases[r]; ok {
		return a
	}
	return r
}

// NodeText is the first non-empty of label, text, value and id; text=
// matches it or the node's text (the words a control shows).
func NodeText(n *drivers.Node) string {
	for _, s := range []string{n.Label, n.Text, n.Value, n.ID} {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

// NodeVisible is spec §3.2's visible: hittable or a positive-size rect.
func NodeVisible(n *drivers.Node) bool {
	return n.Hittable || (!n.Rect.Empty() && !n.Hidden)
}

// NodeState is n's boolean state named key, as a selector's boolean term and
// the is command's predicates spell it; known is false for any other key.
func NodeState(n *drivers.Node, key string) (v, known bool) {
	switch key {
	case "visible":
		return NodeVisible(n), true
	case "hidden":
		return !NodeVisible(n), true
	case "editable":
		return n.Editable, true
	case "selected":
		return n.Selected, true
	case "focused":
		return n.Focused, true
	case "enabled":
		return n.Enabled, true
	case "hittable":
		return n.Hittable, true
	}
	return false, false
}

// termMatches reports whether node n satisfies one selector term.
func termMatches(n *drivers.Node, t lang.SelectorTerm) bool {
	if t.IsBool {
		v, known := NodeState(n, t.Key)
		return known && v == t.Bool
	}
	want := NormText(t.Value)
	switch t.Key {
	case "id":
		return NormText(n.ID) == want
	case "label":
		return NormText(n.Label) == want
	case "value":
		return NormText(n.Value) == want
	case "text":
		// A control's words are found as well as its name: a button named
		// "Remove Buy milk" that shows "×" matches text=× and the name.
		return NormText(NodeText(n)) == want || (n.Text != "" && NormText(n.Text) == want)
	case "role":
		return CanonRole(n.Role) == CanonRole(t.Value)
	case "appname", "windowtitle":
		return false // no app/window nodes in the neutral model
	}
	return false
}

// Segment returns the nodes matching every term of seg, in document order.
func Segment(snap *drivers.Snapshot, seg lang.SelectorSegment) []int {
	var out []int
	for i := range snap.Nodes {
		ok := true
		for _, t := range seg.Terms {
			if !termMatches(&snap.Nodes[i], t) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, i)
		}
	}
	return out
}

// Exists returns the matches of the first segment with at least one
// match (existence semantics: is exists, selector waits, match counts).
func Exists(snap *drivers.Snapshot, chain *lang.SelectorChain) []int {
	if snap == nil {
		return nil
	}
	for _, seg := range chain.Segments {
		if m := Segment(snap, seg); len(m) > 0 {
			return m
		}
	}
	return nil
}

// isAncestor reports whether a is an ancestor of b.
func isAncestor(snap *drivers.Snapshot, a, b int) bool {
	for p := snap.Nodes[b].Parent; p >= 0; p = snap.Nodes[p].Parent {
		if p == a {
			return true
		}
	}
	return false
}

// WrapperChain returns the actionable node when matches form one
// ancestor/descendant chain: the innermost interactive member, else the
// innermost member.
func WrapperChain(snap *drivers.Snapshot, m []int) (int, bool) {
	for i := 1; i < len(m); i++ {
		if !isAncestor(snap, m[i-1], m[i]) {
			return -1, false
		}
	}
	for i := len(m) - 1; i >= 0; i-- {
		if snap.Nodes[m[i]].Interactive {
			return m[i], true
		}
	}
	return m[len(m)-1], true
}

// Find is the fuzzy locator of `find` (spec §3.2): normalised exact
// equality scores 2, substring 1; the best score wins, first in document order.
func Find(snap *drivers.Snapshot, locator, query string) []int {
	q := NormText(query)
	if snap == nil || q == "" {
		return nil
	}
	best := 0
	var out []int
	for i := range snap.Nodes {
		n := &snap.Nodes[i]
		var fields []string
		switch locator {
		case "label":
			fields = []string{n.Label}
		case "value":
			fields = []string{n.Value}
		case "id":
			fields = []string{n.ID}
		case "role":
			fields = []string{CanonRole(n.Role)}
			q = CanonRole(query)
		default:
			fields = []string{n.Label, n.Text, n.Value, n.ID}
		}
		score := 0
		for _, f := range fields {
			f = NormText(f)
			if f == "" {
				continue
			}
			if f == q {
				score = 2
			} else if score < 1 && strings.Contains(f, q) {
				score = 1
			}
		}
		if score == 0 {
			continue
		}
		if score > best {
			best, out = score, nil
		}
		if score == best {
			out = append(out, i)
		}
	}
	return out
}

// HasIdentity reports whether node i carries the recorded identity: the id
// when recorded, else normalised role and label; and the recorded ancestry as
// a leaf-anchored prefix of the node's ancestry.
func HasIdentity(snap *drivers.Snapshot, i int, ev *lang.TargetEvidence) bool {
	n := &snap.Nodes[i]
	if ev.ID != "" {
		if n.ID != ev.ID {
			return false
		}
	} else if CanonRole(n.Role) != CanonRole(ev.Role) || NormText(n.Label) != NormText(ev.Label) {
		return false
	}
	p := n.Parent
	for _, want := range ev.Ancestry {
		if p < 0 {
			return false
		}
		an := &snap.Nodes[p]
		if CanonRole(an.Role) != CanonRole(want.Role) || (want.Label != "" && NormText(an.Label) != NormText(want.Label)) {
			return false
		}
		p = an.Parent
	}
	return true
}

// SiblingIndex is node i's index among its parent's children.
func SiblingIndex(snap *drivers.Snapshot, i int) int {
	p := snap.Nodes[i].Parent
	k := 0
	for j := p + 1; j < i; j++ {
		if snap.Nodes[j].Parent == p {
			k++
		}
	}
	return k
}

// Result is the outcome of Resolve.
type Result struct {
	// Node is the resolved node's index, -1 when nothing resolved.
	Node int
	// Ambiguous is set when a segment matched several nodes and none
	// resolved; Candidates are the first ambiguous segment's matches (at
	// most 5).
	Ambiguous  bool
	Candidates []int
	// Counts reports each tried segment as "raw -> n".
	Counts []string
}

// Resolve resolves a chain to one node (spec §3.2): a segment with exactly
// one match wins; for mutations several matches win only when they form one
// wrapper chain (newest policy); otherwise the next segment is tried.
func Resolve(snap *drivers.Snapshot, chain *lang.SelectorChain, mutating bool) Result {
	var res Result
	var ambiguous []int
	if snap != nil {
		for _, seg := range chain.Segments {
			m := Segment(snap, seg)
			res.Counts = append(res.Counts, fmt.Sprintf("%s -> %d", seg.Raw, len(m)))
			switch {
			case len(m) == 1:
				res.Node = m[0]
				return res
			case len(m) > 1 && mutating:
				if n, ok := WrapperChain(snap, m); ok {
					res.Node = n
					return res
				}
				if ambiguous == nil {
					ambiguous = m
				}
			case len(m) > 1 && ambiguous == nil:
				ambiguous = m
			}
		}
	}
	res.Node = -1
	if ambiguous != nil {
		if len(ambiguous) > 5 {
			ambiguous = ambiguous[:5]
		}
		res.Ambiguous, res.Candidates = true, ambiguous
	}
	return res
}

// Describe names an element for a person: its role, its label (else its
// text) and its id, each quoted as a selector value would be
// (`button "Save" id=save`). The recorder and the repair print elements so.
func Describe(role, label, text, id string) string {
	s := role
	if label != "" {
		s += " " + lang.QuoteSelectorValue(label)
	} else if text != "" {
		s += " " + lang.QuoteSelectorValue(text)
	}
	if id != "" {
		s += " id=" + lang.QuoteSelectorValue(id)
	}
	return s
}
