package web

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/internal/pause"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// Default durations of gestures.
const (
	defaultLongPress = 800 * time.Millisecond
	defaultPan       = 500 * time.Millisecond
	defaultSwipe     = 250 * time.Millisecond
	backTimeout      = 30 * time.Second
)

// Act performs one device operation and settles (see settle.go): when it
// returns, the page rendered a frame after the action and a navigation the
// action started reached DOMContentLoaded of its new document.
//
// A press on an element (a click, a long press) leaves the page's press
// guard armed: what the presses hit is read back by the settle's own call
// (one round trip for both), and a miss fails the action (pressGuard).
func (s *Session) Act(ctx context.Context, a drivers.Action) error {
	mark := s.navMark()
	if err := s.act(ctx, a); err != nil {
		s.setSettle(0)
		return err
	}
	expr := frameExpr
	if a.Kind == drivers.ActScroll || a.Kind == drivers.ActSwipe {
		expr = scrollFrameExpr
	}
	guarded := (a.Kind == drivers.ActTap || a.Kind == drivers.ActLongPress) && nodeHandle(a.Target) != ""
	var press pressResult
	var out any
	if guarded {
		expr, out = guardedFrameExpr, &press
	}
	start := time.Now()
	err := s.settle(ctx, mark, expr, out)
	s.setSettle(time.Since(start))
	if err != nil || !guarded {
		return err
	}
	op := "click"
	if a.Kind == drivers.ActLongPress {
		op = "longpress"
	}
	if press.State == "" && !s.dialogOpen() {
		// The frame did not come within its bound (a busy page): the
		// guard's report is read on its own.
		if err := s.evalOnce(ctx, op, "lib.pressed()", &press); err != nil {
			if retryableEval(err) && ctx.Err() == nil {
				return nil // the press navigated: the old document is gone
			}
			return err
		}
	}
	return pressGuard(op, a.Target, press)
}

func (s *Session) act(ctx context.Context, a drivers.Action) error {
	switch a.Kind {
	case drivers.ActTap:
		return s.tap(ctx, a)
	case drivers.ActLongPress:
		return s.longPress(ctx, a)
	case drivers.ActFill:
		return s.fill(ctx, a)
	case drivers.ActType:
		return s.typeText(ctx, a)
	case drivers.ActFocus:
		return s.focus(ctx, a)
	case drivers.ActHover:
		return s.hover(ctx, a)
	case drivers.ActScroll:
		return s.scroll(ctx, a)
	case drivers.ActSwipe:
		return s.swipe(ctx, a)
	case drivers.ActPan:
		return s.pan(ctx, a)
	case drivers.ActBack:
		return s.back(ctx)
	case drivers.ActKey:
		return s.key(ctx, a)
	case drivers.ActViewport:
		return s.viewport(ctx, a)
	}
	return drivers.Unsupported(string(a.Kind), drivers.PlatformWeb)
}

// targetInfo is what page.js target() reports.
type targetInfo struct {
	State    string     `json:"state"`
	Desc     string     `json:"desc"`
	Enabled  bool       `json:"enabled"`
	Editable bool       `json:"editable"`
	X        float64    `json:"x"`
	Y        float64    `json:"y"`
	Covered  string     `json:"covered"`
	Box      [4]float64 `json:"box"` // left, top, width, height
	Scrolled bool       `json:"scrolled"`
	Moving   bool       `json:"moving"`
}

func describeTarget(tg *drivers.Target) string {
	if tg.Describe != "" {
		return tg.Describe
	}
	if tg.Node != nil {
		return describeNode(tg.Node)
	}
	return fmt.Sprintf("point %g %g", tg.Point.X, tg.Point.Y)
}

// nodeHandle is the page handle of a node target, "" for a point target (or
// none).
func nodeHandle(tg *drivers.Target) string {
	if tg == nil || tg.Node == nil {
		return ""
	}
	return tg.Node.Handle
}

// check inspects the element of a node target. With scroll it first scrolls
// the element into view (the action's own side effect); without, it changes
// nothing (Preflight). needEnabled refuses disabled elements.
func (s *Session) check(ctx context.Context, op string, tg *drivers.Target, scroll, needEnabled bool) (targetInfo, error) {
	return s.checkArm(ctx, op, tg, scroll, needEnabled, 0)
}

