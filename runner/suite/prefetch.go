package suite

// Sessions a worker opens ahead of time (web: a fresh browser context is
// independent of the one in use).

import (
	"context"
	"time"

	"github.com/adtest/adtest/drivers"
)

// workerState is what a worker keeps between tests: the session it opened
// ahead of time, when prefetching.
type workerState struct {
	next *prefetched
}

type prefetched struct {
	platform string
	done     chan struct{}
	drv      drivers.Driver
	err      error
}

// acquire returns a fresh session for an attempt: the worker's prefetched one
// when there is one for this platform, else a new one. It then starts
// opening the next session when more work may follow.
func (s *scheduler) acquire(ctx, actx context.Context, prov drivers.Provider, platform string, ai attemptInfo) (drivers.Driver, error) {
	// A retry shares nothing with the attempts before it (a web worker's
	// warm browser context).
	opts := drivers.SessionOptions{Worker: ai.worker, Device: ai.device, Fresh: ai.attempt > 1}
	var d drivers.Driver
	var err error
	p := ai.ws.next
	ai.ws.next = nil
	if p != nil && p.platform == platform {
		select {
		case <-p.done:
			d, err = p.drv, p.err
		case <-actx.Done():
			s.closeLater(p)
			return nil, actx.Err()
		}
	} else if p != nil {
		s.closeLater(p)
	}
	if sh, ok := d.(drivers.StateSharer); ok && err == nil && opts.Fresh && sh.SharesState() {
		// Opened ahead in the state the retry must not share.
		s.closeLater(&prefetched{done: p.done, drv: d})
		d = nil
	}
	if l, ok := d.(drivers.Liveness); ok && err == nil && !l.Alive() {
		// Opened ahead on a browser or device that has died since (the
		// failure of the previous attempt, often): never hand it out.
		s.closeLater(&prefetched{done: p.done, drv: d})
		d = nil
	}
	if p == nil || err != nil || d == nil {
		d, err = prov.NewSession(actx, opts)
	}
	if err == nil && s.cfg.Prefetch[platform] && (ai.attempt < ai.max || s.moreQueued()) {
		next := &prefetched{platform: platform, done: make(chan struct{})}
		go func() {
			defer close(next.done)
			next.drv, next.err = prov.NewSession(ctx, drivers.SessionOptions{Worker: ai.worker, Device: ai.device})
		}()
		ai.ws.next = next
	}
	return d, err
}

func (s *scheduler) moreQueued() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.next < len(s.order) && s.stopped == ""
}

// closeLater closes a prefetched session once it is ready, in the background.
func (s *scheduler) closeLater(p *prefetched) {
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		timer := time.NewTimer(s.grace)
		defer timer.Stop()
		select {
		case <-p.done:
		case <-timer.C:
			return // abandoned: a session that does not open in time
		}
		if p.drv != nil {
			cctx, cancel := context.WithTimeout(context.Background(), s.grace)
			defer cancel()
			p.drv.Close(cctx)
		}
	}()
}

func (s *scheduler) dropPrefetched(ws *workerState) {
	if ws.next != nil {
		s.closeLater(ws.next)
		ws.next = nil
	}
}
