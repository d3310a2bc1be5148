package web

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/adtest/adtest/drivers"
)

// A trace of the session (drivers.TraceShooter, EventSource,
// SettleTimer): a JPEG of the frame the page shows, the console messages,
// page errors and network requests between two drains, and how long the
// last action's settle took.

// traceEventLimit bounds the events kept between two drains.
const traceEventLimit = 500

var (
	_ drivers.TraceShooter     = (*Session)(nil)
	_ drivers.TraceShotStarter = (*Session)(nil)
	_ drivers.EventSource      = (*Session)(nil)
	_ drivers.SettleTimer      = (*Session)(nil)
)

// traceState is the session's trace buffer; under Session.mu.
type traceState struct {
	// on is read without the lock by every page event.
	on     atomic.Bool
	events []drivers.Event
	// requests in flight, by id: the index of nothing yet (they are added
	// to events when they end, or as pending at the drain).
	inflight map[network.RequestID]*pendingRequest
	settle   time.Duration
	// dropped counts the events cut since the last drain (the oldest go
	// first); the drain says so in one event.
	dropped int
}

type pendingRequest struct {
	ev    drivers.Event
	start cdp.MonotonicTime
}

// TraceShot returns a JPEG of the viewport as the page shows it, scaled
// into the bounds of opts: the compositor's current frame, no new one is
// waited for. With secrets to mask, their areas are measured before and
// after the capture and painted over in the scaled picture, as Screenshot
// does in its PNG.
func (s *Session) TraceShot(ctx context.Context, opts drivers.TraceShotOptions) ([]byte, error) {
	opts = opts.Defaults()
	if s.dialogOpen() {
		return nil, fmt.Errorf("web: no picture while a JavaScript dialog is open")
	}
	// One capture at a time: a capture with a scaled clip overrides the
	// page's metrics while it runs and then puts back those it found, so
	// two at once can leave the second's override in place.
	s.shotMu.Lock()
	defer s.shotMu.Unlock()
	defer s.burstFrames()()
	var buf []byte
	err := s.do(ctx, "screenshot", func(ctx context.Context, t *chromedp.Target) error {
		var before *secretAreas
		if len(opts.Mask) > 0 {
			var err error
			if before, err = measureSecrets(ctx, t, opts.Mask); err != nil {
				return fmt.Errorf("finding the secrets to mask: %w", err)
			}
		}
		lm, err := cdp.Call(ctx, t, page.GetLayoutMetrics, cdp.Empty{})
		if err != nil {
			return err
		}
		var w, h float64
		if v := lm.CSSLayoutViewport; v != nil {
			w, h = float64(v.ClientWidth), float64(v.ClientHeight)
		}
		if w <= 0 || h <= 0 {
			w, h = defaultWidth, defaultHeight
		}
		// Never beyond the viewport: a clip would otherwise have the page
		// laid out at its full height for the capture (seconds on a long
		// page), and the picture is of what the viewport shows.
		q, fast, beyond, scale := int64(opts.Quality), true, false, opts.FitScale(w, h)
		p := page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatJpeg, Quality: &q, OptimizeForSpeed: &fast,
			CaptureBeyondViewport: &beyond, Clip: &page.Viewport{Width: w, Height: h, Scale: scale}}
		if v := lm.CSSVisualViewport; v != nil {
			// The clip is in document coordinates: the viewport scrolled.
			p.Clip.X, p.Clip.Y = math.Max(v.PageX, 0), math.Max(v.PageY, 0)
		}
		r, err := cdp.Call(ctx, t, page.CaptureScreenshot, p)
		if err != nil || before == nil {
			buf = r.Data
			return err
		}
		after, err := measureSecrets(ctx, t, opts.Mask)
		if err != nil {
			return fmt.Errorf("finding the secrets to mask: %w", err)
		}
		buf, err = paintSecretsJPEG(r.Data, scale, opts.Quality, before, after)
		return err
	})
	if err != nil {
		return nil, err
	}
	return buf, nil
}

// StartTraceShot starts TraceShot in the background
// (drivers.TraceShotStarter).
func (s *Session) StartTraceShot(ctx context.Context, opts drivers.TraceShotOptions) func() ([]byte, error) {
	type result struct {
		pic []byte
		err error
	}
	ch := make(chan result, 1)
	go func() {
		pic, err := s.TraceShot(ctx, opts)
		ch <- result{pic, err}
	}()
	return func() ([]byte, error) {
		r := <-ch
		return r.pic, r.err
	}
}

