package runner

import (
	"context"
	"fmt"

	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner/match"

	"github.com/adtest/adtest/drivers"
)

// Target-binding verification of target-v1 evidence (spec §4.2.2). It runs
// before dispatch on an internal capture and never touches the ref frame: a
// non-verified outcome ends the step before the side-effect seam, so the
// frame is preserved (ADR 0014 evidence 2).

// bindingSelector returns the selector of an annotated step, or nil when the
// step is not verified. The element-targeting commands are those whose
// arguments bind to a target or an is assertion; anything else, a ref or
// point target, is exists/absent and arguments that did not bind are not
// verified.
func bindingSelector(a *lang.Action, args lang.Args) *lang.SelectorChain {
	if a.TargetEvidence == nil {
		return nil
	}
	var t lang.Target
	switch v := args.(type) {
	case lang.TargetArgs:
		t = v.Target
	case lang.GetArgs:
		t = v.Target
	case lang.IsArgs:
		if v.Predicate == "exists" || v.Predicate == "absent" {
			return nil
		}
		return v.Selector
	default:
		return nil
	}
	if t.Kind != lang.TargetSelector {
		return nil
	}
	return t.Selector
}

// verifyTarget classifies an annotated step and returns a binding error for
// anything but "verified" (or nil when the step is not verified at all).
func (s *Session) verifyTarget(ctx context.Context, a *lang.Action, args lang.Args) *ErrorInfo {
	chain := bindingSelector(a, args)
	if chain == nil {
		return nil
	}
	ev := a.TargetEvidence
	recorded := RecordedIdentity{Role: ev.Role, ID: ev.ID, Label: ev.Label}
	fail := func(kind string, reason drivers.Reason, msg string, matchCount int, obs *observation, cands []int) *ErrorInfo {
		e := newErr(CodeCommandFailed, reason, "%s", msg)
		e.Hint = "The recorded target is not the element on screen; re-record the step or repair the selector."
		tb := &TargetBinding{Classification: kind, Recorded: recorded}
		if matchCount >= 0 {
			tb.MatchCount = &matchCount
		}
		if obs != nil && len(cands) > 0 {
			for _, i := range cands {
				n := &obs.Snap.Nodes[i]
				tb.Candidates = append(tb.Candidates, BindingCandidate{Role: n.Role, Label: n.Label})
				if len(tb.Candidates) == 5 {
					break
				}
			}
		}
		e.Details = map[string]any{"selector": chain.Raw, "targetBinding": tb}
		return e
	}
	if ev.Verification == "unverifiable" {
		return fail("identity-unverifiable", drivers.ReasonIdentityUnverifiable, fmt.Sprintf("Target %s was recorded as unverifiable", chain.Raw), -1, nil, nil)
	}
	var obs *observation
	var matches []int
	check := func(o *observation) bool {
		obs, matches = o, match.Exists(o.Snap, chain)
		return len(matches) > 0
	}
	readiness := s.readiness()
	if !lang.TraitsOf(a.Command).ReadinessWait {
		readiness = 0
	}
	if _, _, e := s.poll(ctx, readiness, check); e != nil {
		return e
	}
	if len(matches) == 0 {
		return fail("selector-miss", drivers.ReasonSelectorMiss, fmt.Sprintf("Selector %s matched nothing (recorded target not on screen)", chain.Raw), 0, obs, nil)
	}
	var members []int
	for _, i := range matches {
		if match.HasIdentity(obs.Snap, i, ev) {
			members = append(members, i)
		}
	}
	if len(members) == 0 {
		return fail("identity-mismatch", drivers.ReasonIdentityMismatch, fmt.Sprintf("Selector %s matched %d element(s), none with the recorded identity", chain.Raw, len(matches)), len(matches), obs, matches)
	}
	mutating := !lang.TraitsOf(a.Command).ReadOnly
	res, rerr := resolveUnique(obs.Snap, chain, mutating)
	member := -1
	if len(members) == 1 {
		member = members[0]
	} else {
		var iso []int
		for _, i := range members {
			if match.SiblingIndex(obs.Snap, i) == ev.Sibling {
				iso = append(iso, i)
			}
		}
		if len(iso) != 1 {
			return fail("identity-unverifiable", drivers.ReasonIdentityUnverifiable, fmt.Sprintf("Selector %s matched %d elements with the recorded identity; none isolates the target", chain.Raw, len(members)), len(matches), obs, members)
		}
		member = iso[0]
	}
	if rerr != nil || res.node != member {
		return fail("identity-mismatch", drivers.ReasonIdentityMismatch, fmt.Sprintf("Selector %s resolves to another element than the recorded target", chain.Raw), len(matches), obs, matches)
	}
	return nil
}

// bindingKind maps a binding reason to the divergence kind.
func bindingKind(reason drivers.Reason) string {
	switch reason {
	case drivers.ReasonSelectorMiss:
		return "selector-miss"
	case drivers.ReasonIdentityMismatch, drivers.ReasonWaitLandmarkIdentityMismatch:
		return "identity-mismatch"
	case drivers.ReasonIdentityUnverifiable:
		return "identity-unverifiable"
	}
	return ""
}