// checkArm is check that also arms the page's press guard for the element
// when armMs > 0 and nothing covers it (see pressGuard).
func (s *Session) checkArm(ctx context.Context, op string, tg *drivers.Target, scroll, needEnabled bool, armMs int64) (targetInfo, error) {
	var ti targetInfo
	desc := describeTarget(tg)
	if err := s.lib(ctx, op, "target("+jsArgs(tg.Node.Handle, scroll, armMs)+")", &ti); err != nil {
		return ti, err
	}
	switch ti.State {
	case "stale":
		return ti, staleError(desc)
	case "not_visible":
		return ti, &drivers.TargetError{Reason: drivers.ReasonTargetNotVisible, Message: fmt.Sprintf("%s is not visible (it has no size or is hidden)", desc), Hint: "wait until the element is shown, or check the selector"}
	case "out_of_view":
		if scroll {
			return ti, &drivers.TargetError{Reason: drivers.ReasonTargetNotVisible, Message: fmt.Sprintf("%s could not be scrolled into view (a container that hides its overflow holds it out of view)", desc), Hint: "scroll its container first, or bring it into view the way a user would (a tab, a button)"}
		}
	}
	if ti.Covered != "" {
		return ti, &drivers.TargetError{
			Reason:  drivers.ReasonTargetCovered,
			Message: fmt.Sprintf("%s is covered by %s: the %s would land on the covering element, so nothing was done", desc, ti.Covered, op),
			Hint:    "close or wait out the element on top (banner, dialog, overlay), or scroll so the target is clear",
		}
	}
	if needEnabled && !ti.Enabled {
		return ti, &drivers.TargetError{Reason: drivers.ReasonTargetDisabled, Message: fmt.Sprintf("%s is disabled", desc), Hint: "wait until it is enabled (is enabled / wait), or complete the fields it depends on"}
	}
	return ti, nil
}

// stableBound bounds the wait for a moving target to keep its box for a
// frame (a sliding dialog, a smooth scroll).
const stableBound = 2 * time.Second

// actionable resolves a node target to the viewport point to act at, the
// way a user's hand would: it scrolls the element into view, refuses a
// hidden, covered or (when needEnabled) disabled one, and, when the element
// may be moving, waits until its box stays the same across two animation
// frames. A still page costs no frame: an element that was not scrolled,
// runs no animation (nor do its ancestors), saw no scroll for 100 ms and
// still has the box of the capture its target came from is taken as still.
// armMs > 0 arms the press guard at the point returned.
func (s *Session) actionable(ctx context.Context, op string, tg *drivers.Target, needEnabled bool, armMs int64) (targetInfo, error) {
	ti, err := s.checkArm(ctx, op, tg, true, needEnabled, armMs)
	if err != nil {
		return ti, err
	}
	r := tg.Node.Rect
	if !ti.Scrolled && !ti.Moving && ti.Box == [4]float64{r.X, r.Y, r.Width, r.Height} {
		return ti, nil
	}
	deadline := time.Now().Add(stableBound)
	for {
		prev := ti.Box
		if err := s.awaitFrame(ctx, oneFrameExpr); err != nil {
			return ti, err
		}
		if ti, err = s.checkArm(ctx, op, tg, true, needEnabled, armMs); err != nil {
			return ti, err
		}
		if ti.Box == prev {
			return ti, nil
		}
		if time.Now().After(deadline) {
			return ti, &drivers.TargetError{
				Reason:  drivers.ReasonTargetUnstable,
				Message: fmt.Sprintf("%s kept moving for %s (an animation or a scroll that does not end), so nothing was done", describeTarget(tg), stableBound),
				Hint:    "wait until the animation ends, or target an element that does not move",
			}
		}
	}
}

// point resolves a target to the viewport point to act at (actionable for
// a node target; a point target as given).
func (s *Session) point(ctx context.Context, op string, tg *drivers.Target, needEnabled bool) (drivers.Point, error) {
	return s.pointArm(ctx, op, tg, needEnabled, 0)
}

