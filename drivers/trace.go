package drivers

import (
	"context"
	"time"
)

// Optional capabilities of a trace (runner/trace): a cheap, scaled
// picture of the screen per step and how long the last action's settle
// took (what the device did between steps is an Event, driver.go). A
// driver without them still gives a trace: its Screenshot is scaled by the
// trace, and it has no events.

// TraceShotOptions bound a trace picture.
type TraceShotOptions struct {
	// MaxWidth and MaxHeight bound the picture in pixels: it is scaled down
	// (never up), keeping its aspect ratio, to fit.
	MaxWidth, MaxHeight int
	// Quality is the JPEG quality (1-100).
	Quality int
	// Mask are secret values the picture must not show (ScreenshotOptions.Mask).
	Mask []string
}

// TraceShooter is implemented by drivers that take a trace picture cheaper
// than a Screenshot the runner scales: a JPEG of the frame the device
// already shows (web: the compositor frame the settle waited for; the fake
// device: its own renderer). It must not change device state or wait for a
// new frame.
type TraceShooter interface {
	TraceShot(ctx context.Context, opts TraceShotOptions) ([]byte, error)
}

// TraceShotStarter is implemented by drivers that take a trace picture
// while the runner goes on reading the device (web: the capture request is
// answered by the browser while the next step resolves its target). The
// picture shows the screen at some time after the call and before the
// returned function returns; the runner calls it before the next operation
// that can change the screen.
type TraceShotStarter interface {
	StartTraceShot(ctx context.Context, opts TraceShotOptions) func() ([]byte, error)
}

// SettleTimer is implemented by drivers that can tell how long the settle
// of their last Act took (the rest of Act is the action itself).
type SettleTimer interface {
	LastSettle() time.Duration
}
