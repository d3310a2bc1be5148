package recorder

import (
	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner/match"
)

// evidence is the target-v1 evidence of node idx of tree for a step whose
// selector is chain, from the one place that names an element
// (match.Evidence): nil when the runner's binding check would not isolate
// the node, or a field would be too long or echo a masked literal.
func (r *Recorder) evidence(tree *drivers.Snapshot, idx int, chain *lang.SelectorChain, mutating bool) *lang.TargetEvidence {
	return match.Evidence(tree, idx, chain, mutating, r.leaks)
}
