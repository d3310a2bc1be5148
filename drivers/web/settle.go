package web

import (
	"context"
	"errors"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
)

// The settle contract of drivers.Driver.Act on the web (see drivers/driver.go).
//
// A session follows the main frame's navigations through the page's own
// events, in the order the browser sends them:
//
//	Page.frameRequestedNavigation (the renderer asked: link, form, location)
//	Page.frameStartedNavigating / frameStartedLoading (the browser began)
//	Page.frameNavigated (the new document committed)
//	Page.lifecycleEvent DOMContentLoaded (of that document)
//	Page.frameStoppedLoading / navigatedWithinDocument
//
// A navigation is in flight from its request until its document reached
// DOMContentLoaded, it turned out same-document (history push, fragment), or
// the browser stopped loading without a commit (204, download, cancelled).
// After an action, the page first renders a frame (requestAnimationFrame
// twice, then a task): the handlers of the input ran, and so did the
// IntersectionObservers and the navigation requests they make. Then, when a
// navigation started since the action began, Act waits for it to end.
// Nothing here sleeps: both waits end on a page event, within a bound.

const (
	// navBound bounds the wait for a navigation an action started (commit
	// plus DOMContentLoaded). A page slower than that is left loading; the
	// next snapshot waits for it again.
	navBound = 15 * time.Second
	// frameBound bounds the wait for one rendered frame: a page that
	// renders no frame (busy, hidden) does not hold the step longer.
	frameBound = 2 * time.Second
)

// navState is what the session knows of the main frame's navigation.
type navState struct {
	mainFrame cdp.FrameID
	// seq counts navigation starts; pending is set from a start until its end.
	seq     uint64
	pending bool
	// committed is set when a new document committed after the last start;
	// loading when the browser started loading after it.
	committed bool
	loading   bool
	loader    cdp.LoaderID
	// changed is closed and replaced whenever the state changes.
	changed chan struct{}
}

func (n *navState) notify() {
	close(n.changed)
	n.changed = make(chan struct{})
}

func (n *navState) start() {
	n.seq++
	n.pending = true
	n.committed = false
	n.loading = false
	n.notify()
}

func (n *navState) end() {
	if n.pending {
		n.pending = false
		n.notify()
	}
}

func (n *navState) main(id cdp.FrameID) bool {
	return n.mainFrame == "" || id == n.mainFrame
}

// onNavEvent updates the navigation state from a page event; it runs in the
// tab's read loop and never blocks. It reports whether ev was a navigation
// event.
func (s *Session) onNavEvent(ev any) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := &s.nav
	switch ev := ev.(type) {
	case *page.EventFrameRequestedNavigation:
		if n.main(ev.FrameID) && ev.Disposition == page.ClientNavigationDispositionCurrentTab {
			n.start()
		}
	case *page.EventFrameStartedNavigating:
		if !n.main(ev.FrameID) {
			return true
		}
		switch ev.NavigationType {
		case page.FrameStartedNavigatingNavigationTypeSameDocument, page.FrameStartedNavigatingNavigationTypeHistorySameDocument:
			// Ends with navigatedWithinDocument.
			if !n.pending {
				n.start()
			}
		default:
			if !n.pending || n.committed {
				n.start()
			}
		}
	case *page.EventFrameStartedLoading:
		if n.main(ev.FrameID) {
			if !n.pending {
				n.start()
			}
			n.loading = true
		}
	case *page.EventFrameNavigated:
		if ev.Frame != nil && ev.Frame.ParentID == "" {
			if n.mainFrame == "" {
				n.mainFrame = ev.Frame.ID
			}
			if !n.pending {
				n.start()
			}
			n.committed = true
			n.loader = ev.Frame.LoaderID
			// A new document: the driver's world is the next call's to create.
			s.world = 0
			n.notify()
			if ev.Type == page.NavigationTypeBackForwardCacheRestore {
				// A restored page has loaded already: no lifecycle follows.
				n.end()
			}
		}
	case *page.EventLifecycleEvent:
		if n.main(ev.FrameID) && ev.Name == "DOMContentLoaded" && n.committed && ev.LoaderID == n.loader {
			n.end()
		}
	case *page.EventNavigatedWithinDocument:
		if n.main(ev.FrameID) {
			n.end()
		}
	case *page.EventFrameStoppedLoading:
		// Only a stop after the browser began loading for this navigation
		// ends it (the old document can stop loading just after the request).
		if n.main(ev.FrameID) && (n.loading || n.committed) {
			n.end()
		}
	default:
		return false
	}
	return true
}

// navMark is the navigation counter before an action.
func (s *Session) navMark() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.nav.seq
}

// navInFlight reports whether a navigation is in flight.
func (s *Session) navInFlight() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.nav.pending
}

