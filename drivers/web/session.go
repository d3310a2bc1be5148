package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/chromedp/cdproto"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/inspector"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// logLimit is how many console lines a session keeps.
const logLimit = 500

// Session is one isolated browser context with one page: a drivers.Driver.
type Session struct {
	p *Provider
	b *browserProc

	tabCtx    context.Context
	tabCancel context.CancelFunc
	closeOnce sync.Once
	// shotMu holds one capture at a time (trace.go).
	shotMu sync.Mutex

	mu       sync.Mutex
	dialog   *dialogInfo
	dialogCh chan struct{} // receives when a dialog opens
	// dragCh receives the data of a drag the browser handed over (drag.go).
	dragCh  chan *input.DragData
	logs    []string
	crashed bool
	closed  bool
	// hung is set when a call outlived its deadline (a page that stopped
	// answering): closing the session then checks the browser itself.
	hung bool
	nav  navState
	// scripts follows the main frame's script requests (loading.go).
	scripts scriptLoads
	// lastScroll is what the last scroll moved.
	lastScroll drivers.ScrollReport
	// world is the driver's isolated world in the current document (0:
	// none yet, see world.go).
	world runtime.ExecutionContextID
	// pipe is the session's pipelining session on its page (pipe.go).
	pipe pipeState
	// trace is what a trace asked to keep (trace.go).
	trace traceState
	// frames draws the page's frames when the session controls them
	// (frames.go); nil when the browser draws them.
	frames *framePump
	// ownContext is the browser context of a page made by the session
	// itself (a controlled one); "" when chromedp made it.
	ownContext cdp.BrowserContextID
	// warm is the worker's warm browser context the page is in (warm.go);
	// nil for a context of the session's own. Set before the session
	// starts; a relaunch clears it (under mu).
	warm *warmContext
	// origins are the security origins the page has shown (warm.go).
	origins map[string]struct{}
	// used is set by the session's first call: a session that was never
	// used (opened ahead, then not needed) leaves its warm context as it
	// found it.
	used atomic.Bool
}

type dialogInfo struct {
	kind    string
	message string
}

var (
	_ drivers.Driver         = (*Session)(nil)
	_ drivers.AlertHandler   = (*Session)(nil)
	_ drivers.AttrReader     = (*Session)(nil)
	_ drivers.LogTailer      = (*Session)(nil)
	_ drivers.Preflighter    = (*Session)(nil)
	_ drivers.ScrollReporter = (*Session)(nil)
	_ drivers.Liveness       = (*Session)(nil)
)

func newSession(p *Provider, b *browserProc) *Session {
	return &Session{p: p, b: b, dialogCh: make(chan struct{}, 1), dragCh: make(chan *input.DragData, 1), nav: navState{changed: make(chan struct{})}}
}

// Default viewport of a session in CSS pixels (as Playwright's), so that
// coordinates in scripts mean the same on every machine.
const defaultWidth, defaultHeight = 1280, 720

// start creates the browser context and its page.
func (s *Session) start(ctx context.Context) error {
	if wc := s.warmContext(); wc != nil {
		return s.startWarm(ctx)
	}
	if s.b.frameControl.Load() {
		err := s.startControlled(ctx)
		if err == nil || ctx.Err() != nil || s.b.ctx.Err() != nil {
			return err
		}
		// This browser cannot draw a controlled page: its pages are made
		// the usual way from now on.
		s.b.frameControl.Store(false)
		s.p.opts.Logf("web: frames left to the browser (%v)", err)
	}
	s.mu.Lock()
	s.frames, s.ownContext = nil, ""
	s.mu.Unlock()
	s.tabCtx, s.tabCancel = chromedp.NewContext(s.b.ctx, chromedp.WithNewBrowserContext(), chromedp.WithListener(s.onEvent))
	return s.setUp(ctx)
}

