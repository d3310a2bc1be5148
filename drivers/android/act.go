package android

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/drivers/android/adb"
	"github.com/adtest/adtest/internal/pause"
)

// Preflight implements drivers.Preflighter.
func (s *Session) Preflight(ctx context.Context, a drivers.Action) error {
	if a.Target == nil || a.Target.Node == nil {
		return nil
	}
	n := a.Target.Node
	switch {
	case !n.Visible:
		return &drivers.TargetError{Reason: drivers.ReasonTargetNotVisible, Message: fmt.Sprintf("Target %s is not on screen", a.Target.Describe), Hint: "Scroll it into view first (scroll --until)."}
	case !n.Enabled:
		return &drivers.TargetError{Reason: drivers.ReasonTargetDisabled, Message: fmt.Sprintf("Target %s is disabled", a.Target.Describe), Hint: "Wait until it is enabled."}
	case strings.HasSuffix(n.Handle, coveredMark):
		return &drivers.TargetError{Reason: drivers.ReasonTargetCovered, Message: fmt.Sprintf("Target %s is covered by a system dialog", a.Target.Describe), Hint: "Answer the dialog first (alert accept|dismiss)."}
	case a.Kind == drivers.ActFill && !n.Editable:
		return &drivers.TargetError{Reason: drivers.ReasonTargetNotEditable, Message: fmt.Sprintf("Target %s is not a text field", a.Target.Describe), Hint: "Fill an EditText."}
	}
	return nil
}

func point(a drivers.Action) (drivers.Point, error) {
	if a.Target == nil {
		return drivers.Point{}, fmt.Errorf("%s needs a target", a.Kind)
	}
	if a.Target.Node != nil && a.Target.Point == (drivers.Point{}) {
		return a.Target.Node.Rect.Center(), nil
	}
	return a.Target.Point, nil
}

func px(f float64) string { return strconv.Itoa(int(f + 0.5)) }

// Act implements drivers.Driver. When it returns, the action's effects are
// observable (it settles).
func (s *Session) Act(ctx context.Context, a drivers.Action) error {
	if err := s.live(); err != nil {
		return err
	}
	before := s.beforeAction(ctx)
	if err := s.act(ctx, a); err != nil {
		return err
	}
	s.settle(ctx, before)
	return nil
}

func (s *Session) act(ctx context.Context, a drivers.Action) error {
	switch a.Kind {
	case drivers.ActTap, drivers.ActFocus:
		p, err := point(a)
		if err != nil {
			return err
		}
		if a.HoldMs > 0 {
			return s.longPress(ctx, p, time.Duration(a.HoldMs)*time.Millisecond)
		}
		n := max(a.Count, 1)
		if a.DoubleTap {
			n *= 2
		}
		tap := "input tap " + px(p.X) + " " + px(p.Y)
		for i := 0; i < n; i++ {
			if i > 0 && a.IntervalMs > 0 {
				if err := pause.For(ctx, time.Duration(a.IntervalMs)*time.Millisecond); err != nil {
					return err
				}
			}
			if _, err := s.sh(ctx, tap); err != nil {
				return err
			}
		}
		return nil
	case drivers.ActLongPress:
		p, err := point(a)
		if err != nil {
			return err
		}
		d := a.Duration
		if d <= 0 {
			d = 800 * time.Millisecond
		}
		return s.longPress(ctx, p, d)
	case drivers.ActFill:
		return s.fill(ctx, a)
	case drivers.ActType:
		return s.typeText(ctx, a.Text)
	case drivers.ActScroll:
		return s.scroll(ctx, a)
	case drivers.ActSwipe:
		return s.drag(ctx, a.From, a.To, 250*time.Millisecond)
	case drivers.ActPan:
		d := a.Duration
		if d <= 0 {
			d = 500 * time.Millisecond
		}
		return s.drag(ctx, a.From, a.To, d)
	case drivers.ActBack:
		_, err := s.sh(ctx, "input keyevent 4")
		return err
	case drivers.ActHome:
		_, err := s.sh(ctx, "input keyevent 3")
		return err
	case drivers.ActAppSwitcher:
		_, err := s.sh(ctx, "input keyevent 187")
		return err
	case drivers.ActKey:
		return s.key(ctx, a.Key)
	}
	return drivers.Unsupported(string(a.Kind), drivers.PlatformAndroid)
}

func (s *Session) key(ctx context.Context, k string) error {
	code := map[string]string{"enter": "66", "return": "66", "tab": "61", "app-switcher": "187", "escape": "111", "back": "4", "home": "3", "delete": "67"}[strings.ToLower(k)]
	if strings.ToLower(k) == "dismiss" {
		return s.KeyboardDismiss(ctx)
	}
	if code == "" {
		code = "KEYCODE_" + strings.ToUpper(k)
	}
	_, err := s.sh(ctx, "input keyevent "+code)
	return err
}

// KeyboardState is what `dumpsys input_method` says about the keyboard.
type KeyboardState struct {
	Visible   bool
	InputType string // text, number, phone, datetime, email, password
}

