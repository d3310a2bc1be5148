package runner

// Observations: internal read-only captures and the polls built on them.

import (
	"context"
	"time"

	"github.com/adtest/adtest/drivers"
)

// observe is an internal read-only capture: it replaces the latest
// observation and never touches the ref frame.
func (s *Session) observe(ctx context.Context, opts drivers.SnapshotOptions) (*observation, *ErrorInfo) {
	// Drivers return the full tree (drivers.Driver.Snapshot); -i, -d and -s
	// are applied here, in newObservation, the one place that filters, so
	// refs number the same on every platform.
	snap, err := s.drv.Snapshot(ctx, drivers.SnapshotOptions{Raw: opts.Raw})
	if err != nil {
		return nil, fromError(ctx, "snapshot", s.cfg.Platform, err)
	}
	obs := newObservation(snap, opts)
	s.last = obs
	return obs, nil
}

// poll runs check on fresh internal captures until it reports done or
// timeout passes on the session clock.
func (s *Session) poll(ctx context.Context, timeout time.Duration, check func(*observation) bool) (polls int, done bool, e *ErrorInfo) {
	deadline := s.cfg.Clock.Now().Add(timeout)
	for {
		obs, err := s.observe(ctx, drivers.SnapshotOptions{})
		if err != nil {
			return polls, false, err
		}
		polls++
		if check(obs) {
			return polls, true, nil
		}
		now := s.cfg.Clock.Now()
		if !now.Before(deadline) {
			return polls, false, nil
		}
		wait := min(s.cfg.PollInterval, deadline.Sub(now))
		select {
		case <-ctx.Done():
			return polls, false, ctxError(ctx, ctx.Err())
		case <-s.cfg.Clock.After(wait):
		}
	}
}

func (s *Session) sleep(ctx context.Context, d time.Duration) *ErrorInfo {
	if d <= 0 {
		return nil
	}
	select {
	case <-ctx.Done():
		return ctxError(ctx, ctx.Err())
	case <-s.cfg.Clock.After(d):
		return nil
	}
}
