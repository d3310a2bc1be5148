package runner

// Touch leaves: click/press, longpress, fill, type, focus, hover, scroll, swipe, gestures.

import (
	"context"
	"fmt"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner/match"
)

func (s *Session) readiness() time.Duration {
	if s.cfg.ReadinessTimeout < 0 {
		return 0
	}
	return s.cfg.ReadinessTimeout
}

// actionable lets m re-resolve a selector target (it) and retry while the
// target is not actionable yet (a ref or a point: unchanged). The retries
// end WaitTimeout after start, or earlier, just before the step's own
// bound (ctx's deadline), so the step fails with the target's reason
// (covered, disabled, ...) rather than a bare timeout.
func (s *Session) actionable(ctx context.Context, m mutation, it lang.Target, start time.Time) mutation {
	if it.Kind != lang.TargetSelector || s.readiness() <= 0 {
		return m
	}
	m.until = start.Add(s.cfg.WaitTimeout)
	if d, ok := ctx.Deadline(); ok {
		// Deadlines are on the wall clock, not the session's.
		m.stop = d.Add(-min(time.Until(d)/10, time.Second))
	}
	m.retarget = func(ctx context.Context, within time.Duration) (*drivers.Target, *ErrorInfo) {
		r, e := s.resolveTarget(ctx, it, true, within)
		if e != nil {
			return nil, e
		}
		return r.target, nil
	}
	return m
}

func (s *Session) leafClick(ctx context.Context, a *lang.Action, args lang.Args) (*Output, mutation, *ErrorInfo) {
	start := s.cfg.Clock.Now()
	it := args.(lang.TargetArgs).Target
	r, e := s.resolveTarget(ctx, it, true, s.readiness())
	if e != nil {
		return nil, mutation{}, e
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
	// One logical command: resolved once above, expired once by mutate, the
	// driver repeats the same physical point Count times.
	return nil, s.actionable(ctx, does(da, &Output{Text: "Tapped " + r.target.Describe, Warning: r.warning}), it, start), nil
}

func (s *Session) leafLongPress(ctx context.Context, a *lang.Action, args lang.Args) (*Output, mutation, *ErrorInfo) {
	start := s.cfg.Clock.Now()
	ta := args.(lang.TargetArgs)
	r, e := s.resolveTarget(ctx, ta.Target, true, s.readiness())
	if e != nil {
		return nil, mutation{}, e
	}
	dur := time.Duration(ta.DurationMs) * time.Millisecond
	return nil, s.actionable(ctx, does(drivers.Action{Kind: drivers.ActLongPress, Target: r.target, Duration: dur}, &Output{Text: "Long-pressed " + r.target.Describe}), ta.Target, start), nil
}

func (s *Session) leafFill(ctx context.Context, a *lang.Action, args lang.Args) (*Output, mutation, *ErrorInfo) {
	start := s.cfg.Clock.Now()
	ta := args.(lang.TargetArgs)
	r, e := s.resolveTarget(ctx, ta.Target, true, s.readiness())
	if e != nil {
		return nil, mutation{}, e
	}
	da := drivers.Action{Kind: drivers.ActFill, Target: r.target, Text: ta.Text}
	da.DelayMs, _ = a.Flags.Int("delayMs")
	return nil, s.actionable(ctx, does(da, &Output{Text: "Filled " + r.target.Describe}), ta.Target, start), nil
}

func (s *Session) leafType(ctx context.Context, a *lang.Action, args lang.Args) (*Output, mutation, *ErrorInfo) {
	da := drivers.Action{Kind: drivers.ActType, Text: args.(lang.TextArgs).Text}
	da.DelayMs, _ = a.Flags.Int("delayMs")
	return nil, does(da, &Output{Text: "Typed"}), nil
}

func (s *Session) targetAction(ctx context.Context, args lang.Args, kind drivers.ActionKind, verb string) (*Output, mutation, *ErrorInfo) {
	r, e := s.resolveTarget(ctx, args.(lang.TargetArgs).Target, true, 0)
	if e != nil {
		return nil, mutation{}, e
	}
	return nil, does(drivers.Action{Kind: kind, Target: r.target}, &Output{Text: verb + " " + r.target.Describe}), nil
}

func (s *Session) leafFocus(ctx context.Context, a *lang.Action, args lang.Args) (*Output, mutation, *ErrorInfo) {
	return s.targetAction(ctx, args, drivers.ActFocus, "Focused")
}

func (s *Session) leafHover(ctx context.Context, a *lang.Action, args lang.Args) (*Output, mutation, *ErrorInfo) {
	return s.targetAction(ctx, args, drivers.ActHover, "Hovered")
}

func (s *Session) leafScroll(ctx context.Context, a *lang.Action, args lang.Args) (*Output, mutation, *ErrorInfo) {
	sa := args.(lang.ScrollArgs)
	da := drivers.Action{Kind: drivers.ActScroll, Direction: sa.Direction, Amount: sa.Amount}
	if sa.Until == nil {
		return nil, does(da, &Output{Text: "Scrolled " + da.Direction}), nil
	}
	chain := sa.Until
	until, _ := a.Flags.String("scrollUntil")
	// A virtualised list scrolls a viewport at a time: row 500 of a data
	// grid is some fifty scrolls away. The container's end and the step's
	// bound stop it sooner.
	const maxScrolls = 100
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
			return nil, mutation{}, e
		}
		return until0(0), mutation{}, nil
	}
	// One logical command: the seam is crossed before the first scroll only.
	// Bounded: at most maxScrolls scrolls, and no further than the end of
	// the container. The driver settles after each scroll (the page renders
	// and runs its scroll and IntersectionObserver handlers), so a target is
	// judged on what the page shows, and only one in view counts.
	rep, _ := s.drv.(drivers.ScrollReporter)
	return nil, mutation{act: da, hasAct: true, then: func(ctx context.Context) (*Output, *ErrorInfo) {
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
				e := newErr(CodeCommandFailed, drivers.ReasonSelectorNotFound, "Scrolled %s %s but %s never came into view", da.Direction, how, until)
				e.Hint = "check the selector, or scroll the container that holds the target (scroll with a target, or another direction)"
				return nil, e
			}
			if err := s.act(ctx, da); err != nil {
				return nil, fromError(ctx, a.Command, s.cfg.Platform, err)
			}
		}
	}}, nil
}

