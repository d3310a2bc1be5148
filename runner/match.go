package runner

import (
	"fmt"
	"strings"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner/match"
)

// Selector resolution for steps: runner/match resolves, this file turns the
// outcome into the step's error, and ranks divergence suggestions.

// resolution is the outcome of a unique resolution.
type resolution struct {
	node       int
	candidates []int // set when AMBIGUOUS_MATCH
}

// resolveUnique resolves a chain to one node with match.Resolve. The error
// is selector_not_found, or AMBIGUOUS_MATCH (mutations; COMMAND_FAILED for
// reads) with the candidates of the first ambiguous segment.
func resolveUnique(snap *drivers.Snapshot, chain *lang.SelectorChain, mutating bool) (resolution, *ErrorInfo) {
	r := match.Resolve(snap, chain, mutating)
	res := resolution{node: r.Node, candidates: r.Candidates}
	if r.Node >= 0 {
		return res, nil
	}
	if r.Ambiguous {
		code := CodeCommandFailed
		if mutating {
			code = CodeAmbiguousMatch
		}
		return res, newErr(code, drivers.ReasonAmbiguousMatch, "Selector did not resolve uniquely (%s)", strings.Join(r.Counts, ", "))
	}
	e := newErr(CodeCommandFailed, drivers.ReasonSelectorNotFound, "Selector did not match (%s)%s", strings.Join(r.Counts, ", "), unseenNote(snap))
	e.Hint = "Selectors match exactly (trimmed, case-insensitive); check the snapshot or add a wait for the element."
	return res, e
}

// unseenNote names, for a miss, what the snapshot could not look inside
// ("" when it saw everything): the element may be there.
func unseenNote(snap *drivers.Snapshot) string {
	if snap == nil {
		return ""
	}
	var parts []string
	more := 0
	for i := range snap.Nodes {
		n := &snap.Nodes[i]
		if n.Unseen == "" {
			continue
		}
		if len(parts) == 3 {
			more++
			continue
		}
		parts = append(parts, fmt.Sprintf("a %s at %s", n.Unseen, match.Describe(n.Role, n.Label, n.Text, n.ID)))
	}
	if len(parts) == 0 {
		return ""
	}
	if more > 0 {
		parts = append(parts, fmt.Sprintf("and %d more", more))
	}
	return "; adtest cannot see inside " + strings.Join(parts, ", ")
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
	words := strings.Fields(match.NormText(want))
	type cand struct {
		s    suggestion
		rank int
		doc  int
	}
	var cands []cand
	for i := range obs.Snap.Nodes {
		n := &obs.Snap.Nodes[i]
		hay := match.NormText(n.Label + " " + n.Text + " " + n.ID)
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
		c.s.Role, c.s.Label = match.CanonRole(n.Role), n.Label
		if k, ok := refOf[i]; ok {
			c.s.Ref = fmt.Sprintf("@e%d", k)
		}
		switch {
		case n.ID != "":
			c.s.Selector, c.s.Basis, c.rank = fmt.Sprintf("id=%q", n.ID), "id", 0
		case n.Label != "" && n.Role != "":
			c.s.Selector, c.s.Basis, c.rank = fmt.Sprintf("role=%s label=%q", match.CanonRole(n.Role), n.Label), "role-label", 1
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