// pointArm is point that arms the press guard (armMs > 0) for a node target.
func (s *Session) pointArm(ctx context.Context, op string, tg *drivers.Target, needEnabled bool, armMs int64) (drivers.Point, error) {
	if tg == nil {
		return drivers.Point{}, fmt.Errorf("web: %s needs a target", op)
	}
	if nodeHandle(tg) == "" {
		return tg.Point, nil
	}
	ti, err := s.actionable(ctx, op, tg, needEnabled, armMs)
	if err != nil {
		return drivers.Point{}, err
	}
	return drivers.Point{X: ti.X, Y: ti.Y}, nil
}

// pressResult is what page.js disarm() reports.
type pressResult struct {
	State   string `json:"state"`
	Desc    string `json:"desc"`
	Covered string `json:"covered"`
	Hits    int    `json:"hits"`
}

// pressGuard judges what the presses of an armed action hit, as the
// settle read it back (guardedFrameExpr). The page's guard stopped every
// press event that did not land on the element meant before any of the
// page's listeners saw it, so a miss with no press landed is a TargetError
// (nothing was done, the runner may re-resolve a selector); a miss after a
// press landed is a plain error (the action half happened). A dialog the
// press opened, or a document the press replaced, means the press landed:
// the settle then reads nothing back (r is zero).
func pressGuard(op string, tg *drivers.Target, r pressResult) error {
	if r.State != "missed" {
		return nil
	}
	desc := describeTarget(tg)
	if r.Hits > 0 {
		return fmt.Errorf("web: %s: %s moved or was covered by %s during the %s, after %d press(es) had landed on it", op, desc, r.Covered, op, r.Hits)
	}
	return &drivers.TargetError{
		Reason:  drivers.ReasonTargetCovered,
		Message: fmt.Sprintf("%s: the %s landed on %s at the moment of the press (the element moved or was covered), so the page did not receive it", desc, op, r.Covered),
		Hint:    "wait until the page is still (an animation, a re-render or an overlay), or target the element with a selector so it is found again",
	}
}

// Preflight checks a node target without side effects: still on the page,
// visible, not covered at its centre (when in view) and enabled for taps,
// fills and long presses. An element out of view passes: Act scrolls it in.
func (s *Session) Preflight(ctx context.Context, a drivers.Action) error {
	if nodeHandle(a.Target) == "" {
		return nil
	}
	if err := s.refuseWithDialog(string(a.Kind)); err != nil {
		return err
	}
	switch a.Kind {
	case drivers.ActTap, drivers.ActFill, drivers.ActLongPress:
		_, err := s.check(ctx, string(a.Kind), a.Target, false, true)
		return err
	case drivers.ActFocus, drivers.ActHover:
		_, err := s.check(ctx, string(a.Kind), a.Target, false, false)
		return err
	}
	return nil
}

// input runs a page input that may open a JS dialog. A dialog blocks the
// page and the protocol call that caused it, so the call is left to finish
// in the background once the dialog is seen; the action has happened.
func (s *Session) input(ctx context.Context, op string, f func(ctx context.Context, t *chromedp.Target) error) error {
	if err := s.refuseWithDialog(op); err != nil {
		return err
	}
	select {
	case <-s.dialogCh:
	default:
	}
	// The input gets a context of its own: it ends with ctx, except once a
	// dialog blocked it (it then completes when the dialog is answered).
	ictx, icancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan error, 1)
	go func() {
		// A page whose frames the session draws gets them meanwhile for
		// the pointer's moves.
		if pointerInput(op) {
			defer s.burstFrames()()
		}
		done <- s.do(ictx, op, f)
		icancel()
	}()
	select {
	case err := <-done:
		return err
	case <-s.dialogCh:
		return nil
	case <-ctx.Done():
		icancel()
		<-done
		return fmt.Errorf("web: %s: %w", op, ctx.Err())
	}
}

// pointerInput reports an input of the mouse or a finger (by its op name):
// Chromium delivers its moves with the page's next frame.
func pointerInput(op string) bool {
	switch op {
	case "click", "longpress", "hover", "scroll", "swipe", "pan":
		return true
	}
	return false
}

func mouseButton(name string) (input.MouseButton, int64, error) {
	switch strings.ToLower(name) {
	case "", "primary", "left":
		return input.MouseButtonLeft, 1, nil
	case "secondary", "right":
		return input.MouseButtonRight, 2, nil
	case "middle":
		return input.MouseButtonMiddle, 4, nil
	}
	return "", 0, fmt.Errorf("web: unknown mouse button %q (primary, secondary, middle)", name)
}