// startControlled starts a page whose frames the session draws (frames.go).
func (s *Session) startControlled(ctx context.Context) error {
	tid, bc, err := newControlledTarget(ctx, s.b)
	if err != nil {
		return err
	}
	tabCtx, cancel := chromedp.NewContext(s.b.ctx, chromedp.WithTargetID(tid), chromedp.WithListener(s.onEvent))
	// The pump stops before the page goes: a frame being drawn is waited
	// for (frames.go).
	var started atomic.Pointer[framePump]
	s.tabCtx, s.tabCancel = tabCtx, func() {
		if p := started.Load(); p != nil {
			p.stop()
		}
		cancel()
		disposeContext(s.b, bc)
	}
	stop := context.AfterFunc(ctx, s.tabCancel)
	defer stop()
	// The page's first frame comes before anything else it is asked:
	// without frames it never loads its document's rendering.
	if err := chromedp.Do(tabCtx); err != nil {
		s.tabCancel()
		return err
	}
	pump, err := startPump(ctx, tabCtx, s.b.frameTurn)
	if err != nil {
		s.tabCancel()
		return err
	}
	started.Store(pump)
	s.mu.Lock()
	s.frames, s.ownContext = pump, bc
	s.mu.Unlock()
	return s.setUp(ctx)
}

// browserContextID is the browser context of the session's page.
func (s *Session) browserContextID() cdp.BrowserContextID {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ownContext != "" {
		return s.ownContext
	}
	return chromedp.FromContext(s.tabCtx).BrowserContextID
}

// setUp readies the page of s.tabCtx.
func (s *Session) setUp(ctx context.Context) error {
	stop := context.AfterFunc(ctx, s.tabCancel)
	defer stop()
	return chromedp.Do(s.tabCtx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		// The main frame of a page target has the target's id; a new page
		// (also after relaunch) starts with no navigation in flight.
		s.mu.Lock()
		s.nav.mainFrame = cdp.FrameID(t.TargetID)
		s.nav.end()
		s.world = 0
		s.mu.Unlock()
		if err := installConsoleBudget(ctx, t); err != nil {
			return fmt.Errorf("bounding the page's console: %w", err)
		}
		_, err := cdp.Call(ctx, t, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
			Width: defaultWidth, Height: defaultHeight, DeviceScaleFactor: 1,
		})
		return err
	}))
}

// warmContext is the session's warm context, nil when it has its own.
func (s *Session) warmContext() *warmContext {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.warm
}

// onEvent runs in the tab's read loop: record, never block.
func (s *Session) onEvent(ev any) {
	if ev, ok := ev.(*page.EventFrameNavigated); ok && ev.Frame != nil {
		if s.warmContext() != nil {
			s.addOrigin(ev.Frame.SecurityOrigin)
		}
	}
	s.onTraceEvent(ev)
	s.onLoadEvent(ev)
	if s.onNavEvent(ev) {
		return
	}
	switch ev := ev.(type) {
	case *page.EventJavascriptDialogOpening:
		s.mu.Lock()
		s.dialog = &dialogInfo{kind: string(ev.Type), message: ev.Message}
		s.mu.Unlock()
		select {
		case s.dialogCh <- struct{}{}:
		default:
		}
	case *input.EventDragIntercepted:
		s.onDragEvent(ev)
	case *page.EventJavascriptDialogClosed:
		s.mu.Lock()
		s.dialog = nil
		s.mu.Unlock()
	case *runtime.EventConsoleAPICalled:
		if n, ok := consoleDropped(ev); ok {
			s.addLog("adtest: " + droppedText(n))
			return
		}
		parts := make([]string, 0, len(ev.Args))
		for _, a := range ev.Args {
			parts = append(parts, remoteText(a))
		}
		s.addLog(fmt.Sprintf("console.%s: %s", ev.Type, strings.Join(parts, " ")))
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		msg := d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			msg = strings.SplitN(d.Exception.Description, "\n", 2)[0]
		}
		s.addLog(fmt.Sprintf("uncaught: %s (%s:%d)", msg, d.URL, d.LineNumber+1))
	case *cdplog.EventEntryAdded:
		// The browser's own messages (failed resource loads, violations);
		// console calls arrive as Runtime events above.
		// The favicon the browser asks for by itself and verbose notes
		// (violations) are noise.
		if e := ev.Entry; e != nil && e.Level != cdplog.EntryLevelVerbose && !strings.HasSuffix(e.URL, "/favicon.ico") {
			line := fmt.Sprintf("browser.%s: %s", e.Level, e.Text)
			if e.URL != "" {
				line += " (" + e.URL + ")"
			}
			s.addLog(line)
		}
	case *inspector.EventTargetCrashed:
		s.mu.Lock()
		s.crashed = true
		s.mu.Unlock()
	}
}

func remoteText(a *runtime.RemoteObject) string {
	if a == nil {
		return ""
	}
	if len(a.Value) > 0 {
		var str string
		if json.Unmarshal(a.Value, &str) == nil {
			return str
		}
		return string(a.Value)
	}
	if a.UnserializableValue != "" {
		return string(a.UnserializableValue)
	}
	if a.Description != "" {
		return a.Description
	}
	return string(a.Type)
}

