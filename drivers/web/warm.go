package web

// A worker's browser context kept warm from test to test
// (Options.Isolation == IsolationWarm, `adtest run --isolation warm`):
// experimental, not the default.
//
// A fresh browser context per test (IsolationFresh, Playwright's model and
// the default) makes every test's first page a cold one: its renderer has
// never seen the app, so every script is fetched and compiled again, and
// that cold load is most of a short test's time. In warm isolation a
// worker keeps one browser context: each test gets a page of its own in it
// (a new tab: its history, session storage and window are new), and
// between two tests the context is cleared of what a test leaves behind —
// the pages the test opened are closed and waited for, its page is taken
// to about:blank (its pagehide and unload handlers run, its timers stop),
// then every cookie of the context and every origin's site data (local
// storage, IndexedDB, cache storage, service workers, file systems) are
// cleared, and the cookies are checked and cleared again while some are
// left. What stays is what a page does not see: the HTTP cache and the
// renderer of the sites the worker has visited (the browser runs with
// --process-per-site, so the next test's page of the same site joins it,
// with its compiled scripts: that is the whole gain; without the flag a
// warm run took as long as a fresh one). A context whose clearing fails
// or does not end within its bound is thrown away: the next test gets a
// fresh one. So does a retry (drivers.SessionOptions.Fresh).
//
// Why it is not the default: the browser's clearing alone left local
// storage to the next test. The renderer a site's pages share keeps a copy
// of the origin's local storage that the next page starts from, and the
// browser's clearing reached that copy only after the next page had read
// it: on the TodoMVC suite (27 tests, two workers) 50 of 135 tests found
// the todos of the test before at their start, and about one run in ten
// failed. The page now empties its own local storage before it goes, which
// empties that copy at once: 36 runs of the suite without a failure, and
// in 21 of them no test found anything at its start. Not covered: a page
// that writes local storage as it leaves (pagehide, unload handlers) after
// that; its writes reach the next page only through the browser's late
// clearing. And a renderer shared by a site's pages has a trap: a page of
// it closed while another runs an app can break that app. On the TodoMVC
// matrix five flows of angular-dart (a dart2js app) failed from a worker's
// second test on: the parked page of the test before was closed once the
// next test's page had loaded, and from then on the app's submit handler
// threw NoSuchMethodError on its event's preventDefault (the same sequence
// under Playwright fails the same way). A parked page is now closed only
// while no test's page is live: when the next test's page is parked in
// its turn (recycle); the matrix then passes warm as it does fresh. Warm
// isolation stays an opt-in: the writes of a page that leaves, the HTTP
// cache kept and the shared renderer are states Playwright's model never
// has (docs/performance.md).

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/storage"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// Isolation modes of Options.Isolation.
const (
	// IsolationFresh gives every session a browser context of its own.
	IsolationFresh = "fresh"
	// IsolationWarm keeps a worker's browser context from session to
	// session, cleared between them (see above).
	IsolationWarm = "warm"
)

// clearBound bounds the clearing of a warm context between two tests.
const clearBound = 3 * time.Second

// warmContext is a worker's browser context kept from test to test.
type warmContext struct {
	b  *browserProc
	id cdp.BrowserContextID

	mu sync.Mutex
	// parked is the page of the last test, at about:blank: it keeps its
	// site's renderer alive while the next test's page loads in it, and
	// is closed when that test's page is parked in turn (recycle).
	parked []parkedPage
	// clean is closed once the context's last clearing has ended; a
	// session's calls wait for it.
	clean chan struct{}
	// broken is set when the context was thrown away: its sessions are
	// no longer alive.
	broken bool
}

// parkedPage is the page of an earlier test, at about:blank.
type parkedPage struct {
	id     target.ID
	cancel context.CancelFunc
}

func closedChan() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}

// warmMode reports whether sessions of b share their worker's context.
func (p *Provider) warmMode(b *browserProc) bool {
	return p.opts.Isolation == IsolationWarm && !b.remote && !b.frameControl.Load()
}

// warmContextFor returns worker's warm context on b, creating it when
// there is none (or the one there is belongs to an earlier browser).
func (p *Provider) warmContextFor(ctx context.Context, b *browserProc, worker int) (*warmContext, error) {
	p.warmMu.Lock()
	defer p.warmMu.Unlock()
	p.mu.Lock()
	wc := p.warmCtxs[worker]
	p.mu.Unlock()
	if wc != nil && wc.b == b && !wc.isBroken() && b.ctx.Err() == nil {
		return wc, nil
	}
	if wc != nil {
		p.dropWarm(wc)
	}
	c := chromedp.FromContext(b.ctx)
	if c == nil || c.Browser == nil {
		return nil, errors.New("web: no browser connection")
	}
	res, err := cdp.Call(ctx, c.Browser, target.CreateBrowserContext, target.CreateBrowserContextParams{})
	if err != nil {
		return nil, err
	}
	wc = &warmContext{b: b, id: res.BrowserContextID, clean: closedChan()}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		disposeContext(b, wc.id)
		return nil, fmt.Errorf("web: the provider is closed")
	}
	p.warmCtxs[worker] = wc
	p.mu.Unlock()
	return wc, nil
}

