package web

import (
	"context"
	"fmt"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// What a snapshot cannot see (issue 34, bad input): the page library reads
// the page through the DOM, so a closed shadow root and another origin's
// frame are closed to it. It says so instead of missing them silently: a
// node whose Unseen names what is there ("closed shadow root",
// "cross-origin frame (ORIGIN)"), shown in the snapshot and in a selector
// miss.
//
// A cross-origin frame the library knows itself (its document is null to
// it). A closed shadow root it cannot tell from no shadow root at all, so
// it marks the candidates, defined custom elements without an open one,
// and the driver asks Chromium about those only (DOM.describeNode lists a
// host's shadow roots, closed ones included): most pages have none, and
// the snapshot then costs no call more.

// closedUnseen is the Unseen of a host of a closed shadow root.
const closedUnseen = "closed shadow root"

// markClosed asks Chromium about each candidate host of raw and marks
// those with a closed shadow root; a candidate that has none and was a
// node only for the question is dropped.
func (s *Session) markClosed(ctx context.Context, raw *rawSnapshot) error {
	var drop []int
	for i := range raw.Nodes {
		n := &raw.Nodes[i]
		if n.Closed == 0 {
			continue
		}
		closed, err := s.hasClosedRoot(ctx, n.Handle)
		if err != nil {
			return err
		}
		switch {
		case closed:
			n.Unseen = closedUnseen
		case n.Closed == 2:
			drop = append(drop, i)
		}
	}
	if len(drop) > 0 {
		raw.Nodes = dropRaw(raw.Nodes, drop)
	}
	return nil
}

// hasClosedRoot reports whether the element of handle hosts a closed
// shadow root (false when it is gone).
func (s *Session) hasClosedRoot(ctx context.Context, handle string) (bool, error) {
	var closed bool
	err := s.do(ctx, "snapshot", func(ctx context.Context, t *chromedp.Target) error {
		r, err := cdp.Call(ctx, t, runtime.Evaluate, runtime.EvaluateParams{
			Expression: "globalThis.__adtestLib.node(" + jsArgs(handle) + ")", ContextID: s.worldID(),
		})
		if err != nil {
			return err
		}
		if r.ExceptionDetails != nil || r.Result == nil || r.Result.ObjectID == "" {
			return nil
		}
		id := r.Result.ObjectID
		defer cdp.Call(ctx, t, runtime.ReleaseObject, runtime.ReleaseObjectParams{ObjectID: id})
		d, err := cdp.Call(ctx, t, dom.DescribeNode, dom.DescribeNodeParams{ObjectID: id, Depth: ptr(int64(0))})
		if err != nil {
			return fmt.Errorf("web: snapshot: describe a custom element: %w", err)
		}
		if d.Node == nil {
			return nil
		}
		for _, sr := range d.Node.ShadowRoots {
			if sr.ShadowRootType == cdp.ShadowRootTypeClosed {
				closed = true
			}
		}
		return nil
	})
	return closed, err
}

// dropRaw removes the nodes at the (ascending) indexes drop; their
// children move up to their parent, and parents and depths are renumbered.
func dropRaw(nodes []rawNode, drop []int) []rawNode {
	gone := make(map[int]bool, len(drop))
	for _, i := range drop {
		gone[i] = true
	}
	newIndex := make([]int, len(nodes))
	out := make([]rawNode, 0, len(nodes)-len(drop))
	for i, n := range nodes {
		if gone[i] {
			newIndex[i] = -1
			continue
		}
		p := n.Parent
		for p >= 0 && gone[p] {
			p = nodes[p].Parent
		}
		n.Parent, n.Depth = -1, 0
		if p >= 0 {
			n.Parent = newIndex[p]
			n.Depth = out[n.Parent].Depth + 1
		}
		newIndex[i] = len(out)
		out = append(out, n)
	}
	return out
}
