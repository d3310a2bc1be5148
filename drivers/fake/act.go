package fake

// The fake device's actions: preflight, act, screenshot, alerts, attributes, logs.

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"

	"github.com/adtest/adtest/drivers"
)

// Preflight implements drivers.Preflighter: the target must be on screen,
// visible and enabled.
func (d *Device) Preflight(ctx context.Context, a drivers.Action) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.record(Op{Kind: "preflight", Target: describe(a.Target)})
	if a.Target == nil || a.Target.Node == nil {
		return nil
	}
	e, n := d.find(a.Target)
	if e == nil {
		return &drivers.TargetError{Reason: drivers.ReasonTargetNotFound, Message: fmt.Sprintf("Target %s is not on screen", a.Target.Describe), Hint: "Capture a fresh snapshot and retarget."}
	}
	if !n.Visible {
		return &drivers.TargetError{Reason: drivers.ReasonTargetNotVisible, Message: fmt.Sprintf("Target %s is not visible", a.Target.Describe), Hint: "Scroll it into view first (scroll --until)."}
	}
	if e.Disabled {
		return &drivers.TargetError{Reason: drivers.ReasonTargetDisabled, Message: fmt.Sprintf("Target %s is disabled", a.Target.Describe), Hint: "Wait until it is enabled."}
	}
	if a.Kind == drivers.ActFill && !e.Editable {
		return &drivers.TargetError{Reason: drivers.ReasonTargetNotEditable, Message: fmt.Sprintf("Target %s is not editable", a.Target.Describe), Hint: "Fill a text field."}
	}
	return nil
}

func describe(t *drivers.Target) string {
	if t == nil {
		return ""
	}
	if t.Describe != "" {
		return t.Describe
	}
	return fmt.Sprintf("%g %g", t.Point.X, t.Point.Y)
}

// Act implements drivers.Driver.
func (d *Device) Act(ctx context.Context, a drivers.Action) error {
	d.mu.Lock()
	f := d.record(Op{Kind: string(a.Kind), Target: describe(a.Target), Text: a.Text})
	d.mu.Unlock()
	if err := fault(ctx, f, string(a.Kind)); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return fmt.Errorf("%w: fake device is closed", drivers.ErrInfrastructure)
	}
	if d.screen == "" {
		return fmt.Errorf("fake: no screen is open")
	}
	target, _ := d.find(a.Target)
	if e := target; e != nil {
		for i := len(d.ops) - 1; i >= 0; i-- {
			if d.ops[i].Kind == string(a.Kind) {
				d.ops[i].Element = e.ID
				if e.ID == "" {
					d.ops[i].Element = e.Label
				}
				break
			}
		}
	}
	switch a.Kind {
	case drivers.ActTap:
		e := target
		if e == nil {
			return nil // a tap on nothing does nothing
		}
		if e.Editable {
			d.focused = e
		}
		d.apply(e, e.OnTap)
	case drivers.ActFill:
		e := target
		if e == nil {
			return fmt.Errorf("fake: nothing to fill at %s", describe(a.Target))
		}
		if !e.Editable {
			return fmt.Errorf("fake: %s is not editable", describe(a.Target))
		}
		d.values[e] = a.Text
		d.focused = e
		d.apply(e, e.OnFill)
	case drivers.ActType:
		if d.focused == nil {
			return nil // typing with nothing focused goes nowhere
		}
		v, ok := d.values[d.focused]
		if !ok {
			v = d.focused.Value
		}
		d.values[d.focused] = v + a.Text
	case drivers.ActFocus:
		e := target
		if e == nil {
			return fmt.Errorf("fake: nothing to focus at %s", describe(a.Target))
		}
		d.focused = e
	case drivers.ActScroll:
		amount := a.Amount
		if amount <= 0 {
			amount = 0.5
		}
		step := amount * d.viewport.Height
		switch a.Direction {
		case "down":
			d.scrollY += step
		case "up":
			d.scrollY = max(0, d.scrollY-step)
		case "top":
			d.scrollY = 0
		case "bottom":
			nodes, _ := d.layout()
			var bottom float64
			for _, n := range nodes {
				bottom = max(bottom, n.Rect.Y+n.Rect.Height+d.scrollY)
			}
			d.scrollY = max(0, bottom-d.viewport.Height)
		}
	case drivers.ActBack:
		if len(d.history) > 0 {
			prev := d.history[len(d.history)-1]
			d.history = d.history[:len(d.history)-1]
			d.show(prev)
		}
	case drivers.ActKey:
		if a.Key == "dismiss" {
			d.focused = nil
		}
	case drivers.ActViewport:
		d.viewport = drivers.Rect{Width: a.Size.X, Height: a.Size.Y}
	case drivers.ActLongPress, drivers.ActHover, drivers.ActSwipe, drivers.ActPan, drivers.ActHome, drivers.ActAppSwitcher:
		// recorded only
	default:
		return drivers.Unsupported(string(a.Kind), drivers.PlatformFake)
	}
	return nil
}

// apply runs effects. Callers hold d.mu.
func (d *Device) apply(e *Element, effs []Effect) {
	for _, ef := range effs {
		switch ef.Kind {
		case "goto":
			d.history = append(d.history, d.screen)
			d.show(ef.Arg)
		case "alert":
			s := ef.Arg
			d.alert = &s
		case "set":
			d.values[e] = ef.Arg
		}
	}
}

// Screenshot implements drivers.Driver: a 1x1 PNG.
func (d *Device) Screenshot(ctx context.Context, opts drivers.ScreenshotOptions) ([]byte, error) {
	d.mu.Lock()
	f := d.record(Op{Kind: "screenshot"})
	d.mu.Unlock()
	if err := fault(ctx, f, "screenshot"); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, 1, 1))); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// AlertText implements drivers.AlertHandler.
func (d *Device) AlertText(ctx context.Context) (string, bool, error) {
	d.mu.Lock()
	f := d.record(Op{Kind: "alert-text"})
	d.mu.Unlock()
	if err := fault(ctx, f, "alert-text"); err != nil {
		return "", false, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.alert == nil {
		return "", false, nil
	}
	return *d.alert, true, nil
}

// AlertRespond implements drivers.AlertHandler.
func (d *Device) AlertRespond(ctx context.Context, accept bool) error {
	kind := "alert-dismiss"
	if accept {
		kind = "alert-accept"
	}
	d.mu.Lock()
	f := d.record(Op{Kind: kind})
	d.mu.Unlock()
	if err := fault(ctx, f, kind); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.alert = nil
	return nil
}

// Attrs implements drivers.AttrReader.
func (d *Device) Attrs(ctx context.Context, n *drivers.Node) (map[string]string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.record(Op{Kind: "attrs", Target: n.Handle})
	m := map[string]string{"role": n.Role}
	for k, v := range map[string]string{"label": n.Label, "id": n.ID, "text": n.Text, "value": n.Value} {
		if v != "" {
			m[k] = v
		}
	}
	return m, nil
}

// LogTail implements drivers.LogTailer: one line per operation received.
func (d *Device) LogTail(n int) []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	n = min(n, len(d.ops))
	out := make([]string, 0, n)
	for _, o := range d.ops[len(d.ops)-n:] {
		out = append(out, fmt.Sprintf("%s %s %s", o.Kind, o.Target, o.Text))
	}
	return out
}
