package runner

import (
	"fmt"
	"strings"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
)

// normText trims, lower-cases and collapses internal whitespace (spec §3.2).
func normText(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// normRole strips XCUIElementType / a leading AX, lower-cases and keeps the
// part after the last '.' or '/'.
func normRole(r string) string {
	r = strings.TrimSpace(r)
	r = strings.TrimPrefix(r, "XCUIElementType")
	if i := strings.LastIndexAny(r, "./"); i >= 0 {
		r = r[i+1:]
	}
	if strings.HasPrefix(r, "AX") && len(r) > 2 {
		r = r[2:]
	}
	return normText(r)
}

// roleAliases map legacy leaf names to the neutral kinds they keep matching.
var roleAliases = map[string]string{
	"statictext": "text", "textview": "text", "edittext": "textbox", "textfield": "textbox",
	"text-field": "textbox", "securetextfield": "textbox", "searchfield": "searchbox",
}

func canonRole(r string) string {
	r = normRole(r)
	if a, ok := roleAliases[r]; ok {
		return a
	}
	return r
}

// nodeText is the first non-empty of label, text, value and id (text=).
func nodeText(n *drivers.Node) string {
	for _, s := range []string{n.Label, n.Text, n.Value, n.ID} {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

// nodeVisible is spec §3.2's visible: hittable or a positive-size rect.
func nodeVisible(n *drivers.Node) bool {
	return n.Hittable || (!n.Rect.Empty() && !n.Hidden)
}

// nodeState is n's boolean state named key, as a selector's boolean term and
// the is command's predicates spell it; known is false for any other key.
func nodeState(n *drivers.Node, key string) (v, known bool) {
	switch key {
	case "visible":
		return nodeVisible(n), true
	case "hidden":
		return !nodeVisible(n), true
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

func termMatches(n *drivers.Node, t lang.SelectorTerm) bool {
	if t.IsBool {
		v, known := nodeState(n, t.Key)
		return known && v == t.Bool
	}
	want := normText(t.Value)
	switch t.Key {
	case "id":
		return normText(n.ID) == want
	case "label":
		return normText(n.Label) == want
	case "value":
		return normText(n.Value) == want
	case "text":
		return normText(nodeText(n)) == want
	case "role":
		return canonRole(n.Role) == canonRole(t.Value)
	case "appname", "windowtitle":
		return false // no app/window nodes in the neutral model
	}
	return false
}

func segmentMatches(snap *drivers.Snapshot, seg lang.SelectorSegment) []int {
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

// matchExists returns the matches of the first segment with at least one
// match (existence semantics: is exists, selector waits, match counts).
func matchExists(snap *drivers.Snapshot, chain *lang.SelectorChain) []int {
	if snap == nil {
		return nil
	}
	for _, seg := range chain.Segments {
		if m := segmentMatches(snap, seg); len(m) > 0 {
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

// wrapperChain returns the actionable node when matches form one
// ancestor/descendant chain: the innermost interactive member, else the
// innermost member.
func wrapperChain(snap *drivers.Snapshot, m []int) (int, bool) {
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

// resolution is the outcome of a unique resolution.
type resolution struct {
	node       int
	candidates []int // set when AMBIGUOUS_MATCH
	counts     []string
}

// resolveUnique resolves a chain to one node (spec §3.2): a segment with
// exactly one match wins; for mutations several matches win only when they
// form one wrapper chain (newest policy); otherwise the next segment is tried.
// The error is selector_not_found, or AMBIGUOUS_MATCH (mutations) with the
// candidates of the first ambiguous segment.
func resolveUnique(snap *drivers.Snapshot, chain *lang.SelectorChain, mutating bool) (resolution, *ErrorInfo) {
	var res resolution
	var ambiguous []int
	if snap != nil {
		for _, seg := range chain.Segments {
			m := segmentMatches(snap, seg)
			res.counts = append(res.counts, fmt.Sprintf("%s -> %d", seg.Raw, len(m)))
			switch {
			case len(m) == 1:
				res.node = m[0]
				return res, nil
			case len(m) > 1 && mutating:
				if n, ok := wrapperChain(snap, m); ok {
					res.node = n
					return res, nil
				}
				if ambiguous == nil {
					ambiguous = m
				}
			case len(m) > 1 && ambiguous == nil:
				ambiguous = m
			}
		}
	}
	res.node = -1
	if ambiguous != nil {
		if len(ambiguous) > 5 {
			ambiguous = ambiguous[:5]
		}
		res.candidates = ambiguous
		code := CodeCommandFailed
		if mutating {
			code = CodeAmbiguousMatch
		}
		e := newErr(code, "ambiguous_match", "Selector did not resolve uniquely (%s)", strings.Join(res.counts, ", "))
		return res, e
	}
	e := newErr(CodeCommandFailed, "selector_not_found", "Selector did not match (%s)", strings.Join(res.counts, ", "))
	e.Hint = "Selectors match exactly (trimmed, case-insensitive); check the snapshot or add a wait for the element."
	return res, e
}

// findLocate is the fuzzy locator of `find` (spec §3.2): normalised exact
// equality scores 2, substring 1; the best score wins, first in document order.
func findLocate(snap *drivers.Snapshot, locator, query string) []int {
	q := normText(query)
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
			fields = []string{canonRole(n.Role)}
			q = canonRole(query)
		default:
			fields = []string{n.Label, n.Text, n.Value, n.ID}
		}
		score := 0
		for _, f := range fields {
			f = normText(f)
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

// suggestion is one ranked selector suggestion of a divergence report.
type suggestion struct {
	Selector string `json:"selector"`
	Basis    string `json:"basis"`
	Ref      string `json:"ref,omitempty"`
	Role     string `json:"role,omitempty"`
	Label    string `json:"label,omitempty"`
}

// suggest ranks up to 5 selectors for a failed target text (§4.3.2):
// candidates are nodes whose label/text/id resembles the wanted text,
// ranked id > role+label > label, then document order.
func suggest(obs *observation, want string) []suggestion {
	if obs == nil || obs.Snap == nil {
		return nil
	}
	refOf := map[int]int{}
	for k, idx := range obs.Refs {
		refOf[idx] = k + 1
	}
	words := strings.Fields(normText(want))
	type cand struct {
		s    suggestion
		rank int
		doc  int
	}
	var cands []cand
	for i := range obs.Snap.Nodes {
		n := &obs.Snap.Nodes[i]
		hay := normText(n.Label + " " + n.Text + " " + n.ID)
		hit := len(words) == 0
		for _, w := range words {
			if len(w) >= 2 && strings.Contains(hay, w) {
				hit = true
				break
			}
		}
		if !hit || (n.Label == "" && n.ID == "" && n.Text == "") {
			continue
		}
		c := cand{doc: i}
		c.s.Role, c.s.Label = canonRole(n.Role), n.Label
		if k, ok := refOf[i]; ok {
			c.s.Ref = fmt.Sprintf("@e%d", k)
		}
		switch {
		case n.ID != "":
			c.s.Selector, c.s.Basis, c.rank = fmt.Sprintf("id=%q", n.ID), "id", 0
		case n.Label != "" && n.Role != "":
			c.s.Selector, c.s.Basis, c.rank = fmt.Sprintf("role=%s label=%q", canonRole(n.Role), n.Label), "role-label", 1
		case n.Label != "":
			c.s.Selector, c.s.Basis, c.rank = fmt.Sprintf("label=%q", n.Label), "label", 2
		default:
			c.s.Selector, c.s.Basis, c.rank = fmt.Sprintf("text=%q", n.Text), "other", 3
		}
		cands = append(cands, c)
	}
	// stable insertion sort by rank then document order
	for i := 1; i < len(cands); i++ {
		for j := i; j > 0 && (cands[j].rank < cands[j-1].rank || (cands[j].rank == cands[j-1].rank && cands[j].doc < cands[j-1].doc)); j-- {
			cands[j], cands[j-1] = cands[j-1], cands[j]
		}
	}
	var out []suggestion
	for i := 0; i < len(cands) && i < 5; i++ {
		out = append(out, cands[i].s)
	}
	return out
}
