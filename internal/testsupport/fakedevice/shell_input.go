package fakedevice

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/adtest/adtest/drivers"
)

// `input`: taps, key events and drags on the fake screen.

// Android key codes the fake understands.
var keyNames = map[string]int{"KEYCODE_BACK": 4, "BACK": 4, "KEYCODE_HOME": 3, "HOME": 3, "KEYCODE_ENTER": 66, "ENTER": 66,
	"KEYCODE_DEL": 67, "DEL": 67, "KEYCODE_MOVE_END": 123, "MOVE_END": 123, "KEYCODE_ESCAPE": 111, "ESCAPE": 111,
	"KEYCODE_APP_SWITCH": 187, "APP_SWITCH": 187, "KEYCODE_TAB": 61, "TAB": 61}

func (d *Device) input(args []string, stderr io.Writer) int {
	if len(args) == 0 {
		return 1
	}
	ctx, cancel := appCtx()
	defer cancel()
	num := func(s string) float64 { f, _ := strconv.ParseFloat(s, 64); return f }
	d.mu.Lock()
	d.count(args[0])
	d.mu.Unlock()
	switch args[0] {
	case "tap":
		if len(args) != 3 {
			fmt.Fprintln(stderr, "usage: input tap <x> <y>")
			return 1
		}
		d.tap(ctx, drivers.Point{X: num(args[1]), Y: num(args[2])})
		return 0
	case "text":
		if len(args) < 2 {
			return 1
		}
		text := strings.ReplaceAll(strings.Join(args[1:], " "), "%s", " ")
		if d.Foreground() != "" {
			d.app.Act(ctx, drivers.Action{Kind: drivers.ActType, Text: text})
		}
		return 0
	case "keyevent":
		for _, k := range args[1:] {
			if k == "--longpress" {
				continue
			}
			code, ok := keyNames[k]
			if !ok {
				code, _ = strconv.Atoi(k)
			}
			d.key(ctx, code)
		}
		return 0
	case "swipe":
		if len(args) < 5 {
			return 1
		}
		ms := 300.0
		if len(args) > 5 {
			ms = num(args[5])
		}
		d.drag(ctx, drivers.Point{X: num(args[1]), Y: num(args[2])}, drivers.Point{X: num(args[3]), Y: num(args[4])}, time.Duration(ms)*time.Millisecond)
		return 0
	}
	fmt.Fprintf(stderr, "Unknown command: %s\n", args[0])
	return 1
}

// tap hits the alert buttons first, then the app.
func (d *Device) tap(ctx context.Context, p drivers.Point) {
	if d.Foreground() == "" {
		return
	}
	if text, open, _ := d.app.AlertText(ctx); open {
		_ = text
		for _, b := range alertButtons(d.opts.Screens.Viewport) {
			if p.X >= b.rect.X && p.X < b.rect.X+b.rect.Width && p.Y >= b.rect.Y && p.Y < b.rect.Y+b.rect.Height {
				d.app.AlertRespond(ctx, b.accept)
				return
			}
		}
		return // a modal dialog swallows taps outside its buttons
	}
	d.app.Act(ctx, drivers.Action{Kind: drivers.ActTap, Target: &drivers.Target{Point: p}})
	if id := d.opts.UnplugOnTap; id != "" {
		if ops := d.app.Ops(); len(ops) > 0 && ops[len(ops)-1].Element == id {
			d.Unplug()
		}
	}
}

func (d *Device) key(ctx context.Context, code int) {
	switch code {
	case 4:
		if _, open, _ := d.app.AlertText(ctx); open {
			d.app.AlertRespond(ctx, false)
			return
		}
		d.app.Act(ctx, drivers.Action{Kind: drivers.ActBack})
	case 3:
		d.mu.Lock()
		d.foreground = ""
		d.mu.Unlock()
	case 66:
		d.app.Act(ctx, drivers.Action{Kind: drivers.ActKey, Key: "enter"})
	case 111:
		d.app.Act(ctx, drivers.Action{Kind: drivers.ActKey, Key: "dismiss"})
	case 67:
		snap, err := d.app.Snapshot(ctx, drivers.SnapshotOptions{})
		if err != nil {
			return
		}
		for i := range snap.Nodes {
			n := &snap.Nodes[i]
			if n.Focused && n.Editable {
				v := []rune(n.Value)
				if len(v) > 0 {
					d.app.Act(ctx, drivers.Action{Kind: drivers.ActFill, Text: string(v[:len(v)-1]), Target: &drivers.Target{Node: n, Point: n.Rect.Center()}})
				}
				return
			}
		}
	}
}

// drag is a one-pointer move: a long press when it stays put, else a
// scroll of the content by the distance moved.
func (d *Device) drag(ctx context.Context, from, to drivers.Point, dur time.Duration) {
	if d.Foreground() == "" {
		return
	}
	dx, dy := to.X-from.X, to.Y-from.Y
	if dx*dx+dy*dy < 100 {
		if dur >= 400*time.Millisecond {
			d.app.Act(ctx, drivers.Action{Kind: drivers.ActLongPress, Target: &drivers.Target{Point: from}, Duration: dur})
		} else {
			d.tap(ctx, from)
		}
		return
	}
	h := d.opts.Screens.Viewport.Height
	if abs(dy) >= abs(dx) {
		dir := "down" // the finger moves up, the content scrolls down
		if dy > 0 {
			dir = "up"
		}
		d.app.Act(ctx, drivers.Action{Kind: drivers.ActScroll, Direction: dir, Amount: abs(dy) / h})
		return
	}
	d.app.Act(ctx, drivers.Action{Kind: drivers.ActSwipe, From: from, To: to})
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}