func (s *Session) leafSwipe(ctx context.Context, a *lang.Action, args lang.Args) (*Output, mutation, *ErrorInfo) {
	sw := args.(lang.SwipeArgs)
	count := 1
	if c, ok := a.Flags.Int("count"); ok && c > 0 {
		count = c
	}
	if count > 200 {
		return nil, mutation{}, newErr(CodeInvalidArgs, drivers.ReasonInvalidArgs, "swipe --count must be at most 200")
	}
	pause, _ := a.Flags.Int("pauseMs")
	if pause > 10000 {
		return nil, mutation{}, newErr(CodeInvalidArgs, drivers.ReasonInvalidArgs, "swipe --pause-ms must be at most 10000")
	}
	pattern, _ := a.Flags.String("pattern")
	from, to := drivers.Point(sw.From), drivers.Point(sw.To)
	// One logical command: plan once, expire once, repeat the same plan.
	return nil, mutation{then: func(ctx context.Context) (*Output, *ErrorInfo) {
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
			if err := s.act(ctx, drivers.Action{Kind: drivers.ActSwipe, From: f, To: t}); err != nil {
				return nil, fromError(ctx, a.Command, s.cfg.Platform, err)
			}
		}
		return &Output{Text: fmt.Sprintf("Swiped %d time(s)", count)}, nil
	}}, nil
}

func (s *Session) leafGesture(ctx context.Context, a *lang.Action, args lang.Args) (*Output, mutation, *ErrorInfo) {
	g := args.(lang.GestureArgs)
	switch g.Kind {
	case "pan":
		dur := 500 * time.Millisecond
		if g.HasDuration {
			dur = time.Duration(g.DurationMs) * time.Millisecond
		}
		da := drivers.Action{Kind: drivers.ActPan, From: drivers.Point(g.From), To: drivers.Point{X: g.From.X + g.DX, Y: g.From.Y + g.DY}, Duration: dur}
		return nil, does(da, &Output{Text: "Panned"}), nil
	case "fling":
		dist := 200.0
		if g.HasDistance {
			dist = g.Distance
		}
		from := drivers.Point(g.From)
		to := from
		switch g.Direction {
		case "up":
			to.Y -= dist
		case "down":
			to.Y += dist
		case "left":
			to.X -= dist
		case "right":
			to.X += dist
		}
		return nil, does(drivers.Action{Kind: drivers.ActSwipe, From: from, To: to}, &Output{Text: "Flung " + g.Direction}), nil
	}
	return nil, mutation{}, unsupported("gesture "+g.Kind, s.cfg.Platform)
}