// KeyboardStatus reads the keyboard state from dumpsys input_method (the
// last match of each key wins).
func (s *Session) KeyboardStatus(ctx context.Context) (KeyboardState, error) {
	out, err := s.sh(ctx, "dumpsys input_method")
	if err != nil {
		return KeyboardState{}, err
	}
	return parseInputMethod(out), nil
}

func parseInputMethod(out string) KeyboardState {
	last := map[string]string{}
	for _, f := range strings.Fields(out) {
		if k, v, ok := strings.Cut(f, "="); ok {
			last[k] = v
		}
	}
	st := KeyboardState{InputType: "text"}
	switch {
	case last["mWindowVisible"] != "" || last["mDecorViewVisible"] != "" || last["mInShowWindow"] != "":
		st.Visible = last["mWindowVisible"] == "true" || last["mDecorViewVisible"] == "true" || last["mInShowWindow"] == "true"
	case last["mInputShown"] != "":
		st.Visible = last["mInputShown"] == "true"
	case last["mIsInputViewShown"] != "":
		st.Visible = last["mIsInputViewShown"] == "true"
	}
	if t, err := strconv.ParseUint(strings.TrimPrefix(last["inputType"], "0x"), 16, 32); err == nil {
		switch t & 0xf {
		case 2:
			st.InputType = "number"
		case 3:
			st.InputType = "phone"
		case 4:
			st.InputType = "datetime"
		}
		switch t & 0xff0 {
		case 0x20, 0xd0:
			st.InputType = "email"
		case 0x80, 0xe0, 0x90:
			st.InputType = "password"
		}
	}
	return st
}

// KeyboardDismiss hides the keyboard with ESCAPE (up to two tries).
func (s *Session) KeyboardDismiss(ctx context.Context) error {
	for i := 0; i < 2; i++ {
		st, err := s.KeyboardStatus(ctx)
		if err != nil {
			return err
		}
		if !st.Visible {
			return nil
		}
		if _, err := s.sh(ctx, "input keyevent 111"); err != nil {
			return err
		}
	}
	if st, err := s.KeyboardStatus(ctx); err == nil && st.Visible {
		return fmt.Errorf("UNSUPPORTED_OPERATION: the keyboard is still visible after ESCAPE")
	}
	return nil
}

// typeText types ASCII text with `input text` in chunks of 8 (spaces as %s,
// newlines as ENTER).
func (s *Session) typeText(ctx context.Context, text string) error {
	for _, r := range text {
		if (r < 0x20 || r > 0x7e) && r != '\n' {
			return fmt.Errorf("`input text` types ASCII only; %q is not (a test IME is needed for other text)", r)
		}
	}
	for i, line := range strings.Split(text, "\n") {
		if i > 0 {
			if _, err := s.sh(ctx, "input keyevent 66"); err != nil {
				return err
			}
		}
		for len(line) > 0 {
			n := min(8, len(line))
			chunk := strings.ReplaceAll(line[:n], " ", "%s")
			line = line[n:]
			if _, err := s.sh(ctx, "input text "+adb.Quote(chunk)); err != nil {
				return err
			}
		}
	}
	return nil
}

// fill taps the field, clears it, types, and checks what it holds.
func (s *Session) fill(ctx context.Context, a drivers.Action) error {
	p, err := point(a)
	if err != nil {
		return err
	}
	current := 0
	if a.Target.Node != nil {
		current = len([]rune(a.Target.Node.Value))
	}
	for attempt := 0; attempt < 2; attempt++ {
		if _, err := s.sh(ctx, "input tap "+px(p.X)+" "+px(p.Y)); err != nil {
			return err
		}
		dels := min(max(current+12, 8), 48)
		if attempt > 0 {
			dels = min(max(current+24, 16), 96)
		}
		if _, err := s.sh(ctx, "input keyevent 123"); err != nil {
			return err
		}
		for dels > 0 {
			n := min(dels, 24)
			dels -= n
			if _, err := s.sh(ctx, "input keyevent"+strings.Repeat(" 67", n)); err != nil {
				return err
			}
		}
		if err := s.typeText(ctx, a.Text); err != nil {
			return err
		}
		got, err := s.settledFieldValue(ctx, p, a.Text)
		if err != nil {
			return err
		}
		if fillMatches(got, a.Text) {
			return nil
		}
		current = len([]rune(got))
		if attempt == 1 {
			return fmt.Errorf("fill: the field holds %q, not %q", got, a.Text)
		}
	}
	return nil
}

func fillMatches(got, want string) bool {
	if got == want || strings.Join(strings.Fields(got), " ") == strings.Join(strings.Fields(want), " ") {
		return true
	}
	// Masked password fields: only the length can be checked.
	if r := []rune(got); len(r) == len([]rune(want)) && len(r) > 0 && strings.Trim(got, "•*") == "" {
		return true
	}
	return len(got) > 0 && strings.ToUpper(want[:1])+want[1:] == got
}