func mouse(ctx context.Context, t *chromedp.Target, typ input.DispatchMouseEventType, p drivers.Point, btn input.MouseButton, buttons int64, count int64) error {
	params := input.DispatchMouseEventParams{Type: typ, X: p.X, Y: p.Y, Button: btn, Buttons: buttons, ClickCount: count}
	if typ == input.DispatchMouseEventTypeMouseMoved {
		params.Button = input.MouseButtonNone
		if buttons != 0 {
			params.Button = btn
		}
	}
	_, err := cdp.Call(ctx, t, input.DispatchMouseEvent, params)
	return err
}

func click(ctx context.Context, t *chromedp.Target, p drivers.Point, btn input.MouseButton, buttons, count int64, hold time.Duration) error {
	if err := mouse(ctx, t, input.DispatchMouseEventTypeMouseMoved, p, btn, 0, 0); err != nil {
		return err
	}
	if err := mouse(ctx, t, input.DispatchMouseEventTypeMousePressed, p, btn, buttons, count); err != nil {
		return err
	}
	if err := pause.For(ctx, hold); err != nil {
		return err
	}
	return mouse(ctx, t, input.DispatchMouseEventTypeMouseReleased, p, btn, 0, count)
}

// clickCalls are the mouse events of count clicks at p with no hold and no
// interval (each followed by a double click's second press for doubleTap),
// as click sends them one by one (a move before each press).
func clickCalls(p drivers.Point, btn input.MouseButton, buttons int64, count int, doubleTap bool) []pipedCall {
	ev := func(typ input.DispatchMouseEventType, b input.MouseButton, bs, n int64) pipedCall {
		return pipedCall{method: input.CommandDispatchMouseEvent, params: input.DispatchMouseEventParams{Type: typ, X: p.X, Y: p.Y, Button: b, Buttons: bs, ClickCount: n}}
	}
	var calls []pipedCall
	press := func(n int64) {
		calls = append(calls, ev(input.DispatchMouseEventTypeMouseMoved, input.MouseButtonNone, 0, 0),
			ev(input.DispatchMouseEventTypeMousePressed, btn, buttons, n), ev(input.DispatchMouseEventTypeMouseReleased, btn, 0, n))
	}
	for i := 0; i < count; i++ {
		press(1)
		if doubleTap {
			press(2)
		}
	}
	return calls
}

