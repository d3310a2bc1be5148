package runner

// Target resolution: refs against the frame, selectors against a capture.

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
)

type resolved struct {
	target  *drivers.Target
	node    *drivers.Node // nil for points
	warning string
	polls   int
}

func badRef(ref string) *ErrorInfo {
	e := newErr(CodeInvalidArgs, drivers.ReasonInvalidRef, "Invalid ref %q: refs look like @e3 or @e3~s42", ref)
	e.Details = map[string]any{"ref": ref}
	return e
}

// resolveTarget resolves a bound target. Refs are admitted against the
// frame (mutation admission when mutating, else read admission) and resolved
// in the frame's own tree; selectors resolve against a fresh internal capture,
// polling up to readiness for a target that is not there yet.
func (s *Session) resolveTarget(ctx context.Context, it lang.Target, mutating bool, readiness time.Duration) (*resolved, *ErrorInfo) {
	r := &resolved{}
	switch it.Kind {
	case lang.TargetRef:
		if !it.RefOK {
			return nil, badRef(it.Raw)
		}
		ref := it.Ref.Plain()
		var idx int
		var e *ErrorInfo
		if mutating {
			idx, e = s.admitMutation(it.Ref)
		} else {
			idx, r.warning, e = s.readRef(it.Ref)
		}
		if e != nil {
			return nil, e
		}
		tree := s.frame.Evidence().Snap
		n := tree.Nodes[idx]
		r.node = &n
		r.target = &drivers.Target{Node: r.node, Point: n.Rect.Center(), Describe: describeNode(ref, &n)}
		s.resolvedAt(lang.TargetRef, ref, "", tree, idx, r.target.Point)
		return r, nil
	case lang.TargetPoint:
		r.target = &drivers.Target{Point: drivers.Point{X: it.X, Y: it.Y}, Describe: fmt.Sprintf("%g %g", it.X, it.Y)}
		s.resolvedAt(lang.TargetPoint, "", "", nil, -1, r.target.Point)
		return r, nil
	}
	var res resolution
	var rerr *ErrorInfo
	var obs *observation
	check := func(o *observation) bool {
		obs = o
		res, rerr = resolveUnique(o.Snap, it.Selector, mutating)
		return rerr == nil || rerr.Reason != drivers.ReasonSelectorNotFound
	}
	if readiness > 0 {
		polls, done, e := s.poll(ctx, readiness, check)
		if e != nil {
			return nil, e
		}
		r.polls = polls
		if !done && rerr != nil {
			end := "expired"
			if obs != nil && len(obs.Snap.Nodes) == 0 {
				// The app showed an empty tree the whole time.
				end = "sparse"
				rerr.Reason = drivers.ReasonCaptureSparse
				rerr.Message = fmt.Sprintf("The screen showed no elements while waiting for %s", it.Selector.Raw)
			}
			rerr.Details = map[string]any{"selector": it.Selector.Raw, "readiness": map[string]any{"waitedMs": readiness.Milliseconds(), "polls": polls, "end": end}}
		}
	} else {
		o, e := s.observe(ctx, drivers.SnapshotOptions{})
		if e != nil {
			return nil, e
		}
		check(o)
	}
	if rerr != nil {
		if rerr.Details == nil {
			rerr.Details = map[string]any{"selector": it.Selector.Raw}
		}
		if len(res.candidates) > 0 && rerr.Code == CodeAmbiguousMatch {
			s.publishCandidates(obs, res.candidates, rerr)
		}
		return nil, rerr
	}
	n := obs.Snap.Nodes[res.node]
	r.node = &n
	r.target = &drivers.Target{Node: r.node, Point: n.Rect.Center(), Describe: it.Selector.Raw}
	s.resolvedAt(lang.TargetSelector, "", it.Selector.Raw, obs.Snap, res.node, r.target.Point)
	return r, nil
}

// publishCandidates issues the AMBIGUOUS_MATCH candidates as a partial frame
// (spec §6 rule 8) and lists them, pinned, in the error.
func (s *Session) publishCandidates(obs *observation, cands []int, e *ErrorInfo) {
	refOf := refIndex(obs)
	var nums []int
	var list []map[string]any
	for _, idx := range cands {
		n := &obs.Snap.Nodes[idx]
		c := map[string]any{"role": n.Role, "label": n.Label}
		if k, ok := refOf[idx]; ok {
			nums = append(nums, k)
		}
		list = append(list, c)
	}
	s.frame = s.frame.PublishPartial(obs, nums)
	gen := s.frame.Generation()
	for j, idx := range cands {
		if k, ok := refOf[idx]; ok {
			list[j]["ref"] = fmt.Sprintf("@e%d~s%d", k, gen)
		}
	}
	e.Details["candidates"] = list
	if len(nums) > 0 {
		e.Details["refsGeneration"] = gen
	}
}

func refIndex(obs *observation) map[int]int {
	m := make(map[int]int, len(obs.Refs))
	for k, idx := range obs.Refs {
		m[idx] = k + 1
	}
	return m
}

func describeNode(ref string, n *drivers.Node) string {
	label := n.Label
	if label == "" {
		label = n.Text
	}
	if label == "" {
		return ref
	}
	return ref + " " + strconv.Quote(label)
}