// settledFieldValue reads the field now, and again 150 and 350 ms after
// the fill while it does not hold want yet (a keyboard or the app may still
// be updating it).
func (s *Session) settledFieldValue(ctx context.Context, p drivers.Point, want string) (string, error) {
	start := time.Now()
	var got string
	for _, at := range []time.Duration{0, 150 * time.Millisecond, 350 * time.Millisecond} {
		if err := pause.For(ctx, at-time.Since(start)); err != nil {
			return "", err
		}
		v, err := s.fieldValue(ctx, p)
		if err != nil {
			return "", err
		}
		if got = v; fillMatches(got, want) {
			return got, nil
		}
	}
	return got, nil
}

// fieldValue reads the focused text field, else the smallest one at p.
func (s *Session) fieldValue(ctx context.Context, p drivers.Point) (string, error) {
	snap, err := s.Snapshot(ctx, drivers.SnapshotOptions{})
	if err != nil {
		return "", err
	}
	best := -1
	for i, n := range snap.Nodes {
		if !editableClass(n.Role) && !n.Editable {
			continue
		}
		if n.Focused {
			return n.Value, nil
		}
		r := n.Rect
		if p.X >= r.X && p.X < r.X+r.Width && p.Y >= r.Y && p.Y < r.Y+r.Height {
			if best < 0 || r.Width*r.Height < snap.Nodes[best].Rect.Width*snap.Nodes[best].Rect.Height {
				best = i
			}
		}
	}
	if best < 0 {
		return "", fmt.Errorf("fill: no text field at %s %s", px(p.X), px(p.Y))
	}
	return snap.Nodes[best].Value, nil
}

// touchPlan is agent-device's android-touch-plan-v1 payload.
type touchPlan struct {
	Protocol   string         `json:"protocol"`
	Kind       string         `json:"kind"`
	DurationMs int            `json:"durationMs"`
	Pointers   []touchPointer `json:"pointers"`
}

type touchPointer struct {
	PointerID int           `json:"pointerId"`
	Samples   []touchSample `json:"samples"`
}

type touchSample struct {
	OffsetMs int     `json:"offsetMs"`
	X        float64 `json:"x"`
	Y        float64 `json:"y"`
}

// linePlan is a one-pointer plan from a to b over d, a sample per 16 ms.
func linePlan(a, b drivers.Point, d time.Duration) string {
	ms := max(int(d/time.Millisecond), 1)
	steps := min(max(ms/16, 1), 60)
	ptr := touchPointer{}
	for i := 0; i <= steps; i++ {
		f := float64(i) / float64(steps)
		off := ms * i / steps
		if i > 0 && off <= ptr.Samples[len(ptr.Samples)-1].OffsetMs {
			continue
		}
		ptr.Samples = append(ptr.Samples, touchSample{OffsetMs: off, X: a.X + (b.X-a.X)*f, Y: a.Y + (b.Y-a.Y)*f})
	}
	plan := touchPlan{Protocol: "android-touch-plan-v1", Kind: "swipe", DurationMs: ms, Pointers: []touchPointer{ptr}}
	raw, _ := json.Marshal(plan)
	return base64.StdEncoding.EncodeToString(raw)
}

func (s *Session) longPress(ctx context.Context, p drivers.Point, d time.Duration) error {
	return s.drag(ctx, p, p, d)
}

// drag runs a one-pointer touch plan through the helper (never retried
// once a session took it), or `input swipe` in dump mode.
func (s *Session) drag(ctx context.Context, a, b drivers.Point, d time.Duration) error {
	if s.p.opts.Snapshot == SnapshotDump {
		_, err := s.sh(ctx, fmt.Sprintf("input swipe %s %s %s %s %d", px(a.X), px(a.Y), px(b.X), px(b.Y), d.Milliseconds()))
		return err
	}
	return s.wrap(s.helper.gesture(ctx, linePlan(a, b, d)))
}

// scroll pans the content by a viewport fraction, or to an edge.
func (s *Session) scroll(ctx context.Context, a drivers.Action) error {
	var vp drivers.Rect
	if s.p.opts.Snapshot == SnapshotDump {
		vp = s.currentViewport(ctx)
	} else {
		var err error
		if vp, err = s.helper.viewport(ctx); err != nil {
			return s.wrap(err)
		}
	}
	amount := a.Amount
	if amount <= 0 {
		amount = 0.5
	}
	repeat := 1
	dir := a.Direction
	switch dir {
	case "top":
		dir, amount, repeat = "up", 0.7, 6
	case "bottom":
		dir, amount, repeat = "down", 0.7, 6
	}
	cx, cy := vp.X+vp.Width/2, vp.Y+vp.Height/2
	dx, dy := 0.0, 0.0
	switch dir {
	case "down":
		dy = -amount * vp.Height
	case "up":
		dy = amount * vp.Height
	case "right":
		dx = -amount * vp.Width
	case "left":
		dx = amount * vp.Width
	default:
		return fmt.Errorf("scroll direction must be up, down, left, right, top or bottom, got %q", a.Direction)
	}
	from := drivers.Point{X: cx - dx/2, Y: cy - dy/2}
	to := drivers.Point{X: cx + dx/2, Y: cy + dy/2}
	for i := 0; i < repeat; i++ {
		if err := s.drag(ctx, from, to, 300*time.Millisecond); err != nil {
			return err
		}
	}
	return nil
}