// dropWarm throws a warm context away: its pages close with it.
func (p *Provider) dropWarm(wc *warmContext) {
	p.mu.Lock()
	for w, c := range p.warmCtxs {
		if c == wc {
			delete(p.warmCtxs, w)
		}
	}
	p.mu.Unlock()
	wc.mu.Lock()
	if wc.broken {
		wc.mu.Unlock()
		return
	}
	wc.broken = true
	parked := wc.parked
	wc.parked = nil
	wc.mu.Unlock()
	for _, pp := range parked {
		pp.cancel()
	}
	disposeContext(wc.b, wc.id)
}

func (wc *warmContext) isBroken() bool {
	wc.mu.Lock()
	defer wc.mu.Unlock()
	return wc.broken
}

// addOrigin notes an origin the session's page has shown: its site data
// is cleared when the session ends.
func (s *Session) addOrigin(origin string) {
	if origin == "" || origin == "null" || origin == "://" {
		return
	}
	s.mu.Lock()
	if s.origins == nil {
		s.origins = map[string]struct{}{}
	}
	s.origins[origin] = struct{}{}
	s.mu.Unlock()
}

// awaitClean waits until the context's last clearing has ended.
func (wc *warmContext) awaitClean(ctx context.Context) error {
	wc.mu.Lock()
	c := wc.clean
	wc.mu.Unlock()
	select {
	case <-c:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// SharesState reports whether the session is in its worker's warm context
// (drivers.StateSharer).
func (s *Session) SharesState() bool { return s.warmContext() != nil }

// startWarm opens the session's page in its worker's warm context.
func (s *Session) startWarm(ctx context.Context) error {
	s.mu.Lock()
	s.frames, s.ownContext = nil, ""
	s.mu.Unlock()
	s.tabCtx, s.tabCancel = chromedp.NewContext(s.b.ctx, chromedp.WithExistingBrowserContext(s.warm.id), chromedp.WithListener(s.onEvent))
	return s.setUp(ctx)
}

// recycle clears the session's warm context for the worker's next test
// and parks its page; false when the context must be thrown away instead
// (a crashed or hung page, a browser gone, a clearing that failed or did
// not end within clearBound).
func (s *Session) recycle() bool {
	wc := s.warm
	s.mu.Lock()
	healthy := !s.crashed && !s.hung && s.tabCtx != nil && s.tabCtx.Err() == nil
	s.mu.Unlock()
	if !healthy || wc.isBroken() || s.b.ctx.Err() != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(s.tabCtx, clearBound)
	defer cancel()
	err := chromedp.Do(s.tabCtx, chromedp.Func(func(_ context.Context, t *chromedp.Target) error {
		// The test's pages go first: what they write as they go (pagehide,
		// unload) is written before the clearing.
		if err := s.p.closeStrays(ctx, wc, t.TargetID); err != nil {
			return err
		}
		// The page empties its own local storage before it goes: the
		// renderer's copy of it, which the next page of the site starts
		// from, is emptied at once (see above).
		if _, err := cdp.Call(ctx, t, runtime.Evaluate, runtime.EvaluateParams{Expression: `try { localStorage.clear() } catch (e) {}`}); err != nil {
			return fmt.Errorf("clearing the page's local storage: %w", err)
		}
		if err := s.leave(ctx, t); err != nil {
			return err
		}
		s.mu.Lock()
		origins := make([]string, 0, len(s.origins))
		for o := range s.origins {
			origins = append(origins, o)
		}
		s.mu.Unlock()
		return s.clearSiteData(ctx, t, origins)
	}))
	if err != nil {
		s.p.opts.Logf("web: the worker's browser context is replaced: %v", err)
		return false
	}
	id := target.ID("")
	if c := chromedp.FromContext(s.tabCtx); c != nil && c.Target != nil {
		id = c.Target.TargetID
	}
	// This page keeps the site's renderer from now on; the earlier pages
	// go now, while no test's page is live: closing a page of a renderer
	// while another page of it runs its app can break that app (a dart2js
	// app's event handlers in Chromium 14x: above).
	wc.mu.Lock()
	earlier := wc.parked
	wc.parked = []parkedPage{{id: id, cancel: s.tabCancel}}
	wc.mu.Unlock()
	for _, pp := range earlier {
		pp.cancel()
	}
	return true
}

// leave takes the page to about:blank: its unload handlers run, its timers
// stop, and nothing of it writes site data after the clearing. A dialog
// open or opened meanwhile (one the test left, a beforeunload question) is
// answered so that the page goes.
func (s *Session) leave(ctx context.Context, t *chromedp.Target) error {
	done := make(chan error, 1)
	go func() {
		// Its load event, not just the answer to Page.navigate: the old
		// document's pagehide and unload handlers have run by then and
		// what they wrote has been sent (a clearing sent on the answer
		// alone was seen to come before a cookie the page set as it went).
		_, err := chromedp.Navigate("about:blank")(ctx, t)
		done <- err
	}()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		s.mu.Lock()
		open := s.dialog != nil
		s.mu.Unlock()
		if open {
			if _, err := cdp.Call(ctx, t, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true}); err == nil {
				s.mu.Lock()
				s.dialog = nil
				s.mu.Unlock()
			}
		}
		select {
		case err := <-done:
			if err != nil {
				return fmt.Errorf("leaving the page: %w", err)
			}
			return nil
		case <-s.dialogCh:
		case <-tick.C:
		}
	}
}