func (s *Session) addLog(line string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.logs = append(s.logs, line)
	if len(s.logs) > logLimit {
		s.logs = append(s.logs[:0:0], s.logs[len(s.logs)-logLimit:]...)
	}
}

// Alive reports whether the session's page and browser are still there
// (drivers.Liveness).
func (s *Session) Alive() bool {
	s.mu.Lock()
	dead := s.closed || s.crashed || (s.warm != nil && s.warm.isBroken())
	s.mu.Unlock()
	return !dead && s.b.ctx.Err() == nil && s.tabCtx != nil && s.tabCtx.Err() == nil
}

// Platform implements drivers.Driver.
func (s *Session) Platform() string { return drivers.PlatformWeb }

// Close ends the session: its page and browser context are closed. The
// browser itself stays warm for other sessions. Close is idempotent.
func (s *Session) Close(ctx context.Context) error {
	s.closeTab()
	return nil
}

// closeTab ends the session. The page and its browser context go in the
// background (the provider's Close waits for them): the worker's next
// test, on a browser context of its own, does not wait for the browser to
// dispose of this one.
func (s *Session) closeTab() {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.closed = true
		hung, wc := s.hung, s.warm
		s.mu.Unlock()
		s.p.forget(s)
		if wc != nil && !s.used.Load() {
			// Opened ahead and never used: its page goes, the context
			// stays as it is (another session of it may be running).
			wc = nil
		}
		// A warm context is cleared before the worker's next session uses
		// it: that session's calls wait for the clearing (do).
		var cleared chan struct{}
		if wc != nil {
			cleared = make(chan struct{})
			wc.mu.Lock()
			wc.clean = cleared
			wc.mu.Unlock()
		}
		end := func() {
			if wc != nil {
				kept := s.recycle()
				close(cleared)
				if kept {
					return
				}
				s.p.dropWarm(wc)
			}
			if s.tabCancel != nil {
				s.tabCancel()
			}
			if hung {
				// The tab is closed (its renderer goes with its browser
				// context); a browser that no longer answers is replaced.
				s.p.probe(s.b)
			}
		}
		if !s.p.closing(end) {
			end()
		}
	})
}

// errClosed is returned by calls on a closed session.
var errClosed = fmt.Errorf("web: %w", drivers.ErrClosed)

// do runs f on the page, bounded by ctx, and classifies its error.
func (s *Session) do(ctx context.Context, op string, f func(ctx context.Context, t *chromedp.Target) error) error {
	s.mu.Lock()
	closed, pump, wc := s.closed, s.frames, s.warm
	s.mu.Unlock()
	if closed {
		return errClosed
	}
	if wc != nil && !s.used.Load() {
		if err := wc.awaitClean(ctx); err != nil {
			return s.classify(ctx, op, err)
		}
		s.used.Store(true)
		if err := s.moveIfThrownAway(ctx, wc); err != nil {
			return err
		}
	}
	if pump != nil {
		pump.touch()
	}
	rctx, cancel := context.WithCancel(s.tabCtx)
	defer cancel()
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	err := chromedp.Do(rctx, chromedp.Func(f))
	if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		s.mu.Lock()
		s.hung = true
		s.mu.Unlock()
	}
	return s.classify(ctx, op, err)
}