func (s *Session) tap(ctx context.Context, a drivers.Action) error {
	btn, buttons, err := mouseButton(a.Button)
	if err != nil {
		return err
	}
	count := max(a.Count, 1)
	hold := time.Duration(a.HoldMs) * time.Millisecond
	interval := time.Duration(a.IntervalMs) * time.Millisecond
	p, err := s.pointArm(ctx, "click", a.Target, true, armFor(time.Duration(count)*(hold+interval)))
	if err != nil {
		return err
	}
	// An armed guard is read back by the settle (Act).
	return s.input(ctx, "click", func(ctx context.Context, t *chromedp.Target) error {
		if hold == 0 && (count == 1 || interval == 0) {
			// Nothing to wait for between the events: they go as one run.
			return s.pipedOrEach(ctx, t, clickCalls(p, btn, buttons, count, a.DoubleTap))
		}
		for i := 0; i < count; i++ {
			if i > 0 {
				if err := pause.For(ctx, interval); err != nil {
					return err
				}
			}
			if err := click(ctx, t, p, btn, buttons, 1, hold); err != nil {
				return err
			}
			if a.DoubleTap {
				if err := click(ctx, t, p, btn, buttons, 2, 0); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// armFor is how long the press guard stays armed for an action whose
// presses take d: long enough for them, short enough that a guard left
// armed (a dialog the press opened stops the disarm) soon ends by itself.
func armFor(d time.Duration) int64 {
	return (d + 2*time.Second).Milliseconds()
}

func (s *Session) longPress(ctx context.Context, a drivers.Action) error {
	hold := a.Duration
	if hold <= 0 && a.HoldMs > 0 {
		hold = time.Duration(a.HoldMs) * time.Millisecond
	}
	if hold <= 0 {
		hold = defaultLongPress
	}
	p, err := s.pointArm(ctx, "longpress", a.Target, true, armFor(hold))
	if err != nil {
		return err
	}
	// An armed guard is read back by the settle (Act).
	return s.input(ctx, "longpress", func(ctx context.Context, t *chromedp.Target) error {
		return click(ctx, t, p, input.MouseButtonLeft, 1, 1, hold)
	})
}

func (s *Session) hover(ctx context.Context, a drivers.Action) error {
	p, err := s.point(ctx, "hover", a.Target, false)
	if err != nil {
		return err
	}
	return s.input(ctx, "hover", func(ctx context.Context, t *chromedp.Target) error {
		return mouse(ctx, t, input.DispatchMouseEventTypeMouseMoved, p, input.MouseButtonNone, 0, 0)
	})
}

type stateResult struct {
	State   string   `json:"state"`
	Desc    string   `json:"desc"`
	Value   string   `json:"value"`
	Handle  string   `json:"handle"`
	Options []string `json:"options"`
	Moved   bool     `json:"moved"`
	// Why says what adtest cannot see inside the element ("" when nothing).
	Why string `json:"why"`

	// scroll
	Distance  float64 `json:"distance"`
	Container string  `json:"container"`
	End       bool    `json:"end"`
}

func (s *Session) scroll(ctx context.Context, a drivers.Action) error {
	dir := strings.ToLower(a.Direction)
	switch dir {
	case "up", "down", "left", "right", "top", "bottom":
	default:
		return fmt.Errorf("web: scroll direction %q is not up, down, left, right, top or bottom", a.Direction)
	}
	amount := a.Amount
	if amount <= 0 {
		amount = 0.5
	}
	var handle any
	if h := nodeHandle(a.Target); h != "" {
		handle = h
	}
	if err := s.refuseWithDialog("scroll"); err != nil {
		return err
	}
	// A user's mouse wheel over the container scrolls it: the page sees the
	// wheel and scroll events of a user (and may take the wheel itself). A
	// container no wheel reaches (covered, clipped away) is moved by script.
	var plan struct {
		State string  `json:"state"`
		X     float64 `json:"x"`
		Y     float64 `json:"y"`
		DX    float64 `json:"dx"`
		DY    float64 `json:"dy"`
	}
	if err := s.lib(ctx, "scroll", "scrollPlan("+jsArgs(handle, dir, amount)+")", &plan); err != nil {
		return err
	}
	switch plan.State {
	case "stale":
		return staleError(describeTarget(a.Target))
	case "wheel":
		err := s.input(ctx, "scroll", func(ctx context.Context, t *chromedp.Target) error {
			_, err := cdp.Call(ctx, t, dispatchWheel, wheelParams{
				Type: input.DispatchMouseEventTypeMouseWheel, X: plan.X, Y: plan.Y, DeltaX: plan.DX, DeltaY: plan.DY,
			})
			return err
		})
		if err != nil {
			return err
		}
	default:
		if err := s.lib(ctx, "scroll", "scrollScript()", nil); err != nil {
			return err
		}
	}
	var r stateResult
	if err := s.lib(ctx, "scroll", "scrollResult()", &r); err != nil {
		return err
	}
	s.mu.Lock()
	s.lastScroll = drivers.ScrollReport{Container: r.Container, Distance: r.Distance, AtEnd: r.End}
	s.mu.Unlock()
	return nil
}

// wheelParams are Input.dispatchMouseEvent's for a wheel: both deltas are
// required, and cdproto's parameters leave out a zero one.
type wheelParams struct {
	Type   input.DispatchMouseEventType `json:"type"`
	X      float64                      `json:"x"`
	Y      float64                      `json:"y"`
	DeltaX float64                      `json:"deltaX"`
	DeltaY float64                      `json:"deltaY"`
}

var dispatchWheel = cdp.Command[wheelParams, cdp.Empty]{Method: input.CommandDispatchMouseEvent}

// LastScroll reports what the last scroll moved (drivers.ScrollReporter).
func (s *Session) LastScroll() drivers.ScrollReport {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastScroll
}

// swipe is a quick scroll gesture from From to To (the content follows the
// finger, so a swipe upwards scrolls down).
func (s *Session) swipe(ctx context.Context, a drivers.Action) error {
	dx, dy := a.To.X-a.From.X, a.To.Y-a.From.Y
	dist := math.Hypot(dx, dy)
	d := a.Duration
	if d <= 0 {
		d = defaultSwipe
	}
	speed := int64(dist / d.Seconds())
	if speed < 100 {
		speed = 100
	}
	return s.input(ctx, "swipe", func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, input.SynthesizeScrollGesture, input.SynthesizeScrollGestureParams{
			X: a.From.X, Y: a.From.Y, XDistance: dx, YDistance: dy, Speed: speed,
		})
		return err
	})
}

// pan drags with the primary mouse button from From to To over Duration.
// A native drag the page starts on the way is carried on with drag events
// (drag.go).
func (s *Session) pan(ctx context.Context, a drivers.Action) error {
	d := a.Duration
	if d <= 0 {
		d = defaultPan
	}
	steps := int(d / (16 * time.Millisecond))
	steps = min(max(steps, 5), 200)
	step := d / time.Duration(steps)
	return s.input(ctx, "pan", func(ctx context.Context, t *chromedp.Target) error {
		btn := input.MouseButtonLeft
		if err := mouse(ctx, t, input.DispatchMouseEventTypeMouseMoved, a.From, btn, 0, 0); err != nil {
			return err
		}
		drag, err := s.beginDrag(ctx, t)
		if err != nil {
			return err
		}
		defer drag.end(ctx, t)
		if err := mouse(ctx, t, input.DispatchMouseEventTypeMousePressed, a.From, btn, 1, 1); err != nil {
			return err
		}
		for i := 1; i <= steps; i++ {
			if err := pause.For(ctx, step); err != nil {
				return err
			}
			f := float64(i) / float64(steps)
			p := drivers.Point{X: a.From.X + (a.To.X-a.From.X)*f, Y: a.From.Y + (a.To.Y-a.From.Y)*f}
			if err := drag.move(ctx, t, p); err != nil {
				return err
			}
		}
		return drag.release(ctx, t, a.To)
	})
}

// back goes one entry back in the history and waits until that page has
// loaded (polling, so a page restored from the back/forward cache, which
// fires no load event, is handled too).
func (s *Session) back(ctx context.Context) error {
	if err := s.refuseWithDialog("back"); err != nil {
		return err
	}
	var want string
	err := s.do(ctx, "back", func(ctx context.Context, t *chromedp.Target) error {
		h, err := cdp.Call(ctx, t, page.GetNavigationHistory, cdp.Empty{})
		if err != nil {
			return err
		}
		if h.CurrentIndex <= 0 || int(h.CurrentIndex) >= len(h.Entries) {
			return &drivers.TargetError{Reason: drivers.ReasonNoHistory, Message: "there is no previous page to go back to", Hint: "open a page first"}
		}
		prev := h.Entries[h.CurrentIndex-1]
		want = prev.URL
		_, err = cdp.Call(ctx, t, page.NavigateToHistoryEntry, page.NavigateToHistoryEntryParams{EntryID: prev.ID})
		return err
	})
	if err != nil {
		return err
	}
	wctx, cancel := context.WithTimeout(ctx, backTimeout)
	defer cancel()
	tick := time.NewTicker(25 * time.Millisecond)
	defer tick.Stop()
	expr := "location.href===" + jsArgs(want) + "&&document.readyState==='complete'"
	for {
		var ok bool
		err := s.evalOnce(wctx, "back", expr, &ok)
		if err == nil && ok {
			return nil
		}
		if err != nil && !retryableEval(err) && wctx.Err() == nil {
			return err
		}
		select {
		case <-wctx.Done():
			return fmt.Errorf("web: back: the previous page %s did not finish loading: %w", want, wctx.Err())
		case <-tick.C:
		}
	}
}

func (s *Session) viewport(ctx context.Context, a drivers.Action) error {
	w, h := int64(math.Round(a.Size.X)), int64(math.Round(a.Size.Y))
	if w <= 0 || h <= 0 {
		return fmt.Errorf("web: viewport %gx%g: width and height must be positive", a.Size.X, a.Size.Y)
	}
	return s.do(ctx, "viewport", func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{Width: w, Height: h, DeviceScaleFactor: 1})
		return err
	})
}

// NextFrame waits for the page's next animation frame (within frameBound):
// the runner polls a target that is not actionable yet on the page's
// frames.
func (s *Session) NextFrame(ctx context.Context) error {
	return s.awaitFrame(ctx, oneFrameExpr)
}
