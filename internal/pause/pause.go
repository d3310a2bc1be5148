// Package pause waits a set time unless a context ends first: the one
// pacing delay of the drivers (a key's delay, a gesture's step), never a
// wait for a condition.
package pause

import (
	"context"
	"time"
)

// For waits d or until ctx ends, whichever comes first, and returns
// ctx's error when it ended. A d of zero or less does not wait, but still
// reports a context that has ended, so a loop of pauses stops.
func For(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
