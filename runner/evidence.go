package runner

// What a session hands to readers outside the step path: the evidence of a
// failed attempt (suite artifacts) and read-only captures (the recorder).
// The session owns its driver; orchestrators ask it, they do not reach past
// it to the device.

import (
	"context"

	"github.com/adtest/adtest/drivers"
)

// Evidence is what a failed attempt keeps of its session.
type Evidence struct {
	// Screenshot is the screen as the failure left it (ScreenshotErr when it
	// could not be taken; both empty when the driver returned no picture).
	Screenshot    []byte
	ScreenshotErr error
	// Snapshot is the session's latest capture, else a fresh one (nil when
	// neither exists).
	Snapshot *drivers.Snapshot
	// Log is the tail of the device log, when the driver keeps one (HasLog).
	Log    []string
	HasLog bool
}

// Evidence gathers the evidence of a failure: a screenshot with the values
// of mask painted over, the latest capture and the log tail. It never
// touches the ref frame.
func (s *Session) Evidence(ctx context.Context, mask []string) Evidence {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ev Evidence
	ev.Screenshot, ev.ScreenshotErr = s.drv.Screenshot(ctx, drivers.ScreenshotOptions{Mask: mask})
	if ev.ScreenshotErr == nil {
		ev.Screenshot, ev.ScreenshotErr = drivers.Blank(ev.Screenshot, mask)
	}
	if s.last != nil {
		ev.Snapshot = s.last.Snap
	} else if snap, err := s.drv.Snapshot(ctx, drivers.SnapshotOptions{}); err == nil {
		ev.Snapshot = snap
	}
	if lt, ok := s.drv.(drivers.LogTailer); ok {
		ev.Log, ev.HasLog = lt.LogTail(200), true
	}
	return ev
}

// Capture is a read-only full capture for a reader outside the session (the
// recorder, just before a ref step): it touches neither the ref frame nor
// the session's latest observation.
func (s *Session) Capture(ctx context.Context) (*drivers.Snapshot, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.drv.Snapshot(ctx, drivers.SnapshotOptions{})
}
