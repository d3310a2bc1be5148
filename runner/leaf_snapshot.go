package runner

// Snapshot leaves: snapshot (complete and scoped) and diff.

import (
	"context"
	"strconv"
	"strings"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner/internal/frame"
	"github.com/adtest/adtest/runner/match"
)

func snapshotOptions(f lang.Flags) drivers.SnapshotOptions {
	o := drivers.SnapshotOptions{Interactive: f.Bool("snapshotInteractiveOnly"), Raw: f.Bool("snapshotRaw")}
	if d, ok := f.Int("snapshotDepth"); ok {
		o.Depth = d
	}
	if sc, ok := f.String("snapshotScope"); ok {
		o.Scope = sc
	}
	return o
}

func (s *Session) leafSnapshot(ctx context.Context, a *lang.Action, args lang.Args) (*Output, mutation, *ErrorInfo) {
	opts := snapshotOptions(a.Flags)
	if sa := args.(lang.SnapshotArgs); sa.ScopeIsRef {
		return s.scopedSnapshot(ctx, opts, sa)
	}
	obs, e := s.observe(ctx, opts)
	if e != nil {
		return nil, mutation{}, e
	}
	if len(obs.Refs) == 0 {
		// Sparse or unusable: the frame is unchanged.
		return &Output{Text: "", Warning: "The capture printed no nodes; the ref frame is unchanged", Data: map[string]any{"nodes": 0}}, mutation{}, nil
	}
	s.frame = s.frame.ActivateComplete(obs)
	return s.snapshotOutput(obs, ""), mutation{}, nil
}

func (s *Session) snapshotOutput(obs *observation, warning string) *Output {
	gen := s.frame.Generation()
	return &Output{Text: formatObservation(obs, ""), Warning: warning, Data: map[string]any{"refsGeneration": gen, "nodes": len(obs.Refs)}}
}

// scopedSnapshot is `snapshot -s @ref`: the scope ref is admitted against the
// active frame, or resolved through the scope lineage when the immediately
// preceding publication was the same scoped capture (ADR 0014 evidence 14).
func (s *Session) scopedSnapshot(ctx context.Context, opts drivers.SnapshotOptions, sa lang.SnapshotArgs) (*Output, mutation, *ErrorInfo) {
	if !sa.ScopeRefOK {
		return nil, mutation{}, badRef(opts.Scope)
	}
	ref := sa.ScopeRef.Plain()
	lin, viaLineage := s.frame.LineageFor(ref)
	warning := ""
	if !viaLineage || sa.ScopeRef.Pinned {
		// A read-only consumer: answered from the frame's retained tree, with a
		// staleness warning when the frame has expired; no evidence fails.
		idx, warn, e := s.readRef(sa.ScopeRef)
		if e != nil {
			return nil, mutation{}, e
		}
		warning = warn
		n := &s.frame.Evidence().Snap.Nodes[idx]
		lin = frame.Lineage{Ref: ref, Role: match.CanonRole(n.Role), Label: match.NormText(n.Label), ID: n.ID}
	}
	inner := opts
	inner.Scope = ""
	obs, e := s.observe(ctx, inner)
	if e != nil {
		return nil, mutation{}, e
	}
	root := -1
	for i := range obs.Snap.Nodes {
		n := &obs.Snap.Nodes[i]
		if (lin.ID != "" && n.ID == lin.ID) || (lin.ID == "" && match.CanonRole(n.Role) == lin.Role && match.NormText(n.Label) == lin.Label) {
			root = i
			break
		}
	}
	if root < 0 {
		// Unusable repetition: preserve the last useful frame and lineage.
		e := newErr(CodeCommandFailed, drivers.ReasonScopeNotFound, "Snapshot scope %s is no longer on screen", ref)
		e.Details = map[string]any{"ref": ref}
		return nil, mutation{}, e
	}
	scoped := &observation{Snap: obs.Snap, Opts: inner, Refs: subtreePrinted(obs.Snap, inner, root)}
	if len(scoped.Refs) == 0 {
		return &Output{Warning: "The scoped capture printed no nodes; the ref frame is unchanged"}, mutation{}, nil
	}
	s.frame = s.frame.ActivateScoped(scoped, lin)
	return s.snapshotOutput(scoped, warning), mutation{}, nil
}

// nodeKey identifies a node across captures for diffs (not an identity:
// equal keys are interchangeable in a diff).
func nodeKey(n *drivers.Node) string {
	return n.Role + "\x00" + n.Label + "\x00" + n.ID + "\x00" + n.Text + "\x00" + n.Value
}

// leafDiff is `diff snapshot`: the printed nodes added and removed since the
// latest observation. The added refs are a partial publication (only when
// there is at least one), rendered pinned in text.
func (s *Session) leafDiff(ctx context.Context, a *lang.Action, args lang.Args) (*Output, mutation, *ErrorInfo) {
	if args.(lang.SubArgs).Sub != "snapshot" {
		return nil, mutation{}, newErr(CodeInvalidArgs, drivers.ReasonInvalidArgs, "diff supports only: diff snapshot")
	}
	prev := s.last
	obs, e := s.observe(ctx, drivers.SnapshotOptions{})
	if e != nil {
		return nil, mutation{}, e
	}
	before := map[string]int{}
	if prev != nil {
		for _, idx := range prev.Refs {
			before[nodeKey(&prev.Snap.Nodes[idx])]++
		}
	}
	var added []int
	for k, idx := range obs.Refs {
		key := nodeKey(&obs.Snap.Nodes[idx])
		if before[key] > 0 {
			before[key]--
			continue
		}
		added = append(added, k+1)
	}
	var removed []string
	if prev != nil {
		for _, idx := range prev.Refs {
			n := &prev.Snap.Nodes[idx]
			if before[nodeKey(n)] > 0 {
				before[nodeKey(n)]--
				var b strings.Builder
				b.WriteString("- ")
				writeNodeLine(&b, n, 0, "")
				removed = append(removed, strings.Replace(b.String(), "@e0 ", "", 1))
			}
		}
	}
	s.frame = s.frame.PublishPartial(obs, added)
	out := &Output{Data: map[string]any{"added": len(added), "removed": len(removed)}}
	var b strings.Builder
	if len(added) > 0 {
		gen := s.frame.Generation()
		out.Data["refsGeneration"] = gen
		pin := "~s" + strconv.FormatInt(gen, 10)
		for _, k := range added {
			b.WriteString("+ ")
			writeNodeLine(&b, &obs.Snap.Nodes[obs.Refs[k-1]], k, pin)
			b.WriteByte('\n')
		}
	}
	for _, r := range removed {
		b.WriteString(r)
		b.WriteByte('\n')
	}
	out.Text = b.String()
	if out.Text == "" {
		out.Text = "no changes\n"
	}
	return out, mutation{}, nil
}

// subtreePrinted is printedNodes restricted to root's subtree.
func subtreePrinted(snap *drivers.Snapshot, opts drivers.SnapshotOptions, root int) []int {
	sub := &drivers.Snapshot{Nodes: snap.Nodes[root:subtreeEnd(snap, root)]}
	// Rebase: printedNodes only reads Depth and flags, parents are not used.
	idx := printedNodes(sub, opts)
	for i := range idx {
		idx[i] += root
	}
	return idx
}
