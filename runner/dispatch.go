package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
)

// Output is what one leaf command returns.
type Output struct {
	// Text is the command's text output (snapshot tree, get text, ...).
	Text string
	// Data is the structured output (JSON mode).
	Data map[string]any
	// Warning is a non-fatal note (stale read-only ref, empty capture).
	Warning string
}

type leafFunc func(s *Session, ctx context.Context, a *lang.Action) (*Output, *ErrorInfo)

// leaves maps every command the runner executes to its leaf.
var leaves map[string]leafFunc

// unsupportedLeaves are commands a script can reach that this runner
// deliberately answers with UNSUPPORTED_OPERATION (command and platform named).
var unsupportedLeaves = map[string]bool{
	"app-switcher": true, "orientation": true, "record": true, "trace": true,
	"settings": true, "clipboard": true, "push": true, "trigger-app-event": true, "install": true,
	"reinstall": true, "install-from-source": true, "react-native": true, "tv-remote": true,
	"fold": true, "perf": true, "logs": true, "network": true, "audio": true, "events": true,
	"devices": true, "apps": true, "capabilities": true, "doctor": true, "boot": true,
	"shutdown": true, "prepare": true, "artifacts": true, "test": true, "batch": true,
}

func init() {
	leaves = map[string]leafFunc{
		"open": (*Session).leafOpen, "close": (*Session).leafClose,
		"snapshot": (*Session).leafSnapshot, "diff": (*Session).leafDiff,
		"click": (*Session).leafClick, "press": (*Session).leafClick,
		"longpress": (*Session).leafLongPress, "fill": (*Session).leafFill,
		"type": (*Session).leafType, "focus": (*Session).leafFocus, "hover": (*Session).leafHover,
		"get": (*Session).leafGet, "is": (*Session).leafIs, "find": (*Session).leafFind,
		"wait": (*Session).leafWait, "scroll": (*Session).leafScroll, "swipe": (*Session).leafSwipe,
		"gesture": (*Session).leafGesture, "back": (*Session).leafBack, "home": (*Session).leafHome,
		"keyboard": (*Session).leafKeyboard, "alert": (*Session).leafAlert,
		"screenshot": (*Session).leafScreenshot, "viewport": (*Session).leafViewport,
		"appstate": (*Session).leafAppState, "runtime": (*Session).leafNoop,
		"replay": (*Session).leafNoop,
	}
}

// dispatchDecision reports how the runner handles a command: "leaf",
// "unsupported", or "" when no decision exists (a test guards this).
func dispatchDecision(cmd string) string {
	if _, ok := leaves[cmd]; ok {
		return "leaf"
	}
	if unsupportedLeaves[cmd] {
		return "unsupported"
	}
	return ""
}

// Dispatch executes one action against the session: the single leaf path
// used by replay and by interactive commands. Variables must already be
// resolved. It admits refs against the ref frame, runs pre-action guards,
// crosses the side-effect seam for mutating commands, then calls the driver.
//
// Calls are serialised per session (the per-session request lock of ADR 0014).
func (s *Session) Dispatch(ctx context.Context, a *lang.Action) (*Output, *ErrorInfo) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dispatch(ctx, a)
}