// waitNav waits until no navigation is in flight, within bound; it reports
// whether one ended (false when none was in flight or the bound passed).
func (s *Session) waitNav(ctx context.Context, bound time.Duration) (bool, error) {
	timer := time.NewTimer(bound)
	defer timer.Stop()
	waited := false
	for {
		s.mu.Lock()
		pending, ch := s.nav.pending, s.nav.changed
		s.mu.Unlock()
		if !pending {
			return waited, nil
		}
		waited = true
		select {
		case <-ch:
		case <-s.dialogCh:
			// A dialog blocks the new page's parsing: the script answers it.
			s.requeueDialog()
			return false, nil
		case <-s.tabCtx.Done():
			return false, s.classify(ctx, "navigation", s.tabCtx.Err())
		case <-ctx.Done():
			return false, ctx.Err()
		case <-timer.C:
			return false, nil
		}
	}
}

// requeueDialog puts back the dialog signal a waiter consumed.
func (s *Session) requeueDialog() {
	select {
	case s.dialogCh <- struct{}{}:
	default:
	}
}

// frameExpr resolves after the page rendered a frame and ran the tasks that
// frame queued: the rendering steps of a frame (after its
// requestAnimationFrame callbacks) compute IntersectionObserver entries and
// queue their callbacks, so a task queued by a task queued from the frame
// callback comes after them. scrollFrameExpr waits one frame more: a scroll
// moves content in the next frame, whose observers then run.
// guardedFrameExpr is frameExpr after a press on an element: it first
// disarms the page's press guard, at once, and resolves to what the presses
// hit (page.js disarm, a pressResult).
const (
	frameExpr        = `new Promise(r => requestAnimationFrame(() => setTimeout(() => setTimeout(r, 0), 0)))`
	guardedFrameExpr = `(g => new Promise(r => requestAnimationFrame(() => setTimeout(() => setTimeout(() => r(g), 0), 0))))(lib.disarm())`
	scrollFrameExpr  = `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => setTimeout(r, 0), 0))))`
)

// awaitFrame waits for one rendered frame, within frameBound. A document
// replaced meanwhile is no error: the navigation wait takes over.
func (s *Session) awaitFrame(ctx context.Context, expr string) error {
	return s.awaitFrameValue(ctx, expr, nil)
}

// awaitFrameValue is awaitFrame with the frame expression's value decoded
// into out; out is left as it is when the wait ends without one.
func (s *Session) awaitFrameValue(ctx context.Context, expr string, out any) error {
	fctx, cancel := context.WithTimeout(ctx, frameBound)
	defer cancel()
	s.mu.Lock()
	pump := s.frames
	s.mu.Unlock()
	done := make(chan error, 1)
	go func() {
		if pump == nil {
			done <- s.evalOnce(fctx, "settle", expr, out)
			return
		}
		// The session draws the frames: once the page asked for the frame
		// (the promise is made), it is drawn now, not at the next tick.
		err := s.evalOnce(fctx, "settle", "(globalThis.__adtestFrame="+expr+",0)", nil)
		if err == nil {
			pump.kick()
			err = s.evalOnce(fctx, "settle", "globalThis.__adtestFrame", out)
		}
		done <- err
	}()
	var err error
	select {
	case err = <-done:
	case <-s.dialogCh:
		// The page is blocked by a dialog until the script answers it.
		s.requeueDialog()
		cancel()
		<-done
		return nil
	}
	switch {
	case err == nil:
		return nil
	case errors.Is(err, drivers.ErrInfrastructure):
		return err
	case ctx.Err() != nil:
		return ctx.Err()
	}
	// The bound passed (a busy page) or the document went away: both leave
	// the rest to the navigation wait and to the next step.
	return nil
}

// settle is the end of every mutating action (drivers.Driver's settle
// contract): one rendered frame, then the navigation that started since
// mark, if any, up to DOMContentLoaded of its document.
// The frame expression's value, if any, is decoded into out (left as it is
// when the wait ends without one: a dialog, a document replaced).
func (s *Session) settle(ctx context.Context, mark uint64, expr string, out any) error {
	if s.dialogOpen() {
		return nil
	}
	if err := s.awaitFrameValue(ctx, expr, out); err != nil {
		return err
	}
	s.mu.Lock()
	started := s.nav.seq != mark || s.nav.pending
	s.mu.Unlock()
	if !started || s.dialogOpen() {
		return nil
	}
	_, err := s.waitNav(ctx, navBound)
	return err
}

func (s *Session) dialogOpen() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dialog != nil
}

// oneFrameExpr resolves at the next animation frame (before it renders):
// two of them in a row see an element's box one frame apart.
const oneFrameExpr = `new Promise(r => requestAnimationFrame(() => r()))`