// moveIfThrownAway gives an unused session whose warm context was thrown
// away (its clearing failed) a browser context of its own before its
// first call.
func (s *Session) moveIfThrownAway(ctx context.Context, wc *warmContext) error {
	if !wc.isBroken() {
		return nil
	}
	return s.relaunch(ctx)
}

// clearSiteData clears the context's cookies and the site data of
// origins, then checks that no cookie is left and clears again while one
// is: a cookie the pages set just before they went may reach the browser
// after a clearing has begun.
func (s *Session) clearSiteData(ctx context.Context, t *chromedp.Target, origins []string) error {
	browser := chromedp.FromContext(s.b.ctx).Browser
	id := s.warm.id
	for {
		if _, err := cdp.Call(ctx, browser, storage.ClearCookies, storage.ClearCookiesParams{BrowserContextID: id}); err != nil {
			return fmt.Errorf("clearing cookies: %w", err)
		}
		for _, o := range origins {
			if _, err := cdp.Call(ctx, t, storage.ClearDataForOrigin, storage.ClearDataForOriginParams{Origin: o, StorageTypes: "all"}); err != nil {
				return fmt.Errorf("clearing the site data of %s: %w", o, err)
			}
		}
		left, err := siteDataLeft(ctx, browser, id)
		if err != nil || left == "" {
			return err
		}
		s.p.opts.Logf("web: site data left after a clearing (%s): cleared again", left)
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
}

// siteDataLeft names what is left of the cookies of browser context id
// ("" when nothing is). (Local storage cannot be read without a page of
// its origin.)
func siteDataLeft(ctx context.Context, browser cdp.Session, id cdp.BrowserContextID) (string, error) {
	cookies, err := cdp.Call(ctx, browser, storage.GetCookies, storage.GetCookiesParams{BrowserContextID: id})
	if err != nil {
		return "", fmt.Errorf("reading cookies: %w", err)
	}
	if len(cookies.Cookies) > 0 {
		return fmt.Sprintf("%d cookie(s)", len(cookies.Cookies)), nil
	}
	return "", nil
}

// closeStrays closes the pages the test's page opened (popups, and theirs
// in turn) in wc, and waits until they are gone (their unload handlers
// have run): pages adtest made itself have no opener.
func (p *Provider) closeStrays(ctx context.Context, wc *warmContext, page target.ID) error {
	browser := chromedp.FromContext(wc.b.ctx).Browser
	res, err := cdp.Call(ctx, browser, target.GetTargets, target.GetTargetsParams{})
	if err != nil {
		return fmt.Errorf("listing pages: %w", err)
	}
	opened := map[target.ID]bool{page: true}
	for grew := true; grew; {
		grew = false
		for _, ti := range res.TargetInfos {
			if ti.BrowserContextID == wc.id && ti.OpenerID != "" && opened[ti.OpenerID] && !opened[ti.TargetID] {
				opened[ti.TargetID], grew = true, true
			}
		}
	}
	delete(opened, page)
	for id := range opened {
		if _, err := cdp.Call(ctx, browser, target.CloseTarget, target.CloseTargetParams{TargetID: id}); err != nil {
			return fmt.Errorf("closing a page the test opened: %w", err)
		}
	}
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for len(opened) > 0 {
		select {
		case <-tick.C:
		case <-ctx.Done():
			return fmt.Errorf("closing the pages the test opened: %w", ctx.Err())
		}
		res, err := cdp.Call(ctx, browser, target.GetTargets, target.GetTargetsParams{})
		if err != nil {
			return fmt.Errorf("listing pages: %w", err)
		}
		still := map[target.ID]bool{}
		for _, ti := range res.TargetInfos {
			if opened[ti.TargetID] {
				still[ti.TargetID] = true
			}
		}
		opened = still
	}
	return nil
}
