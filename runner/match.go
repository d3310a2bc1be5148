package runner

import (
	"fmt"
	"strings"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner/match"
)

// Selector resolution for steps: runner/match resolves, this file turns the
// outcome into the step's error.

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
