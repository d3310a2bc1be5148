package web

import (
	"context"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
)

// The scripts and data a page loads after its load event.
//
// A module loader (RequireJS and its kind) starts the app from a timer: the
// load event fires when the page's own tags are in, and the app's modules
// are requested afterwards, wave after wave (a module's dependencies once it
// ran); other apps fetch their templates or data then (Sammy). Until the
// last wave ran, the page shows its static markup (the field is there) but
// has no handlers: text typed into it is lost or cleared when the app binds.
// A person does not see the difference, but a person is slow enough never
// to meet it; a driver is not. So `open` also waits, within loadsBound,
// until the main frame has no script, XHR or fetch request in flight and
// none started during two rendered frames (a module loader's timer of a few
// milliseconds runs within them). A page that has all it needs at load pays
// those two frames; one that keeps a request open (a long poll) pays
// loadsStall.

const (
	// loadsStall ends the wait when no request started or ended for that
	// long while some are in flight (a long poll, a stalled host): a slow
	// machine's steady waves are followed, a request that never ends is not.
	loadsStall = 5 * time.Second
	// loadsBound bounds the whole wait: a page that keeps loading is left
	// to the next step.
	loadsBound = 30 * time.Second
)

// scriptLoads is what the session knows of the main frame's script, XHR and
// fetch requests.
type scriptLoads struct {
	inflight map[network.RequestID]struct{}
	// started counts script requests; changed is closed and replaced
	// whenever a request starts or ends.
	started uint64
	changed chan struct{}
}

func (l *scriptLoads) notify() {
	if l.changed != nil {
		close(l.changed)
	}
	l.changed = make(chan struct{})
}

// onLoadEvent follows the main frame's script, XHR and fetch requests; it runs in the
// tab's read loop and never blocks. It does not consume the event.
func (s *Session) onLoadEvent(ev any) {
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		switch ev.Type {
		case network.ResourceTypeScript, network.ResourceTypeXHR, network.ResourceTypeFetch:
		default:
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if !s.nav.main(ev.FrameID) {
			return
		}
		l := &s.scripts
		if l.inflight == nil {
			l.inflight = map[network.RequestID]struct{}{}
		}
		if _, ok := l.inflight[ev.RequestID]; ok {
			return // a redirect of a request in flight
		}
		l.inflight[ev.RequestID] = struct{}{}
		l.started++
		l.notify()
	case *network.EventLoadingFinished:
		s.scriptDone(ev.RequestID)
	case *network.EventLoadingFailed:
		s.scriptDone(ev.RequestID)
	case *page.EventFrameNavigated:
		// A new document: the old one's requests end with it.
		if ev.Frame != nil && ev.Frame.ParentID == "" {
			s.mu.Lock()
			if len(s.scripts.inflight) > 0 {
				clear(s.scripts.inflight)
				s.scripts.notify()
			}
			s.mu.Unlock()
		}
	}
}

func (s *Session) scriptDone(id network.RequestID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.scripts.inflight[id]; ok {
		delete(s.scripts.inflight, id)
		s.scripts.notify()
	}
}

// scriptState is the number of script requests in flight and started, and
// the channel closed at the next change.
func (s *Session) scriptState() (int, uint64, chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.scripts.changed == nil {
		s.scripts.notify()
	}
	return len(s.scripts.inflight), s.scripts.started, s.scripts.changed
}

// awaitScripts waits until the page has loaded the scripts and data it
// requests after its load event: none in flight, and none started during two
// rendered frames; until no request moved for loadsStall, within
// loadsBound. Nothing sleeps: it waits on the page's network events and
// frames.
func (s *Session) awaitScripts(ctx context.Context) error {
	bound := time.NewTimer(loadsBound)
	defer bound.Stop()
	stall := time.NewTimer(loadsStall)
	defer stall.Stop()
	for {
		if s.dialogOpen() {
			return nil // the page is blocked until the script answers it
		}
		n, started, ch := s.scriptState()
		if n > 0 {
			select {
			case <-ch:
				stall.Reset(loadsStall) // a request started or ended
				continue
			case <-stall.C:
				return nil
			case <-s.dialogCh:
				s.requeueDialog()
				return nil
			case <-ctx.Done():
				return ctx.Err()
			case <-bound.C:
				return nil
			}
		}
		if err := s.awaitFrame(ctx, scrollFrameExpr); err != nil {
			return err
		}
		n, now, _ := s.scriptState()
		if n == 0 && now == started {
			return nil
		}
		stall.Reset(loadsStall) // requests started during the frames
		select {
		case <-bound.C:
			return nil
		default:
		}
	}
}