// classify turns an error of a page call into an infrastructure error when
// the browser, the connection or the page itself is gone.
func (s *Session) classify(ctx context.Context, op string, err error) error {
	if err == nil {
		return nil
	}
	var te *drivers.TargetError
	if errors.As(err, &te) || errors.Is(err, drivers.ErrUnsupported) {
		return err
	}
	var exc *chromedp.ExceptionError
	if errors.As(err, &exc) {
		return fmt.Errorf("web: %s: page script failed: %w", op, err)
	}
	var perr *cdproto.Error
	if errors.As(err, &perr) && s.b.ctx.Err() == nil {
		// The browser answered: it is alive, the command failed.
		return fmt.Errorf("web: %s: %w", op, err)
	}
	if ctx.Err() != nil && s.b.ctx.Err() == nil && s.tabCtx.Err() == nil {
		return fmt.Errorf("web: %s: %w", op, ctx.Err())
	}
	// A dead browser is noticed by chromedp shortly after the failing call;
	// give it a moment before deciding.
	t := time.NewTimer(300 * time.Millisecond)
	defer t.Stop()
	select {
	case <-s.b.ctx.Done():
	case <-s.tabCtx.Done():
	case <-t.C:
	}
	s.mu.Lock()
	crashed := s.crashed
	closed := s.closed
	s.mu.Unlock()
	switch {
	case closed:
		return errClosed
	case s.b.ctx.Err() != nil:
		what := "the CDP connection to the browser broke"
		if s.b.pid != 0 {
			what = fmt.Sprintf("Chromium (pid %d) exited or its CDP connection broke", s.b.pid)
		}
		return fmt.Errorf("%w: web: %s: %s: %v", drivers.ErrInfrastructure, op, what, err)
	case crashed:
		return fmt.Errorf("%w: web: %s: the page crashed: %v", drivers.ErrInfrastructure, op, err)
	case s.tabCtx.Err() != nil || errors.Is(err, chromedp.ErrTargetDetached):
		return fmt.Errorf("%w: web: %s: the page was closed: %v", drivers.ErrInfrastructure, op, err)
	case ctx.Err() != nil:
		return fmt.Errorf("web: %s: %w", op, ctx.Err())
	}
	return fmt.Errorf("web: %s: %w", op, err)
}

// jsArgs renders Go values as a JavaScript argument list.
func jsArgs(args ...any) string {
	parts := make([]string, len(args))
	for i, a := range args {
		b, _ := json.Marshal(a)
		parts[i] = string(b)
	}
	return strings.Join(parts, ",")
}

// Open navigates to a URL and waits for the load event, then for the scripts
// and data the page loads after it (loading.go). Relaunch starts a
// fresh browser context first (no cookies or storage of before).
func (s *Session) Open(ctx context.Context, req drivers.OpenRequest) error {
	url := req.URL
	if url == "" {
		url = req.Target
	}
	if url == "" {
		return fmt.Errorf("web: open needs a URL")
	}
	url = normalizeURL(url)
	if req.Relaunch {
		if err := s.relaunch(ctx); err != nil {
			return err
		}
	}
	if err := s.navigate(ctx, url); err != nil {
		return err
	}
	// The scripts the page loads after its load event (a module loader's).
	return s.awaitScripts(ctx)
}

// navigate is Open's first half: the navigation to url, up to its load
// event.
func (s *Session) navigate(ctx context.Context, url string) error {
	// A dialog opened while the page loads blocks the load event: the open
	// has happened then, and the dialog is for the script to answer.
	return s.input(ctx, "open "+url, func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Navigate(url)(ctx, t)
		var le *chromedp.LoadError
		if errors.As(err, &le) {
			return &drivers.TargetError{Reason: drivers.ReasonNavigationFailed, Message: fmt.Sprintf("could not open %s: %s", url, le.ErrorText), Hint: "check that the URL is right and the server is running"}
		}
		return err
	})
}

// normalizeURL makes a bare host (example.com/path, localhost:8080) an
// http:// address; URLs with a scheme are kept.
func normalizeURL(u string) string {
	if strings.Contains(u, "://") {
		return u
	}
	for _, scheme := range []string{"about:", "data:", "javascript:", "file:", "blob:", "chrome:"} {
		if strings.HasPrefix(u, scheme) {
			return u
		}
	}
	return "http://" + u
}

// relaunch replaces the page and its browser context with fresh ones.
func (s *Session) relaunch(ctx context.Context) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return errClosed
	}
	old := s.tabCancel
	s.dialog = nil
	// A relaunch asks for a browser context of the session's own.
	s.warm = nil
	s.mu.Unlock()
	old()
	if s.b.ctx.Err() != nil {
		return fmt.Errorf("%w: web: relaunch: the browser is gone", drivers.ErrInfrastructure)
	}
	if err := s.start(ctx); err != nil {
		return s.classify(ctx, "relaunch", err)
	}
	return nil
}