// StartEvents (drivers.EventSource) starts keeping console messages, page errors and
// network requests for DrainEvents.
func (s *Session) StartEvents() {
	s.trace.on.Store(true)
}

// DrainEvents returns the events since the last call; a request still
// in flight is reported pending (and again when it ends).
func (s *Session) DrainEvents() []drivers.Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.trace.events
	s.trace.events = nil
	if n := s.trace.dropped; n > 0 {
		s.trace.dropped = 0
		first := time.Now()
		if len(out) > 0 {
			first = out[0].Time
		}
		out = append([]drivers.Event{{Time: first, Source: drivers.FromPage, Kind: drivers.EventLog, Level: "warning",
			Text: fmt.Sprintf("%s earlier events dropped (at most %d are kept between two steps)", thousands(n), traceEventLimit)}}, out...)
	}
	for _, p := range s.trace.inflight {
		e := p.ev
		e.Pending = true
		out = append(out, e)
	}
	return out
}

// LastSettle is how long the settle of the last Act took.
func (s *Session) LastSettle() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.trace.settle
}

func (s *Session) setSettle(d time.Duration) {
	s.mu.Lock()
	s.trace.settle = d
	s.mu.Unlock()
}

// traceAdd keeps e; under s.mu.
func (s *Session) traceAdd(e drivers.Event) {
	t := &s.trace
	t.events = append(t.events, e)
	if len(t.events) > traceEventLimit {
		t.dropped += len(t.events) - traceEventLimit
		t.events = append(t.events[:0:0], t.events[len(t.events)-traceEventLimit:]...)
	}
}

// onTraceEvent follows the page's events for the trace; it runs in the
// tab's read loop and never blocks.
func (s *Session) onTraceEvent(ev any) {
	t := &s.trace
	if !t.on.Load() {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if n, ok := consoleDropped(ev); ok {
			s.traceAdd(drivers.Event{Time: now, Source: drivers.FromPage, Kind: drivers.EventConsole, Level: "warning", Text: droppedText(n)})
			return
		}
		parts := make([]string, 0, len(ev.Args))
		for _, a := range ev.Args {
			parts = append(parts, remoteText(a))
		}
		s.traceAdd(drivers.Event{Time: now, Source: drivers.FromPage, Kind: drivers.EventConsole, Level: string(ev.Type), Text: strings.Join(parts, " ")})
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		msg := d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			msg = strings.SplitN(d.Exception.Description, "\n", 2)[0]
		}
		s.traceAdd(drivers.Event{Time: now, Source: drivers.FromPage, Kind: drivers.EventPageError, Level: "error", Text: msg, URL: d.URL})
	case *network.EventRequestWillBeSent:
		if ev.Request == nil || strings.HasPrefix(ev.Request.URL, "data:") {
			return
		}
		if t.inflight == nil {
			t.inflight = map[network.RequestID]*pendingRequest{}
		}
		if p, ok := t.inflight[ev.RequestID]; ok && ev.RedirectResponse != nil {
			// A redirect ends the request it follows.
			p.ev.Status = int(ev.RedirectResponse.Status)
			p.ev.Duration = monoSince(p.start, ev.Timestamp)
			s.traceAdd(p.ev)
		}
		t.inflight[ev.RequestID] = &pendingRequest{start: ev.Timestamp,
			ev: drivers.Event{Time: now, Source: drivers.FromPage, Kind: drivers.EventRequest, Method: ev.Request.Method, URL: ev.Request.URL}}
	case *network.EventResponseReceived:
		if p, ok := t.inflight[ev.RequestID]; ok && ev.Response != nil {
			p.ev.Status = int(ev.Response.Status)
		}
	case *network.EventLoadingFinished:
		if p, ok := t.inflight[ev.RequestID]; ok {
			delete(t.inflight, ev.RequestID)
			p.ev.Duration = monoSince(p.start, ev.Timestamp)
			s.traceAdd(p.ev)
		}
	case *network.EventLoadingFailed:
		if p, ok := t.inflight[ev.RequestID]; ok {
			delete(t.inflight, ev.RequestID)
			p.ev.Duration = monoSince(p.start, ev.Timestamp)
			p.ev.Failed = ev.ErrorText
			if ev.Canceled {
				p.ev.Failed = "canceled"
			}
			s.traceAdd(p.ev)
		}
	}
}

func monoSince(start, end cdp.MonotonicTime) time.Duration {
	if start <= 0 || end <= 0 {
		return 0
	}
	return max(time.Duration(float64(end-start)*float64(time.Second)), 0)
}
