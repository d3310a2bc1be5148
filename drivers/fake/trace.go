package fake

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"time"

	"github.com/adtest/adtest/drivers"
)

// The fake device's trace (drivers.TraceShooter, EventSource): its own
// renderer draws the current screen's visible elements as boxes, shaded by
// role, so that the pictures of two screens differ; each operation it
// receives is a log event. Neither is recorded as an operation: a trace
// does not change what a test sees dispatched.

var (
	_ drivers.TraceShooter = (*Device)(nil)
	_ drivers.EventSource  = (*Device)(nil)
)

// TraceShot renders the current screen.
func (d *Device) TraceShot(ctx context.Context, opts drivers.TraceShotOptions) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return nil, fmt.Errorf("%w: fake device is closed", drivers.ErrInfrastructure)
	}
	nodes, _ := d.layout()
	vp := d.viewport
	d.mu.Unlock()
	w, h := max(int(vp.Width), 1), max(int(vp.Height), 1)
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.RGBA{250, 250, 250, 255}), image.Point{}, draw.Src)
	for _, n := range nodes {
		if !n.Visible || n.Rect.Empty() {
			continue
		}
		r := image.Rect(int(n.Rect.X), int(n.Rect.Y), int(n.Rect.X+n.Rect.Width), int(n.Rect.Y+n.Rect.Height)).Inset(2)
		shade := uint8(220 - 20*min(n.Depth, 5))
		c := color.RGBA{shade, shade, shade, 255}
		if n.Interactive {
			c = color.RGBA{60, 110, 200, 255}
		}
		draw.Draw(img, r.Intersect(img.Bounds()), image.NewUniform(c), image.Point{}, draw.Src)
	}
	return drivers.EncodeTraceJPEG(img, opts)
}

// StartEvents starts keeping a log event per operation.
func (d *Device) StartEvents() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.traceFrom = len(d.ops) + 1
}

// DrainEvents returns a log event per operation since the last call.
func (d *Device) DrainEvents() []drivers.Event {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.traceFrom == 0 {
		return nil
	}
	var out []drivers.Event
	now := time.Now()
	for _, op := range d.ops[min(d.traceFrom-1, len(d.ops)):] {
		text := op.Kind
		if op.Target != "" {
			text += " " + op.Target
		}
		if op.Text != "" {
			text += " " + fmt.Sprintf("%q", op.Text)
		}
		out = append(out, drivers.Event{Time: now, Source: drivers.FromDevice, Kind: drivers.EventLog, Level: "info", Text: text})
	}
	d.traceFrom = len(d.ops) + 1
	return out
}
