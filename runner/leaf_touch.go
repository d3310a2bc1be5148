package runner

// Touch leaves: click/press, longpress, fill, type, focus, hover, scroll, swipe, gestures.

import (
	"context"
	"github.com/adtest/adtest/runner/match"

	"fmt"
	"math"

	"strings"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
)

func (s *Session) readiness() time.Duration {
	if s.cfg.ReadinessTimeout < 0 {
		return 0
	}
	return s.cfg.ReadinessTimeout
}

func (s *Session) leafClick(ctx context.Context, a *lang.Action) (*Output, *mutation, *ErrorInfo) {
	it, e := decodeTarget(a.Positionals, 0)
	if e != nil {
		return nil, nil, e
	}
	r, e := s.resolveTarget(ctx, it, true, s.readiness())
	if e != nil {
		return nil, nil, e
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
	return nil, does(da, &Output{Text: "Tapped " + r.target.Describe, Warning: r.warning}), nil
}

func (s *Session) leafLongPress(ctx context.Context, a *lang.Action) (*Output, *mutation, *ErrorInfo) {
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
		return nil, nil, e
	}
	r, e := s.resolveTarget(ctx, it, true, s.readiness())
	if e != nil {
		return nil, nil, e
	}
	return nil, does(drivers.Action{Kind: drivers.ActLongPress, Target: r.target, Duration: dur}, &Output{Text: "Long-pressed " + r.target.Describe}), nil
}

func (s *Session) leafFill(ctx context.Context, a *lang.Action) (*Output, *mutation, *ErrorInfo) {
	if len(a.Positionals) < 2 {
		return nil, nil, newErr(CodeInvalidArgs, "invalid_args", "fill requires a target and text: fill <target> <text>")
	}
	it, e := decodeTarget(a.Positionals, 1)
	if e != nil {
		return nil, nil, e
	}
	text := strings.Join(it.Rest, " ")
	r, e := s.resolveTarget(ctx, it, true, s.readiness())
	if e != nil {
		return nil, nil, e
	}
	da := drivers.Action{Kind: drivers.ActFill, Target: r.target, Text: text}
	da.DelayMs, _ = a.Flags.Int("delayMs")
	return nil, does(da, &Output{Text: "Filled " + r.target.Describe}), nil
}

func (s *Session) leafType(ctx context.Context, a *lang.Action) (*Output, *mutation, *ErrorInfo) {
	da := drivers.Action{Kind: drivers.ActType, Text: strings.Join(a.Positionals, " ")}
	da.DelayMs, _ = a.Flags.Int("delayMs")
	return nil, does(da, &Output{Text: "Typed"}), nil
}

func (s *Session) targetAction(ctx context.Context, a *lang.Action, kind drivers.ActionKind, verb string) (*Output, *mutation, *ErrorInfo) {
	it, e := decodeTarget(a.Positionals, 0)
	if e != nil {
		return nil, nil, e
	}
	r, e := s.resolveTarget(ctx, it, true, 0)
	if e != nil {
		return nil, nil, e
	}
	return nil, does(drivers.Action{Kind: kind, Target: r.target}, &Output{Text: verb + " " + r.target.Describe}), nil
}

func (s *Session) leafFocus(ctx context.Context, a *lang.Action) (*Output, *mutation, *ErrorInfo) {
	return s.targetAction(ctx, a, drivers.ActFocus, "Focused")
}

func (s *Session) leafHover(ctx context.Context, a *lang.Action) (*Output, *mutation, *ErrorInfo) {
	return s.targetAction(ctx, a, drivers.ActHover, "Hovered")
}

var directions = map[string]bool{"up": true, "down": true, "left": true, "right": true, "top": true, "bottom": true}

