package runner

import (
	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
)

// The matcher, exported for the recorder: a recorded selector is checked by
// the same code that resolves it when the script replays.

// MatchSegment returns the indexes of the nodes of snap that match every
// term of one selector segment, in document order.
func MatchSegment(snap *drivers.Snapshot, seg lang.SelectorSegment) []int {
	if snap == nil {
		return nil
	}
	return segmentMatches(snap, seg)
}

// ResolveSelector resolves chain in snap as a step does (spec §3.2): the
// node index, or the step's error (selector_not_found, ambiguous_match).
func ResolveSelector(snap *drivers.Snapshot, chain *lang.SelectorChain, mutating bool) (int, *ErrorInfo) {
	res, e := resolveUnique(snap, chain, mutating)
	if e != nil {
		return -1, e
	}
	return res.node, nil
}

// BindsTarget reports whether replay's target-binding verification (§4.2.2)
// of chain with evidence ev would isolate node idx of snap: the chain
// matches, the recorded identity (sibling index to break ties) singles out
// one member, and the chain resolves to that member, which is idx.
func BindsTarget(snap *drivers.Snapshot, chain *lang.SelectorChain, ev *lang.TargetEvidence, idx int, mutating bool) bool {
	if snap == nil || ev == nil || idx < 0 || idx >= len(snap.Nodes) {
		return false
	}
	matches := matchExists(snap, chain)
	var members []int
	for _, i := range matches {
		if hasIdentity(snap, i, ev) {
			members = append(members, i)
		}
	}
	member := -1
	switch {
	case len(members) == 1:
		member = members[0]
	case len(members) > 1:
		for _, i := range members {
			if siblingIndex(snap, i) == ev.Sibling {
				if member >= 0 {
					return false
				}
				member = i
			}
		}
	}
	if member != idx {
		return false
	}
	res, e := resolveUnique(snap, chain, mutating)
	return e == nil && res.node == member
}

// SiblingIndex is node i's index among its parent's children (target-v1 "sibling").
func SiblingIndex(snap *drivers.Snapshot, i int) int { return siblingIndex(snap, i) }
