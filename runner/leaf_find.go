package runner

// The find leaf: locate, then read or act.

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner/match"
)

func (s *Session) leafFind(ctx context.Context, a *lang.Action, args lang.Args) (*Output, mutation, *ErrorInfo) {
	fa := args.(lang.FindArgs)
	locator, query, action, p := fa.Locator, fa.Query, fa.Action, fa.Rest
	obs, e := s.observe(ctx, drivers.SnapshotOptions{})
	if e != nil {
		return nil, mutation{}, e
	}
	var matches []int
	if fa.Selector != nil {
		matches = match.Exists(obs.Snap, fa.Selector)
	} else {
		matches = match.Find(obs.Snap, locator, query)
	}
	if action == "wait" {
		timeout := s.cfg.WaitTimeout
		if fa.HasTimeout {
			timeout = time.Duration(fa.TimeoutMs) * time.Millisecond
		}
		_, done, e := s.poll(ctx, timeout, func(o *observation) bool {
			obs = o
			matches = match.Find(o.Snap, locator, query)
			return len(matches) > 0
		})
		if e != nil {
			return nil, mutation{}, e
		}
		if !done {
			return nil, mutation{}, newErr(CodeCommandFailed, drivers.ReasonWaitTargetAbsent, "find %q: nothing matched within %dms", query, timeout.Milliseconds())
		}
	}
	if len(matches) == 0 {
		if action == "exists" {
			e := newErr(CodeCommandFailed, drivers.ReasonPredicateFailed, "find %q: no element matches", query)
			return nil, mutation{}, e
		}
		e := newErr(CodeCommandFailed, drivers.ReasonSelectorNotFound, "find %q: no element matches%s", query, unseenNote(obs.Snap))
		return nil, mutation{}, e
	}
	idx := matches[0]
	n := obs.Snap.Nodes[idx]
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
		data := map[string]any{"action": action}
		if hasRef {
			data["ref"] = fmt.Sprintf("@e%d", k)
		}
		out := &Output{Text: fmt.Sprintf("find %s: %s", action, describeNode("", &n)), Data: data}
		if action == "type" {
			// type goes to the focused element: one logical command that
			// focuses the found element, then types — one seam crossing.
			focus := drivers.Action{Kind: drivers.ActFocus, Target: t}
			da.Target = nil
			return nil, mutation{act: focus, hasAct: true, out: out, then: func(ctx context.Context) (*Output, *ErrorInfo) {
				if err := s.act(ctx, da); err != nil {
					return nil, fromError(ctx, a.Command, s.cfg.Platform, err)
				}
				return nil, nil
			}}, nil
		}
		return nil, does(da, out), nil
	case "get", "exists", "wait":
	default:
		return nil, mutation{}, newErr(CodeInvalidArgs, drivers.ReasonInvalidArgs, "Unknown find action %q. Supported: click, focus, fill, type, get text, get attrs, exists, wait", action)
	}
	// Read-only find: publish the returned ref as a partial frame.
	out := &Output{Data: map[string]any{"action": action}}
	if hasRef {
		s.frame = s.frame.PublishPartial(obs, []int{k})
		pinned := fmt.Sprintf("@e%d~s%d", k, s.frame.Generation())
		out.Data["ref"] = fmt.Sprintf("@e%d", k)
		out.Data["refsGeneration"] = s.frame.Generation()
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
	return out, mutation{}, nil
}