func (s *Session) leafScroll(ctx context.Context, a *lang.Action) (*Output, *mutation, *ErrorInfo) {
	if len(a.Positionals) == 0 || !directions[a.Positionals[0]] {
		return nil, nil, newErr(CodeInvalidArgs, "invalid_args", "scroll requires a direction: up, down, left, right, top or bottom")
	}
	da := drivers.Action{Kind: drivers.ActScroll, Direction: a.Positionals[0]}
	if len(a.Positionals) > 1 {
		v, ok := lang.JSNumber(a.Positionals[1])
		if !ok || v <= 0 {
			return nil, nil, newErr(CodeInvalidArgs, "invalid_args", "scroll amount must be a positive viewport fraction, got %q", a.Positionals[1])
		}
		da.Amount = v
	}
	until, ok := a.Flags.String("scrollUntil")
	if !ok {
		return nil, does(da, &Output{Text: "Scrolled " + da.Direction}), nil
	}
	chain, err := lang.ParseSelectorChain(until)
	if err != nil {
		return nil, nil, fromError(ctx, a.Command, s.cfg.Platform, err)
	}
	const maxScrolls = 20
	// visible reports whether the target is on screen, from a fresh capture.
	visible := func(ctx context.Context) (bool, *ErrorInfo) {
		obs, e := s.observe(ctx, drivers.SnapshotOptions{})
		if e != nil {
			return false, e
		}
		for _, idx := range match.Exists(obs.Snap, chain) {
			if obs.Snap.Nodes[idx].Visible {
				return true, nil
			}
		}
		return false, nil
	}
	until0 := func(i int) *Output {
		return &Output{Text: fmt.Sprintf("Scrolled %s %d time(s) until %s", da.Direction, i, until)}
	}
	// Already visible: nothing to do, nothing crosses the seam.
	if ok, e := visible(ctx); e != nil || ok {
		if e != nil {
			return nil, nil, e
		}
		return until0(0), nil, nil
	}
	// One logical command: the seam is crossed before the first scroll only.
	// Bounded: at most maxScrolls scrolls, and no further than the end of
	// the container. The driver settles after each scroll (the page renders
	// and runs its scroll and IntersectionObserver handlers), so a target is
	// judged on what the page shows, and only one in view counts.
	rep, _ := s.drv.(drivers.ScrollReporter)
	return nil, &mutation{act: &da, then: func(ctx context.Context) (*Output, *ErrorInfo) {
		var distance float64
		container := ""
		for i := 1; ; i++ {
			atEnd := false
			if rep != nil {
				r := rep.LastScroll()
				distance += r.Distance
				container, atEnd = r.Container, r.AtEnd
			}
			ok, e := visible(ctx)
			if e != nil {
				return nil, e
			}
			if ok {
				return until0(i), nil
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
			if err := s.drv.Act(ctx, da); err != nil {
				return nil, fromError(ctx, a.Command, s.cfg.Platform, err)
			}
		}
	}}, nil
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

func (s *Session) leafSwipe(ctx context.Context, a *lang.Action) (*Output, *mutation, *ErrorInfo) {
	v, ok := numbers(a.Positionals, 4)
	if !ok || len(a.Positionals) != 4 {
		return nil, nil, newErr(CodeInvalidArgs, "invalid_args", "swipe requires x1 y1 x2 y2")
	}
	count := 1
	if c, ok := a.Flags.Int("count"); ok && c > 0 {
		count = c
	}
	if count > 200 {
		return nil, nil, newErr(CodeInvalidArgs, "invalid_args", "swipe --count must be at most 200")
	}
	pause, _ := a.Flags.Int("pauseMs")
	if pause > 10000 {
		return nil, nil, newErr(CodeInvalidArgs, "invalid_args", "swipe --pause-ms must be at most 10000")
	}
	pattern, _ := a.Flags.String("pattern")
	from, to := drivers.Point{X: v[0], Y: v[1]}, drivers.Point{X: v[2], Y: v[3]}
	// One logical command: plan once, expire once, repeat the same plan.
	return nil, &mutation{then: func(ctx context.Context) (*Output, *ErrorInfo) {
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
	}}, nil
}

func (s *Session) leafGesture(ctx context.Context, a *lang.Action) (*Output, *mutation, *ErrorInfo) {
	if len(a.Positionals) == 0 {
		return nil, nil, newErr(CodeInvalidArgs, "invalid_args", "gesture requires a kind: pan, fling, swipe, pinch, rotate, transform or drag")
	}
	sub, args := a.Positionals[0], a.Positionals[1:]
	switch sub {
	case "pan":
		v, ok := numbers(args, 4)
		if !ok {
			return nil, nil, newErr(CodeInvalidArgs, "invalid_args", "gesture pan requires x y dx dy [ms]")
		}
		dur := 500 * time.Millisecond
		if len(args) > 4 {
			ms, ok := lang.JSNumber(args[4])
			if !ok || ms < 0 {
				return nil, nil, newErr(CodeInvalidArgs, "invalid_args", "gesture pan duration must be milliseconds, got %q", args[4])
			}
			dur = time.Duration(ms) * time.Millisecond
		}
		da := drivers.Action{Kind: drivers.ActPan, From: drivers.Point{X: v[0], Y: v[1]}, To: drivers.Point{X: v[0] + v[2], Y: v[1] + v[3]}, Duration: dur}
		return nil, does(da, &Output{Text: "Panned"}), nil
	case "fling":
		if len(args) < 3 || !directions[args[0]] {
			return nil, nil, newErr(CodeInvalidArgs, "invalid_args", "gesture fling requires up|down|left|right x y [distance]")
		}
		v, ok := numbers(args[1:], 2)
		if !ok {
			return nil, nil, newErr(CodeInvalidArgs, "invalid_args", "gesture fling requires numeric x y")
		}
		dist := 200.0
		if len(args) > 3 {
			d, ok := lang.JSNumber(args[3])
			if !ok {
				return nil, nil, newErr(CodeInvalidArgs, "invalid_args", "gesture fling distance must be a number, got %q", args[3])
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
		return nil, does(drivers.Action{Kind: drivers.ActSwipe, From: from, To: to}, &Output{Text: "Flung " + args[0]}), nil
	}
	return nil, nil, unsupported("gesture "+sub, s.cfg.Platform)
}