func (s *Session) dispatch(ctx context.Context, a *lang.Action) (*Output, *ErrorInfo) {
	if _, known := lang.LookupCommand(a.Command); !known {
		if _, ok := leaves[a.Command]; !ok {
			return nil, newErr(CodeInvalidArgs, "unknown_command", "Unknown command %q", a.Command)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, ctxError(ctx, err)
	}
	if s.closed && a.Command != "open" && a.Command != "replay" {
		return nil, newErr(CodeSessionNotFound, "session_closed", "The session was closed; run open first")
	}
	leaf, ok := leaves[a.Command]
	if !ok {
		if unsupportedLeaves[a.Command] {
			return nil, unsupported(a.Command, s.cfg.Platform)
		}
		return nil, newErr(CodeUnknown, "no_dispatch_decision", "Command %q has no dispatch decision", a.Command)
	}
	out, e := leaf(s, ctx, a)
	if e != nil && ctx.Err() != nil && e.Reason != "timeout" && e.Reason != "cancelled" {
		if ce := ctxError(ctx, ctx.Err()); ce != nil {
			return nil, ce
		}
	}
	return out, e
}

// ---- the side-effect seam -------------------------------------------------

// crossSeam expires the frame for an action whose registry effect may
// invalidate (ADR 0014): called after every pre-action guard and immediately
// before the first device operation. Idempotent while expired.
func (s *Session) crossSeam(a *lang.Action) {
	eff, _ := lang.EffectOf(a)
	if eff == lang.EffectPreserve {
		return
	}
	s.frame = s.frame.expire()
	s.seams++
}

// act runs the driver's Preflight guard (pre-seam), crosses the seam, then
// performs op. A failure of op leaves the frame expired.
func (s *Session) act(ctx context.Context, a *lang.Action, da drivers.Action) *ErrorInfo {
	if pf, ok := s.drv.(drivers.Preflighter); ok && da.Target != nil && da.Target.Node != nil {
		if err := pf.Preflight(ctx, da); err != nil {
			return fromError(ctx, a.Command, s.cfg.Platform, err)
		}
	}
	s.crossSeam(a)
	if err := s.drv.Act(ctx, da); err != nil {
		return fromError(ctx, a.Command, s.cfg.Platform, err)
	}
	return nil
}

// ---- observations -------------------------------------------------------------

// observe is an internal read-only capture: it replaces the latest
// observation and never touches the ref frame.
func (s *Session) observe(ctx context.Context, opts drivers.SnapshotOptions) (*observation, *ErrorInfo) {
	driverOpts := opts
	driverOpts.Scope = "" // the runner scopes, so refs number the same everywhere
	snap, err := s.drv.Snapshot(ctx, driverOpts)
	if err != nil {
		return nil, fromError(ctx, "snapshot", s.cfg.Platform, err)
	}
	obs := newObservation(snap, opts)
	s.last = obs
	return obs, nil
}

// poll runs check on fresh internal captures until it reports done or
// timeout passes on the session clock.
func (s *Session) poll(ctx context.Context, timeout time.Duration, check func(*observation) bool) (polls int, done bool, e *ErrorInfo) {
	deadline := s.cfg.Clock.Now().Add(timeout)
	for {
		obs, err := s.observe(ctx, drivers.SnapshotOptions{})
		if err != nil {
			return polls, false, err
		}
		polls++
		if check(obs) {
			return polls, true, nil
		}
		now := s.cfg.Clock.Now()
		if !now.Before(deadline) {
			return polls, false, nil
		}
		wait := min(s.cfg.PollInterval, deadline.Sub(now))
		select {
		case <-ctx.Done():
			return polls, false, ctxError(ctx, ctx.Err())
		case <-s.cfg.Clock.After(wait):
		}
	}
}

func (s *Session) sleep(ctx context.Context, d time.Duration) *ErrorInfo {
	if d <= 0 {
		return nil
	}
	select {
	case <-ctx.Done():
		return ctxError(ctx, ctx.Err())
	case <-s.cfg.Clock.After(d):
		return nil
	}
}

// ---- target resolution ------------------------------------------------------

type resolved struct {
	target  *drivers.Target
	node    *drivers.Node // nil for points
	it      *lang.InteractionTarget
	warning string
	polls   int
}

func decodeTarget(positionals []string, trailing int) (*lang.InteractionTarget, *ErrorInfo) {
	it, err := lang.DecodeTarget(positionals, lang.TargetOptions{Trailing: trailing})
	if err != nil {
		return nil, fromError(context.Background(), "", "", err)
	}
	return it, nil
}

func badRef(ref string) *ErrorInfo {
	e := newErr(CodeInvalidArgs, "invalid_ref", "Invalid ref %q: refs look like @e3 or @e3~s42", ref)
	e.Details = map[string]any{"ref": ref}
	return e
}

// resolveTarget resolves a decoded target. Refs are admitted against the
// frame (mutation admission when mutating, else read admission) and resolved
// in the frame's own tree; selectors resolve against a fresh internal capture,
// polling up to readiness for a target that is not there yet.
func (s *Session) resolveTarget(ctx context.Context, it *lang.InteractionTarget, mutating bool, readiness time.Duration) (*resolved, *ErrorInfo) {
	r := &resolved{it: it}
	switch it.Kind {
	case "ref":
		ref, pin, pinned, ok := lang.ParseRef(it.Raw)
		if !ok {
			return nil, badRef(it.Raw)
		}
		ri := refFromParts(ref, pin, pinned)
		var idx int
		var e *ErrorInfo
		if mutating {
			idx, e = s.frame.admitMutation(ri)
		} else {
			idx, r.warning, e = s.frame.readRef(ri)
		}
		if e != nil {
			return nil, e
		}
		n := s.frame.evidence().snap.Nodes[idx]
		r.node = &n
		r.target = &drivers.Target{Node: r.node, Point: n.Rect.Center(), Describe: describeNode(ref, &n)}
		return r, nil
	case "point":
		r.target = &drivers.Target{Point: drivers.Point{X: it.X, Y: it.Y}, Describe: fmt.Sprintf("%g %g", it.X, it.Y)}
		return r, nil
	}
	var res resolution
	var rerr *ErrorInfo
	var obs *observation
	check := func(o *observation) bool {
		obs = o
		res, rerr = resolveUnique(o.snap, it.Selector, mutating)
		return rerr == nil || rerr.Reason != "selector_not_found"
	}
	if readiness > 0 {
		polls, done, e := s.poll(ctx, readiness, check)
		if e != nil {
			return nil, e
		}
		r.polls = polls
		if !done && rerr != nil {
			end := "expired"
			if obs != nil && len(obs.snap.Nodes) == 0 {
				// The app showed an empty tree the whole time.
				end = "sparse"
				rerr.Reason = "capture_sparse"
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
	n := obs.snap.Nodes[res.node]
	r.node = &n
	r.target = &drivers.Target{Node: r.node, Point: n.Rect.Center(), Describe: it.Selector.Raw}
	return r, nil
}

// publishCandidates issues the AMBIGUOUS_MATCH candidates as a partial frame
// (spec §6 rule 8) and lists them, pinned, in the error.
func (s *Session) publishCandidates(obs *observation, cands []int, e *ErrorInfo) {
	refOf := refIndex(obs)
	var nums []int
	var list []map[string]any
	for _, idx := range cands {
		n := &obs.snap.Nodes[idx]
		c := map[string]any{"role": n.Role, "label": n.Label}
		if k, ok := refOf[idx]; ok {
			nums = append(nums, k)
		}
		list = append(list, c)
	}
	s.frame = s.frame.publishPartial(obs, nums)
	gen := s.frame.generation()
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
	m := make(map[int]int, len(obs.refs))
	for k, idx := range obs.refs {
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

// ---- lifecycle ------------------------------------------------------------------

func (s *Session) leafNoop(ctx context.Context, a *lang.Action) (*Output, *ErrorInfo) {
	return &Output{}, nil
}

func (s *Session) leafOpen(ctx context.Context, a *lang.Action) (*Output, *ErrorInfo) {
	req := drivers.OpenRequest{Relaunch: a.Flags.Bool("relaunch")}
	if len(a.Positionals) > 0 {
		req.Target = a.Positionals[0]
	}
	if len(a.Positionals) > 1 {
		req.URL = a.Positionals[1]
	}
	if u, ok := a.Runtime.String("launchUrl"); ok && req.URL == "" {
		req.URL = u
	}
	// An open against an existing session expires its frame before the first
	// close/launch dispatch; a failure after dispatch leaves it expired.
	s.crossSeam(a)
	if err := s.drv.Open(ctx, req); err != nil {
		return nil, fromError(ctx, a.Command, s.cfg.Platform, err)
	}
	s.opened, s.closed = true, false
	return &Output{Text: "Opened " + req.Target}, nil
}

func (s *Session) leafClose(ctx context.Context, a *lang.Action) (*Output, *ErrorInfo) {
	s.crossSeam(a)
	if err := s.drv.Close(ctx); err != nil {
		return nil, fromError(ctx, a.Command, s.cfg.Platform, err)
	}
	s.frame = s.frame.closeSession()
	s.closed = true
	return &Output{Text: "Closed"}, nil
}

// ---- snapshot -------------------------------------------------------------------

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

func (s *Session) leafSnapshot(ctx context.Context, a *lang.Action) (*Output, *ErrorInfo) {
	opts := snapshotOptions(a.Flags)
	if strings.HasPrefix(opts.Scope, "@") {
		return s.scopedSnapshot(ctx, opts)
	}
	obs, e := s.observe(ctx, opts)
	if e != nil {
		return nil, e
	}
	if len(obs.refs) == 0 {
		// Sparse or unusable: the frame is unchanged.
		return &Output{Text: "", Warning: "The capture printed no nodes; the ref frame is unchanged", Data: map[string]any{"nodes": 0}}, nil
	}
	s.frame = s.frame.activateComplete(obs)
	return s.snapshotOutput(obs, ""), nil
}

func (s *Session) snapshotOutput(obs *observation, warning string) *Output {
	gen := s.frame.generation()
	return &Output{Text: formatObservation(obs, ""), Warning: warning, Data: map[string]any{"refsGeneration": gen, "nodes": len(obs.refs)}}
}

// scopedSnapshot is `snapshot -s @ref`: the scope ref is admitted against the
// active frame, or resolved through the scope lineage when the immediately
// preceding publication was the same scoped capture (ADR 0014 evidence 14).
func (s *Session) scopedSnapshot(ctx context.Context, opts drivers.SnapshotOptions) (*Output, *ErrorInfo) {
	ref, pin, pinned, ok := lang.ParseRef(opts.Scope)
	if !ok {
		return nil, badRef(opts.Scope)
	}
	lin, viaLineage := s.frame.lineageFor(ref)
	warning := ""
	if !viaLineage || pinned {
		// A read-only consumer: answered from the frame's retained tree, with a
		// staleness warning when the frame has expired; no evidence fails.
		idx, warn, e := s.frame.readRef(refFromParts(ref, pin, pinned))
		if e != nil {
			return nil, e
		}
		warning = warn
		n := &s.frame.evidence().snap.Nodes[idx]
		lin = scopeLineage{ref: ref, role: canonRole(n.Role), label: normText(n.Label), id: n.ID}
	}
	inner := opts
	inner.Scope = ""
	obs, e := s.observe(ctx, inner)
	if e != nil {
		return nil, e
	}
	root := -1
	for i := range obs.snap.Nodes {
		n := &obs.snap.Nodes[i]
		if (lin.id != "" && n.ID == lin.id) || (lin.id == "" && canonRole(n.Role) == lin.role && normText(n.Label) == lin.label) {
			root = i
			break
		}
	}
	if root < 0 {
		// Unusable repetition: preserve the last useful frame and lineage.
		e := newErr(CodeCommandFailed, "scope_not_found", "Snapshot scope %s is no longer on screen", ref)
		e.Details = map[string]any{"ref": ref}
		return nil, e
	}
	scoped := &observation{snap: obs.snap, opts: inner, refs: subtreePrinted(obs.snap, inner, root)}
	if len(scoped.refs) == 0 {
		return &Output{Warning: "The scoped capture printed no nodes; the ref frame is unchanged"}, nil
	}
	s.frame = s.frame.activateScoped(scoped, lin)
	return s.snapshotOutput(scoped, warning), nil
}

// nodeKey identifies a node across captures for diffs (not an identity:
// equal keys are interchangeable in a diff).
func nodeKey(n *drivers.Node) string {
	return n.Role + "\x00" + n.Label + "\x00" + n.ID + "\x00" + n.Text + "\x00" + n.Value
}

// leafDiff is `diff snapshot`: the printed nodes added and removed since the
// latest observation. The added refs are a partial publication (only when
// there is at least one), rendered pinned in text.
func (s *Session) leafDiff(ctx context.Context, a *lang.Action) (*Output, *ErrorInfo) {
	if len(a.Positionals) == 0 || a.Positionals[0] != "snapshot" {
		return nil, newErr(CodeInvalidArgs, "invalid_args", "diff supports only: diff snapshot")
	}
	prev := s.last
	obs, e := s.observe(ctx, drivers.SnapshotOptions{})
	if e != nil {
		return nil, e
	}
	before := map[string]int{}
	if prev != nil {
		for _, idx := range prev.refs {
			before[nodeKey(&prev.snap.Nodes[idx])]++
		}
	}
	var added []int
	for k, idx := range obs.refs {
		key := nodeKey(&obs.snap.Nodes[idx])
		if before[key] > 0 {
			before[key]--
			continue
		}
		added = append(added, k+1)
	}
	var removed []string
	if prev != nil {
		for _, idx := range prev.refs {
			n := &prev.snap.Nodes[idx]
			if before[nodeKey(n)] > 0 {
				before[nodeKey(n)]--
				var b strings.Builder
				b.WriteString("- ")
				writeNodeLine(&b, n, 0, "")
				removed = append(removed, strings.Replace(b.String(), "@e0 ", "", 1))
			}
		}
	}
	s.frame = s.frame.publishPartial(obs, added)
	out := &Output{Data: map[string]any{"added": len(added), "removed": len(removed)}}
	var b strings.Builder
	if len(added) > 0 {
		gen := s.frame.generation()
		out.Data["refsGeneration"] = gen
		pin := "~s" + strconv.FormatInt(gen, 10)
		for _, k := range added {
			b.WriteString("+ ")
			writeNodeLine(&b, &obs.snap.Nodes[obs.refs[k-1]], k, pin)
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
	return out, nil
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

// ---- interactions -------------------------------------------------------------

func (s *Session) readiness() time.Duration {
	if s.cfg.ReadinessTimeout < 0 {
		return 0
	}
	return s.cfg.ReadinessTimeout
}

func (s *Session) leafClick(ctx context.Context, a *lang.Action) (*Output, *ErrorInfo) {
	it, e := decodeTarget(a.Positionals, 0)
	if e != nil {
		return nil, e
	}
	r, e := s.resolveTarget(ctx, it, true, s.readiness())
	if e != nil {
		return nil, e
	}
	da := drivers.Action{Kind: drivers.ActTap, Target: r.target, Count: 1, Button: "primary"}
	if n, ok := a.Flags.Int("count"); ok && n > 0 {
		da.Count = n
	}
	da.IntervalMs, _ = a.Flags.Int("intervalMs")
	da.HoldMs, _ = a.Flags.Int("holdMs")
	da.DoubleTap = a.Flags.Bool("doubleTap")
	if b, ok := a.Flags.String("clickButton"); ok {
		da.Button = b
	}
	// One logical command: resolved once above, expired once in act, the
	// driver repeats the same physical point Count times.
	if e := s.act(ctx, a, da); e != nil {
		return nil, e
	}
	return &Output{Text: "Tapped " + r.target.Describe, Warning: r.warning}, nil
}

func (s *Session) leafLongPress(ctx context.Context, a *lang.Action) (*Output, *ErrorInfo) {
	pos := a.Positionals
	dur := 800 * time.Millisecond
	if len(pos) > 1 {
		if ms, ok := lang.JSNumber(pos[len(pos)-1]); ok {
			// the last numeric positional is the duration, unless it is a point's y
			if it, err := lang.DecodeTarget(pos, lang.TargetOptions{}); err != nil || it.Kind != "point" || len(it.Rest) > 0 {
				dur = time.Duration(ms) * time.Millisecond
				pos = pos[:len(pos)-1]
			}
		}
	}
	it, e := decodeTarget(pos, 0)
	if e != nil {
		return nil, e
	}
	r, e := s.resolveTarget(ctx, it, true, s.readiness())
	if e != nil {
		return nil, e
	}
	if e := s.act(ctx, a, drivers.Action{Kind: drivers.ActLongPress, Target: r.target, Duration: dur}); e != nil {
		return nil, e
	}
	return &Output{Text: "Long-pressed " + r.target.Describe}, nil
}

func (s *Session) leafFill(ctx context.Context, a *lang.Action) (*Output, *ErrorInfo) {
	if len(a.Positionals) < 2 {
		return nil, newErr(CodeInvalidArgs, "invalid_args", "fill requires a target and text: fill <target> <text>")
	}
	it, e := decodeTarget(a.Positionals, 1)
	if e != nil {
		return nil, e
	}
	text := strings.Join(it.Rest, " ")
	r, e := s.resolveTarget(ctx, it, true, s.readiness())
	if e != nil {
		return nil, e
	}
	da := drivers.Action{Kind: drivers.ActFill, Target: r.target, Text: text}
	da.DelayMs, _ = a.Flags.Int("delayMs")
	if e := s.act(ctx, a, da); e != nil {
		return nil, e
	}
	return &Output{Text: "Filled " + r.target.Describe}, nil
}

func (s *Session) leafType(ctx context.Context, a *lang.Action) (*Output, *ErrorInfo) {
	da := drivers.Action{Kind: drivers.ActType, Text: strings.Join(a.Positionals, " ")}
	da.DelayMs, _ = a.Flags.Int("delayMs")
	if e := s.act(ctx, a, da); e != nil {
		return nil, e
	}
	return &Output{Text: "Typed"}, nil
}

func (s *Session) targetAction(ctx context.Context, a *lang.Action, kind drivers.ActionKind, verb string) (*Output, *ErrorInfo) {
	it, e := decodeTarget(a.Positionals, 0)
	if e != nil {
		return nil, e
	}
	r, e := s.resolveTarget(ctx, it, true, 0)
	if e != nil {
		return nil, e
	}
	if e := s.act(ctx, a, drivers.Action{Kind: kind, Target: r.target}); e != nil {
		return nil, e
	}
	return &Output{Text: verb + " " + r.target.Describe}, nil
}

func (s *Session) leafFocus(ctx context.Context, a *lang.Action) (*Output, *ErrorInfo) {
	return s.targetAction(ctx, a, drivers.ActFocus, "Focused")
}

func (s *Session) leafHover(ctx context.Context, a *lang.Action) (*Output, *ErrorInfo) {
	return s.targetAction(ctx, a, drivers.ActHover, "Hovered")
}

// ---- reads ------------------------------------------------------------------------

// readText is get text's answer: an input's value, else its text, else its label.
func readText(n *drivers.Node) string {
	if n.Editable && n.Value != "" {
		return n.Value
	}
	for _, v := range []string{n.Text, n.Label, n.Value} {
		if v != "" {
			return v
		}
	}
	return ""
}

func (s *Session) leafGet(ctx context.Context, a *lang.Action) (*Output, *ErrorInfo) {
	if len(a.Positionals) < 2 || (a.Positionals[0] != "text" && a.Positionals[0] != "attrs") {
		return nil, newErr(CodeInvalidArgs, "invalid_args", "get requires text|attrs and a target: get text <target>")
	}
	it, e := decodeTarget(a.Positionals[1:], 0)
	if e != nil {
		return nil, e
	}
	r, e := s.resolveTarget(ctx, it, false, 0)
	if e != nil {
		return nil, e
	}
	if a.Positionals[0] == "text" {
		t := readText(r.node)
		return &Output{Text: t, Warning: r.warning, Data: map[string]any{"text": t}}, nil
	}
	attrs := map[string]string{"role": r.node.Role, "label": r.node.Label, "id": r.node.ID, "text": r.node.Text, "value": r.node.Value}
	if ar, ok := s.drv.(drivers.AttrReader); ok && r.warning == "" {
		m, err := ar.Attrs(ctx, r.node)
		if err != nil {
			return nil, fromError(ctx, a.Command, s.cfg.Platform, err)
		}
		attrs = m
	}
	b, _ := json.Marshal(attrs)
	data := map[string]any{"attrs": attrs}
	return &Output{Text: string(b), Warning: r.warning, Data: data}, nil
}

var predicates = map[string]bool{"visible": true, "hidden": true, "exists": true, "editable": true, "selected": true, "focused": true, "text": true, "absent": true}

func (s *Session) leafIs(ctx context.Context, a *lang.Action) (*Output, *ErrorInfo) {
	p := a.Positionals
	if len(p) < 2 {
		return nil, newErr(CodeInvalidArgs, "invalid_args", "is requires a predicate and a selector: is <predicate> <selector> [value]")
	}
	pred, selText, rest := p[0], p[1], p[2:]
	if !predicates[pred] && predicates[p[1]] {
		pred, selText = p[1], p[0]
	}
	if !predicates[pred] {
		return nil, newErr(CodeInvalidArgs, "invalid_args", "Unknown predicate %q. Supported: visible, hidden, exists, editable, selected, focused, text, absent", pred)
	}
	if strings.HasPrefix(selText, "@") {
		return nil, newErr(CodeInvalidArgs, "invalid_args", "is does not accept refs; use a selector")
	}
	chain, err := lang.ParseSelectorChain(selText)
	if err != nil {
		return nil, fromError(ctx, a.Command, s.cfg.Platform, err)
	}
	obs, e := s.observe(ctx, drivers.SnapshotOptions{})
	if e != nil {
		return nil, e
	}
	want := strings.Join(rest, " ")
	var pass bool
	var got string
	switch pred {
	case "exists":
		pass = len(matchExists(obs.snap, chain)) > 0
	case "absent":
		pass = len(matchExists(obs.snap, chain)) == 0
	default:
		res, rerr := resolveUnique(obs.snap, chain, false)
		if rerr != nil {
			if pred == "hidden" && rerr.Reason == "selector_not_found" {
				pass = true
				break
			}
			return nil, rerr
		}
		n := &obs.snap.Nodes[res.node]
		if pred == "text" {
			got = readText(n)
			pass = normText(got) == normText(want)
		} else {
			pass, _ = nodeState(n, pred)
		}
	}
	if !pass {
		msg := fmt.Sprintf("Expected %s to be %s", selText, pred)
		if pred == "text" {
			msg = fmt.Sprintf("Expected %s to have text %q, got %q", selText, want, got)
		}
		e := newErr(CodeCommandFailed, "predicate_failed", "%s", msg)
		e.Hint = "Check the snapshot, or wait for the state before asserting it."
		e.Details = map[string]any{"predicate": pred, "selector": selText}
		return nil, e
	}
	return &Output{Text: "true", Data: map[string]any{"pass": true}}, nil
}

// ---- find ------------------------------------------------------------------------

var findLocatorWords = map[string]bool{"text": true, "label": true, "value": true, "role": true, "id": true}

func (s *Session) leafFind(ctx context.Context, a *lang.Action) (*Output, *ErrorInfo) {
	p := a.Positionals
	locator := ""
	if len(p) >= 2 && findLocatorWords[p[0]] {
		locator, p = p[0], p[1:]
	}
	if len(p) == 0 {
		return nil, newErr(CodeInvalidArgs, "invalid_args", "find requires a query: find [text|label|value|role|id] <query> [action]")
	}
	query, p := p[0], p[1:]
	action := "click"
	if len(p) > 0 {
		action, p = p[0], p[1:]
	}
	obs, e := s.observe(ctx, drivers.SnapshotOptions{})
	if e != nil {
		return nil, e
	}
	var matches []int
	if locator == "" && (strings.Contains(query, "=") || strings.Contains(query, "||")) {
		chain, err := lang.ParseSelectorChain(query)
		if err != nil {
			return nil, fromError(ctx, a.Command, s.cfg.Platform, err)
		}
		matches = matchExists(obs.snap, chain)
	} else {
		matches = findLocate(obs.snap, locator, query)
	}
	if action == "wait" {
		timeout := s.cfg.WaitTimeout
		if len(p) > 0 {
			if ms, ok := lang.JSNumber(p[0]); ok {
				timeout = time.Duration(ms) * time.Millisecond
			}
		}
		_, done, e := s.poll(ctx, timeout, func(o *observation) bool {
			obs = o
			matches = findLocate(o.snap, locator, query)
			return len(matches) > 0
		})
		if e != nil {
			return nil, e
		}
		if !done {
			return nil, newErr(CodeCommandFailed, "wait_target_absent", "find %q: nothing matched within %dms", query, timeout.Milliseconds())
		}
	}
	if len(matches) == 0 {
		if action == "exists" {
			e := newErr(CodeCommandFailed, "predicate_failed", "find %q: no element matches", query)
			return nil, e
		}
		e := newErr(CodeCommandFailed, "selector_not_found", "find %q: no element matches", query)
		return nil, e
	}
	idx := matches[0]
	n := obs.snap.Nodes[idx]
	refOf := refIndex(obs)
	k, hasRef := refOf[idx]
	switch action {
	case "click", "focus", "fill", "type":
		// Mutating find: the acted ref is pre-action diagnostics only — no
		// refsGeneration, no publication.
		t := &drivers.Target{Node: &n, Point: n.Rect.Center(), Describe: "find " + strconv.Quote(query)}
		da := drivers.Action{Target: t}
		switch action {
		case "click":
			da.Kind, da.Count = drivers.ActTap, 1
		case "focus":
			da.Kind = drivers.ActFocus
		case "fill":
			da.Kind, da.Text = drivers.ActFill, strings.Join(p, " ")
		case "type":
			da.Kind, da.Text = drivers.ActType, strings.Join(p, " ")
		}
		if action == "type" {
			// type goes to the focused element: one logical command that
			// focuses the found element, then types — one seam crossing.
			focus := drivers.Action{Kind: drivers.ActFocus, Target: t}
			if e := s.act(ctx, a, focus); e != nil {
				return nil, e
			}
			da.Target = nil
			if err := s.drv.Act(ctx, da); err != nil {
				return nil, fromError(ctx, a.Command, s.cfg.Platform, err)
			}
		} else if e := s.act(ctx, a, da); e != nil {
			return nil, e
		}
		data := map[string]any{"action": action}
		if hasRef {
			data["ref"] = fmt.Sprintf("@e%d", k)
		}
		return &Output{Text: fmt.Sprintf("find %s: %s", action, describeNode("", &n)), Data: data}, nil
	case "get", "exists", "wait":
	default:
		return nil, newErr(CodeInvalidArgs, "invalid_args", "Unknown find action %q. Supported: click, focus, fill, type, get text, get attrs, exists, wait", action)
	}
	// Read-only find: publish the returned ref as a partial frame.
	out := &Output{Data: map[string]any{"action": action}}
	if hasRef {
		s.frame = s.frame.publishPartial(obs, []int{k})
		pinned := fmt.Sprintf("@e%d~s%d", k, s.frame.generation())
		out.Data["ref"] = fmt.Sprintf("@e%d", k)
		out.Data["refsGeneration"] = s.frame.generation()
		out.Text = pinned
	}
	if action == "get" {
		sub := "text"
		if len(p) > 0 {
			sub = p[0]
		}
		if sub == "attrs" {
			b, _ := json.Marshal(map[string]string{"role": n.Role, "label": n.Label, "id": n.ID, "value": n.Value})
			out.Text = strings.TrimSpace(out.Text + " " + string(b))
		} else {
			out.Text = strings.TrimSpace(out.Text + " " + strconv.Quote(readText(&n)))
			out.Data["text"] = readText(&n)
		}
	}
	return out, nil
}

// ---- wait -----------------------------------------------------------------------

func containsText(snap *drivers.Snapshot, text string) bool {
	want := normText(text)
	for i := range snap.Nodes {
		n := &snap.Nodes[i]
		for _, v := range []string{n.Label, n.Text, n.Value} {
			if v != "" && strings.Contains(normText(v), want) {
				return true
			}
		}
	}
	return false
}

func fingerprint(snap *drivers.Snapshot) string {
	var b strings.Builder
	for i := range snap.Nodes {
		n := &snap.Nodes[i]
		fmt.Fprintf(&b, "%d|%s|%s|%s|%s|%v|%v;", n.Depth, n.Role, n.Label, n.Text, n.Value, n.Rect, n.Visible)
	}
	return b.String()
}

func (s *Session) leafWait(ctx context.Context, a *lang.Action) (*Output, *ErrorInfo) {
	w, err := lang.DecodeWait(a.Positionals)
	if err != nil {
		return nil, fromError(ctx, a.Command, s.cfg.Platform, err)
	}
	if w.Kind == "sleep" {
		if e := s.sleep(ctx, time.Duration(w.DurationMs)*time.Millisecond); e != nil {
			return nil, e
		}
		return &Output{Text: fmt.Sprintf("Waited %dms", w.DurationMs)}, nil
	}
	timeout := s.cfg.WaitTimeout
	if w.TimeoutMs != nil {
		timeout = time.Duration(*w.TimeoutMs) * time.Millisecond
	}
	var check func(*observation) bool
	var what, reason, warning string
	impostors := false
	switch w.Kind {
	case "text":
		check = func(o *observation) bool { return containsText(o.snap, w.Text) }
		what, reason = fmt.Sprintf("text %q", w.Text), "wait_target_absent"
	case "selector":
		check = func(o *observation) bool { return len(matchExists(o.snap, w.Selector)) > 0 }
		what, reason = w.Selector.Raw, "wait_target_absent"
		if ev := a.TargetEvidence; ev != nil {
			// Landmark semantics (§4.2.2): keep polling while only impostors
			// match; at the deadline impostors make an identity mismatch.
			check = func(o *observation) bool {
				for _, i := range matchExists(o.snap, w.Selector) {
					if hasIdentity(o.snap, i, ev) {
						return true
					}
					impostors = true
				}
				return false
			}
		}
	case "absent":
		check = func(o *observation) bool { return len(matchExists(o.snap, w.Selector)) == 0 }
		what, reason = w.Selector.Raw+" to disappear", "wait_target_present"
	case "ref":
		ref, pin, pinned, ok := lang.ParseRef(w.Ref)
		if !ok {
			return nil, badRef(w.Ref)
		}
		idx, warn, e := s.frame.readRef(refFromParts(ref, pin, pinned))
		if e != nil {
			return nil, e
		}
		warning = warn
		text := nodeText(&s.frame.evidence().snap.Nodes[idx])
		check = func(o *observation) bool { return text != "" && containsText(o.snap, text) }
		what, reason = fmt.Sprintf("%s (%q)", ref, text), "wait_target_absent"
	case "stable":
		quiet := 500 * time.Millisecond
		if w.QuietMs != nil {
			quiet = time.Duration(*w.QuietMs) * time.Millisecond
		}
		var lastFP string
		var since time.Time
		check = func(o *observation) bool {
			fp := fingerprint(o.snap)
			now := s.cfg.Clock.Now()
			if fp != lastFP || since.IsZero() {
				lastFP, since = fp, now
			}
			return now.Sub(since) >= quiet
		}
		what, reason = "a stable screen", "wait_stable_timeout"
	default:
		return nil, newErr(CodeInvalidArgs, "invalid_args", "Unsupported wait form %q", w.Kind)
	}
	polls, done, e := s.poll(ctx, timeout, check)
	if e != nil {
		return nil, e
	}
	if !done && impostors {
		e := newErr(CodeCommandFailed, "wait_landmark_identity_mismatch", "Timed out after %dms waiting for %s: only elements without the recorded identity matched", timeout.Milliseconds(), what)
		e.Hint = "The landmark on screen is not the recorded one; re-record the step or repair the selector."
		e.Details = map[string]any{"timeoutMs": timeout.Milliseconds(), "polls": polls}
		return nil, e
	}
	if !done {
		e := newErr(CodeCommandFailed, reason, "Timed out after %dms waiting for %s", timeout.Milliseconds(), what)
		e.Hint = "Check that the screen reaches this state, or raise the wait timeout."
		e.Details = map[string]any{"timeoutMs": timeout.Milliseconds(), "polls": polls}
		return nil, e
	}
	return &Output{Text: "Found " + what, Warning: warning}, nil
}

// ---- scroll, swipe, gestures ---------------------------------------------------

var directions = map[string]bool{"up": true, "down": true, "left": true, "right": true, "top": true, "bottom": true}

func (s *Session) leafScroll(ctx context.Context, a *lang.Action) (*Output, *ErrorInfo) {
	if len(a.Positionals) == 0 || !directions[a.Positionals[0]] {
		return nil, newErr(CodeInvalidArgs, "invalid_args", "scroll requires a direction: up, down, left, right, top or bottom")
	}
	da := drivers.Action{Kind: drivers.ActScroll, Direction: a.Positionals[0]}
	if len(a.Positionals) > 1 {
		v, ok := lang.JSNumber(a.Positionals[1])
		if !ok || v <= 0 {
			return nil, newErr(CodeInvalidArgs, "invalid_args", "scroll amount must be a positive viewport fraction, got %q", a.Positionals[1])
		}
		da.Amount = v
	}
	until, ok := a.Flags.String("scrollUntil")
	if !ok {
		if e := s.act(ctx, a, da); e != nil {
			return nil, e
		}
		return &Output{Text: "Scrolled " + da.Direction}, nil
	}
	chain, err := lang.ParseSelectorChain(until)
	if err != nil {
		return nil, fromError(ctx, a.Command, s.cfg.Platform, err)
	}
	// Bounded: at most maxScrolls scrolls, and no further than the end of
	// the container. The driver settles after each scroll (the page renders
	// and runs its scroll and IntersectionObserver handlers), so a target is
	// judged on what the page shows, and only one in view counts.
	const maxScrolls = 20
	rep, _ := s.drv.(drivers.ScrollReporter)
	var distance float64
	container := ""
	for i := 0; ; i++ {
		obs, e := s.observe(ctx, drivers.SnapshotOptions{})
		if e != nil {
			return nil, e
		}
		for _, idx := range matchExists(obs.snap, chain) {
			if obs.snap.Nodes[idx].Visible {
				return &Output{Text: fmt.Sprintf("Scrolled %s %d time(s) until %s", da.Direction, i, until)}, nil
			}
		}
		atEnd := false
		if rep != nil && i > 0 {
			r := rep.LastScroll()
			atEnd = r.AtEnd
		}
		if i == maxScrolls || atEnd {
			how := fmt.Sprintf("%d times", i)
			if rep != nil {
				how += fmt.Sprintf(" (%.0f px in %s", distance, container)
				if atEnd {
					how += ", to its end"
				}
				how += ")"
			}
			e := newErr(CodeCommandFailed, "selector_not_found", "Scrolled %s %s but %s never came into view", da.Direction, how, until)
			e.Hint = "check the selector, or scroll the container that holds the target (scroll with a target, or another direction)"
			return nil, e
		}
		// One logical command: the seam is crossed before the first scroll only.
		if i == 0 {
			if e := s.act(ctx, a, da); e != nil {
				return nil, e
			}
		} else if err := s.drv.Act(ctx, da); err != nil {
			return nil, fromError(ctx, a.Command, s.cfg.Platform, err)
		}
		if rep != nil {
			r := rep.LastScroll()
			distance += r.Distance
			container = r.Container
		}
	}
}

func numbers(ps []string, n int) ([]float64, bool) {
	if len(ps) < n {
		return nil, false
	}
	out := make([]float64, n)
	for i := 0; i < n; i++ {
		v, ok := lang.JSNumber(ps[i])
		if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

func (s *Session) leafSwipe(ctx context.Context, a *lang.Action) (*Output, *ErrorInfo) {
	v, ok := numbers(a.Positionals, 4)
	if !ok || len(a.Positionals) != 4 {
		return nil, newErr(CodeInvalidArgs, "invalid_args", "swipe requires x1 y1 x2 y2")
	}
	count := 1
	if c, ok := a.Flags.Int("count"); ok && c > 0 {
		count = c
	}
	if count > 200 {
		return nil, newErr(CodeInvalidArgs, "invalid_args", "swipe --count must be at most 200")
	}
	pause, _ := a.Flags.Int("pauseMs")
	if pause > 10000 {
		return nil, newErr(CodeInvalidArgs, "invalid_args", "swipe --pause-ms must be at most 10000")
	}
	pattern, _ := a.Flags.String("pattern")
	from, to := drivers.Point{X: v[0], Y: v[1]}, drivers.Point{X: v[2], Y: v[3]}
	// One logical command: plan once, expire once, repeat the same plan.
	s.crossSeam(a)
	for i := 0; i < count; i++ {
		if i > 0 {
			if e := s.sleep(ctx, time.Duration(pause)*time.Millisecond); e != nil {
				return nil, e
			}
		}
		f, t := from, to
		if pattern == "ping-pong" && i%2 == 1 {
			f, t = to, from
		}
		if err := s.drv.Act(ctx, drivers.Action{Kind: drivers.ActSwipe, From: f, To: t}); err != nil {
			return nil, fromError(ctx, a.Command, s.cfg.Platform, err)
		}
	}
	return &Output{Text: fmt.Sprintf("Swiped %d time(s)", count)}, nil
}

func (s *Session) leafGesture(ctx context.Context, a *lang.Action) (*Output, *ErrorInfo) {
	if len(a.Positionals) == 0 {
		return nil, newErr(CodeInvalidArgs, "invalid_args", "gesture requires a kind: pan, fling, swipe, pinch, rotate, transform or drag")
	}
	sub, args := a.Positionals[0], a.Positionals[1:]
	switch sub {
	case "pan":
		v, ok := numbers(args, 4)
		if !ok {
			return nil, newErr(CodeInvalidArgs, "invalid_args", "gesture pan requires x y dx dy [ms]")
		}
		dur := 500 * time.Millisecond
		if len(args) > 4 {
			ms, ok := lang.JSNumber(args[4])
			if !ok || ms < 0 {
				return nil, newErr(CodeInvalidArgs, "invalid_args", "gesture pan duration must be milliseconds, got %q", args[4])
			}
			dur = time.Duration(ms) * time.Millisecond
		}
		da := drivers.Action{Kind: drivers.ActPan, From: drivers.Point{X: v[0], Y: v[1]}, To: drivers.Point{X: v[0] + v[2], Y: v[1] + v[3]}, Duration: dur}
		if e := s.act(ctx, a, da); e != nil {
			return nil, e
		}
		return &Output{Text: "Panned"}, nil
	case "fling":
		if len(args) < 3 || !directions[args[0]] {
			return nil, newErr(CodeInvalidArgs, "invalid_args", "gesture fling requires up|down|left|right x y [distance]")
		}
		v, ok := numbers(args[1:], 2)
		if !ok {
			return nil, newErr(CodeInvalidArgs, "invalid_args", "gesture fling requires numeric x y")
		}
		dist := 200.0
		if len(args) > 3 {
			d, ok := lang.JSNumber(args[3])
			if !ok {
				return nil, newErr(CodeInvalidArgs, "invalid_args", "gesture fling distance must be a number, got %q", args[3])
			}
			dist = d
		}
		from := drivers.Point{X: v[0], Y: v[1]}
		to := from
		switch args[0] {
		case "up":
			to.Y -= dist
		case "down":
			to.Y += dist
		case "left":
			to.X -= dist
		case "right":
			to.X += dist
		}
		if e := s.act(ctx, a, drivers.Action{Kind: drivers.ActSwipe, From: from, To: to}); e != nil {
			return nil, e
		}
		return &Output{Text: "Flung " + args[0]}, nil
	}
	return nil, unsupported("gesture "+sub, s.cfg.Platform)
}

// ---- navigation, keyboard, alert --------------------------------------------

func (s *Session) leafBack(ctx context.Context, a *lang.Action) (*Output, *ErrorInfo) {
	if e := s.act(ctx, a, drivers.Action{Kind: drivers.ActBack}); e != nil {
		return nil, e
	}
	return &Output{Text: "Went back"}, nil
}

func (s *Session) leafHome(ctx context.Context, a *lang.Action) (*Output, *ErrorInfo) {
	if e := s.act(ctx, a, drivers.Action{Kind: drivers.ActHome}); e != nil {
		return nil, e
	}
	return &Output{Text: "Went home"}, nil
}

func (s *Session) leafKeyboard(ctx context.Context, a *lang.Action) (*Output, *ErrorInfo) {
	sub := "status"
	if len(a.Positionals) > 0 {
		sub = a.Positionals[0]
	}
	switch sub {
	case "status", "get":
		obs, e := s.observe(ctx, drivers.SnapshotOptions{})
		if e != nil {
			return nil, e
		}
		visible := false
		for i := range obs.snap.Nodes {
			if obs.snap.Nodes[i].Focused && obs.snap.Nodes[i].Editable {
				visible = true
			}
		}
		return &Output{Text: fmt.Sprintf("keyboard visible: %v", visible), Data: map[string]any{"visible": visible}}, nil
	case "dismiss", "enter", "return":
		key := sub
		if key == "return" {
			key = "enter"
		}
		// Fused request: dispatching it is the conservative seam, even when
		// the keyboard turns out to be hidden already.
		if e := s.act(ctx, a, drivers.Action{Kind: drivers.ActKey, Key: key}); e != nil {
			return nil, e
		}
		return &Output{Text: "keyboard " + sub}, nil
	}
	return nil, newErr(CodeInvalidArgs, "invalid_args", "Unknown keyboard action %q. Supported: status, get, dismiss, enter, return", sub)
}

func (s *Session) leafAlert(ctx context.Context, a *lang.Action) (*Output, *ErrorInfo) {
	sub := "get"
	if len(a.Positionals) > 0 {
		sub = a.Positionals[0]
	}
	ah, ok := s.drv.(drivers.AlertHandler)
	if !ok {
		return nil, unsupported("alert", s.cfg.Platform)
	}
	switch sub {
	case "get":
		text, open, err := ah.AlertText(ctx)
		if err != nil {
			return nil, fromError(ctx, a.Command, s.cfg.Platform, err)
		}
		if !open {
			return &Output{Text: "no alert", Data: map[string]any{"open": false}}, nil
		}
		return &Output{Text: text, Data: map[string]any{"open": true, "text": text}}, nil
	case "wait":
		timeout := s.cfg.WaitTimeout
		if len(a.Positionals) > 1 {
			if ms, ok := lang.JSNumber(a.Positionals[1]); ok {
				timeout = time.Duration(ms) * time.Millisecond
			}
		}
		deadline := s.cfg.Clock.Now().Add(timeout)
		for {
			text, open, err := ah.AlertText(ctx)
			if err != nil {
				return nil, fromError(ctx, a.Command, s.cfg.Platform, err)
			}
			if open {
				return &Output{Text: text, Data: map[string]any{"open": true, "text": text}}, nil
			}
			if !s.cfg.Clock.Now().Before(deadline) {
				return nil, newErr(CodeCommandFailed, "wait_target_absent", "Timed out after %dms waiting for an alert", timeout.Milliseconds())
			}
			if e := s.sleep(ctx, min(s.cfg.PollInterval, deadline.Sub(s.cfg.Clock.Now()))); e != nil {
				return nil, e
			}
		}
	case "accept", "dismiss":
		// Fused request: the seam is crossed even when no alert is open.
		s.crossSeam(a)
		if err := ah.AlertRespond(ctx, sub == "accept"); err != nil {
			return nil, fromError(ctx, a.Command, s.cfg.Platform, err)
		}
		return &Output{Text: "alert " + sub}, nil
	}
	return nil, newErr(CodeInvalidArgs, "invalid_args", "Unknown alert action %q. Supported: get, wait, accept, dismiss", sub)
}

// ---- screenshot, viewport, appstate ------------------------------------------

func (s *Session) leafScreenshot(ctx context.Context, a *lang.Action) (*Output, *ErrorInfo) {
	png, err := s.drv.Screenshot(ctx, drivers.ScreenshotOptions{FullPage: a.Flags.Bool("screenshotFullscreen")})
	if err != nil {
		return nil, fromError(ctx, a.Command, s.cfg.Platform, err)
	}
	s.shots++
	path := fmt.Sprintf("screenshot-%d.png", s.shots)
	if len(a.Positionals) > 0 && a.Positionals[0] != "" {
		path = a.Positionals[0]
	}
	if !filepath.IsAbs(path) && s.cfg.ArtifactsDir != "" {
		path = filepath.Join(s.cfg.ArtifactsDir, path)
	}
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fromError(ctx, a.Command, s.cfg.Platform, err)
		}
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		return nil, fromError(ctx, a.Command, s.cfg.Platform, err)
	}
	return &Output{Text: path, Data: map[string]any{"path": path}}, nil
}

func (s *Session) leafViewport(ctx context.Context, a *lang.Action) (*Output, *ErrorInfo) {
	v, ok := numbers(a.Positionals, 2)
	if !ok || v[0] <= 0 || v[1] <= 0 {
		return nil, newErr(CodeInvalidArgs, "invalid_args", "viewport requires a positive width and height")
	}
	if e := s.act(ctx, a, drivers.Action{Kind: drivers.ActViewport, Size: drivers.Point{X: v[0], Y: v[1]}}); e != nil {
		return nil, e
	}
	return &Output{Text: fmt.Sprintf("Viewport %gx%g", v[0], v[1])}, nil
}

func (s *Session) leafAppState(ctx context.Context, a *lang.Action) (*Output, *ErrorInfo) {
	obs, e := s.observe(ctx, drivers.SnapshotOptions{})
	if e != nil {
		return nil, e
	}
	data := map[string]any{"platform": s.cfg.Platform, "url": obs.snap.URL, "title": obs.snap.Title, "open": s.opened && !s.closed}
	keys := make([]string, 0, len(data))
	for k := range data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s: %v\n", k, data[k])
	}
	return &Output{Text: b.String(), Data: data}, nil
}
