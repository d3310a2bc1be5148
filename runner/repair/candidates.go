package repair

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner/match"
)

// Candidates: which element on the divergence screen the failed step meant,
// and the selector that names it. Everything here is the replay matcher's
// (runner/match) rules: a candidate must match uniquely and, with the
// step's target-v1 annotation, keep the old element's role and share an
// identity with it (id, label or text); without one, be the only element
// the command can act on that keeps the selector's id or words.

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

// link ranks: the stronger link first.
var bases = []match.Basis{match.BasisID, match.BasisRoleLabel, match.BasisRoleText}

// linkOf is how node n is linked to the old identity ("" when it is not):
// the same role, and the same id, label or text.
func linkOf(old Identity, n *drivers.Node) match.Basis {
	if match.CanonRole(n.Role) != match.CanonRole(old.Role) {
		return ""
	}
	if old.ID != "" && n.ID == old.ID {
		return match.BasisID
	}
	for _, t := range old.Texts {
		if n.Label != "" && match.NormText(n.Label) == t {
			return match.BasisRoleLabel
		}
	}
	for _, t := range old.Texts {
		if n.Text != "" && match.NormText(n.Text) == t {
			return match.BasisRoleText
		}
	}
	return ""
}

// candidates ranks the elements of snap the failed step may have meant,
// each named by the selector a new line would write. With target-v1
// evidence a basis that links several elements is ambiguous: none of them
// is offered on it, and a weaker basis never offers one of them either (a
// duplicate label is refused, not guessed). Without it, the command's
// contract stands in for the old element's kind (contractCandidates). The
// refusal says why nothing is offered.
func candidates(snap *drivers.Snapshot, a *lang.Action, chain *lang.SelectorChain, mutating bool) ([]match.Suggestion, string) {
	old := oldIdentity(a, chain)
	if snap == nil || len(snap.Nodes) == 0 {
		return nil, "the divergence screen could not be captured"
	}
	if a.TargetEvidence == nil {
		return contractCandidates(snap, a, chain, old, mutating)
	}
	linked := map[match.Basis][]int{}
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
	var out []match.Suggestion
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
		if c, ok := suggestion(snap, i, b, chain, a.Command, mutating); ok {
			out = append(out, c)
		}
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

// suggestion names node i for a new line, linked to the old element by b.
func suggestion(snap *drivers.Snapshot, i int, b match.Basis, chain *lang.SelectorChain, command string, mutating bool) (match.Suggestion, bool) {
	sel := selectorFor(snap, i, chain, command, mutating)
	if sel == "" {
		return match.Suggestion{}, false
	}
	n := &snap.Nodes[i]
	return match.Suggestion{Basis: b, Label: n.Label, Role: match.CanonRole(n.Role), Selector: sel, Node: i}, true
}

// contractCandidates links a step without target-v1 evidence to the one
// element its command can act on (match.Acts: a fill's editable, a click's
// actionable; of the selector's role when it names one) that keeps the
// selector's id, or whose label, text or id holds all of the selector's
// words (Name in "Full name", Submit in id=submit). Several such elements
// are refused, never guessed: without the old element's identity only a
// single element of that kind is evidence enough, and even then the line
// is proposed with caution (the re-run still has to pass).
func contractCandidates(snap *drivers.Snapshot, a *lang.Action, chain *lang.SelectorChain, old Identity, mutating bool) ([]match.Suggestion, string) {
	what := contractKind(a.Command)
	if old.Role != "" {
		what += " " + match.CanonRole(old.Role)
	}
	if old.ID == "" && len(old.Texts) == 0 {
		return nil, "the step has no target-v1 annotation and its selector names no id, label or text to look for (adtest annotate writes that evidence while the script passes)"
	}
	var linked []int
	basis := match.BasisContractWords
	for i := range snap.Nodes {
		n := &snap.Nodes[i]
		if !match.Acts(a.Command, n) || (old.Role != "" && match.CanonRole(n.Role) != match.CanonRole(old.Role)) {
			continue
		}
		if old.ID != "" && n.ID == old.ID {
			linked, basis = append(linked, i), match.BasisContractID
			continue
		}
		for _, t := range old.Texts {
			if holdsWords(n, t) {
				linked = append(linked, i)
				break
			}
		}
	}
	switch {
	case len(linked) > 1:
		return nil, fmt.Sprintf("%d %s elements share the selector's id or words (%s) and the step has no target-v1 annotation: ambiguous, not guessed", len(linked), what, describe(old))
	case len(linked) == 0:
		return nil, fmt.Sprintf("no %s element shares the selector's id or words (%s), and the step has no target-v1 annotation", what, describe(old))
	}
	c, ok := suggestion(snap, linked[0], basis, chain, a.Command, mutating)
	if !ok {
		return nil, fmt.Sprintf("the one %s element that shares the selector's id or words (%s) has no selector that names it alone", what, describe(old))
	}
	return []match.Suggestion{c}, ""
}

// contractKind is the kind of element a command's contract asks for.
func contractKind(command string) string {
	if lang.TraitsOf(command).TypesText {
		return "editable"
	}
	return "actionable"
}

// holdsWords reports whether node n's label or text holds every word of t
// (words are runs of letters and digits, compared without case: "Name" is
// in "Full name:"), or its id spells t (Submit: id=submit, submit-button;
// Sign in: id=signin, sign-in, signInButton).
func holdsWords(n *drivers.Node, t string) bool {
	words := wordsOf(t)
	if len(words) == 0 {
		return false
	}
	for _, s := range []string{n.Label, n.Text} {
		have := wordsOf(s)
		all := len(have) > 0
		for _, w := range words {
			if !slices.Contains(have, w) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	want := strings.Join(words, "")
	toks := idTokens(n.ID)
	for i := range toks {
		joined := ""
		for j := i; j < len(toks) && len(joined) < len(want); j++ {
			joined += toks[j]
			if joined == want {
				return true
			}
		}
	}
	return false
}

// wordsOf is the lower-case words of s: its runs of letters and digits.
func wordsOf(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// idTokens splits an id into lower-case words at punctuation and where a
// lower-case letter or digit is followed by an upper-case one
// (signInButton: sign, in, button).
func idTokens(id string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	prevLower := false
	for _, r := range id {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			prevLower = false
			continue
		}
		if unicode.IsUpper(r) && prevLower {
			flush()
		}
		cur = append(cur, r)
		prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
	}
	flush()
	return out
}

func basisWords(b match.Basis) string {
	switch b {
	case match.BasisID:
		return "id"
	case match.BasisRoleLabel:
		return "role and label"
	}
	return "role and text"
}

func describe(id Identity) string {
	return strings.TrimSpace(match.Describe(id.Role, id.Label, id.Text, id.ID))
}

// selectorFor names node i of snap: first the old chain with each term's
// value taken from the node (the smallest edit a reviewer reads), else the
// first of the node's names (match.Names: id, role+label, label, value,
// text) that resolves to it. Every segment kept matches the node and only
// it, and the chain resolves to it.
func selectorFor(snap *drivers.Snapshot, i int, old *lang.SelectorChain, command string, mutating bool) string {
	n := &snap.Nodes[i]
	q := lang.QuoteSelectorValue
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
	}
	place := []match.Place{{Tree: snap, Node: i}}
	var keep []string
	for _, s := range segs {
		if match.Unique(place, s) {
			keep = append(keep, s)
		}
	}
	if c := match.Chain(place, keep, mutating); c != nil {
		return c.Raw
	}
	for _, nm := range match.Names(place, match.Naming{Command: command}) {
		if c := match.Chain(place, []string{nm.Segment}, mutating); c != nil {
			return c.Raw
		}
	}
	return ""
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