// Snapshot captures the page in one in-page walk (see page.js).
func (s *Session) Snapshot(ctx context.Context, opts drivers.SnapshotOptions) (*drivers.Snapshot, error) {
	if err := s.refuseWithDialog("snapshot"); err != nil {
		return nil, err
	}
	// Never capture a document that is being replaced.
	if _, err := s.waitNav(ctx, navBound); err != nil {
		return nil, err
	}
	var str string
	if err := s.eval(ctx, "snapshot", "lib.snapshot("+jsArgs(map[string]any{"raw": opts.Raw})+")", &str); err != nil {
		return nil, err
	}
	var raw rawSnapshot
	if err := json.Unmarshal([]byte(str), &raw); err != nil {
		return nil, fmt.Errorf("web: snapshot: %w", err)
	}
	if err := s.markClosed(ctx, &raw); err != nil {
		return nil, err
	}
	snap := raw.toSnapshot()
	snap.Nodes = filterNodes(snap.Nodes, opts)
	return snap, nil
}

func retryableEval(err error) bool {
	if errors.Is(err, drivers.ErrInfrastructure) {
		return false
	}
	msg := err.Error()
	return strings.Contains(msg, "context was destroyed") || strings.Contains(msg, "Cannot find context") ||
		strings.Contains(msg, "Inspected target navigated")
}

// refuseWithDialog fails fast while a JS dialog blocks the page.
func (s *Session) refuseWithDialog(op string) error {
	s.mu.Lock()
	d := s.dialog
	s.mu.Unlock()
	if d == nil {
		return nil
	}
	return &drivers.TargetError{
		Reason:  drivers.ReasonAlertOpen,
		Message: fmt.Sprintf("cannot %s: a JavaScript %s dialog is open (%q)", op, d.kind, d.message),
		Hint:    "answer it first with `alert accept` or `alert dismiss`",
	}
}

// Screenshot returns a PNG of the viewport, or of the whole page.
func (s *Session) Screenshot(ctx context.Context, opts drivers.ScreenshotOptions) ([]byte, error) {
	s.shotMu.Lock() // one capture at a time (TraceShot)
	defer s.shotMu.Unlock()
	defer s.burstFrames()()
	var buf []byte
	err := s.do(ctx, "screenshot", func(ctx context.Context, t *chromedp.Target) error {
		var before, after *secretAreas
		var err error
		if len(opts.Mask) > 0 {
			if before, err = measureSecrets(ctx, t, opts.Mask); err != nil {
				return fmt.Errorf("finding the secrets to mask: %w", err)
			}
		}
		if opts.FullPage {
			buf, err = chromedp.FullScreenshot(100)(ctx, t)
		} else {
			var r page.CaptureScreenshotResult
			r, err = cdp.Call(ctx, t, page.CaptureScreenshot, page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatPng})
			buf = r.Data
		}
		if err != nil || before == nil {
			return err
		}
		if after, err = measureSecrets(ctx, t, opts.Mask); err != nil {
			buf = nil
			return fmt.Errorf("finding the secrets to mask: %w", err)
		}
		buf, err = paintSecrets(buf, opts.FullPage, before, after)
		return err
	})
	if err != nil {
		return nil, err
	}
	return buf, nil
}

// AlertText returns the message of the open JS dialog.
func (s *Session) AlertText(ctx context.Context) (string, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dialog == nil {
		return "", false, nil
	}
	return s.dialog.message, true, nil
}

// AlertRespond accepts or dismisses the open JS dialog; none open is no error.
func (s *Session) AlertRespond(ctx context.Context, accept bool) error {
	s.mu.Lock()
	open := s.dialog != nil
	s.mu.Unlock()
	if !open {
		return nil
	}
	err := s.do(ctx, "alert", func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: accept})
		return err
	})
	if err == nil {
		s.mu.Lock()
		s.dialog = nil
		s.mu.Unlock()
	}
	return err
}

// Attrs returns the DOM attributes of a node.
func (s *Session) Attrs(ctx context.Context, n *drivers.Node) (map[string]string, error) {
	if n == nil || n.Handle == "" {
		return nil, fmt.Errorf("web: attrs needs a node from a web snapshot")
	}
	var res struct {
		State string            `json:"state"`
		Attrs map[string]string `json:"attrs"`
	}
	if err := s.lib(ctx, "get attrs", "attrs("+jsArgs(n.Handle)+")", &res); err != nil {
		return nil, err
	}
	if res.State == "stale" {
		return nil, staleError(describeNode(n))
	}
	if res.Attrs == nil {
		res.Attrs = map[string]string{}
	}
	return res.Attrs, nil
}

// LogTail returns the last n console lines and uncaught exceptions.
func (s *Session) LogTail(n int) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n <= 0 || n > len(s.logs) {
		n = len(s.logs)
	}
	return append([]string(nil), s.logs[len(s.logs)-n:]...)
}
