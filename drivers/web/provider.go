// Package web is the web driver: a warm Chromium (local, or remote over CDP)
// driven with chromedp, one isolated browser context per session.
//
// Lifetime (ADR 0002, persistent helper sessions): NewProvider is cheap; the
// first NewSession starts Chromium (or attaches to --cdp-url) and the browser
// stays warm for the whole run. Every session gets a fresh browser context
// (Target.createBrowserContext: no shared cookies or storage) with one page.
// When Chromium dies or the CDP connection breaks, the call in flight fails
// with an error wrapping drivers.ErrInfrastructure, and the next NewSession
// starts a new browser. Close kills every Chromium the provider started
// (including child processes that outlive the main one) and removes their
// temporary profiles. What killed runs left behind is cleaned by leftovers.go
// at start; reaper.go records and reaps the browsers of a long-lived process
// (the daemon) that died.
//
// Snapshots are one in-page walk (page.js), not an accessibility-tree fetch:
// a single Runtime.evaluate returns compact JSON with roles, accessible
// names, text, values, rectangles and states, static text included.
//
// Node handles: page.js numbers every element it reports once per document
// (a WeakMap, numbers never reused) and a Handle is "<document token>:<n>".
// A handle therefore stays valid across snapshots of the same document and
// finds exactly its element again; after a navigation (new token) or when
// the element left the DOM, actions fail with a *drivers.TargetError whose
// reason is "target_stale" and never touch another element.
package web

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"
)

// Options configure a Provider.
type Options struct {
	// BrowserPath is the Chromium/Chrome binary (--browser); else
	// ADTEST_CHROME; else chromium, chromium-browser, google-chrome on PATH.
	BrowserPath string
	// CDPURL attaches to a running browser (--cdp-url): ws:// or wss://
	// used exactly as given, or http(s)://host:port/...?query resolved to
	// the websocket URL via /json/version with the query carried over (see
	// cdp.go).
	CDPURL string
	// NoSandbox passes --no-sandbox; nil means automatic (true when root).
	NoSandbox *bool
	// BrowserPerWorker gives each worker its own Chromium process.
	BrowserPerWorker bool
	// Getenv reads the environment (nil: os.Getenv).
	Getenv func(string) string
	// Logf receives diagnostics (nil: discarded).
	Logf func(format string, args ...any)
	// FrameControl has the pages' frames drawn by their sessions, so that a
	// trace picture costs the frames' work, not the browser's ticks
	// (frames.go): for a run that may record traces. Only a headless shell
	// adtest starts can; any other browser draws its own.
	FrameControl bool
	// PoolWait bounds the wait for a --cdp-url pool that answers 429
	// (DefaultPoolWait when 0).
	PoolWait time.Duration
	// Isolation is how a session is kept apart from the ones before it on
	// the same worker: IsolationFresh ("" too) gives each a browser
	// context of its own; IsolationWarm (experimental) keeps the worker's
	// context, cleared between sessions (warm.go). Browsers adtest does
	// not start (--cdp-url, a Grid) and pages whose frames the sessions
	// draw are always fresh.
	Isolation string
	// Grid takes every worker's browser from a Selenium Grid 4 (--grid,
	// grid.go): one WebDriver session per worker, driven over its se:cdp.
	Grid *GridOptions
}

// ErrNoBrowser is returned when no browser binary can be found or started.
var ErrNoBrowser = fmt.Errorf("%w: no Chromium or Chrome browser found; install one (apt-get install chromium-headless-shell, or chromium), or pass --browser PATH, or set ADTEST_CHROME", drivers.ErrInfrastructure)

// browserCandidates are the binaries looked up on PATH, in order.
//
// Chromium's headless shell comes first, as in Playwright (its default
// browser for headless runs): the browser without its windows, tabs and
// WebUI, the same Blink and V8. On the TodoMVC suite of three apps it took
// a third of full Chromium's CPU and 0.7x its wall time (docs/performance.md).
// Debian's package (chromium-headless-shell) puts a wrapper on PATH that
// runs the binary as its child rather than replacing itself with it, so
// the binary it runs is started instead (shellBinary): the process adtest
// starts and stops is then the browser itself.
var browserCandidates = []string{
	"chromium-headless-shell",
	"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome",
}

// debianShell is where Debian's wrapper of the headless shell finds it.
var debianShell = "/usr/lib/chromium/chromium-headless-shell"

// shellBinary is the binary a headless shell found on PATH runs: Debian's
// when the one found is a script (its wrapper), else the one found.
func shellBinary(found string) string {
	f, err := os.Open(found)
	if err != nil {
		return found
	}
	head := make([]byte, 2)
	_, err = io.ReadFull(f, head)
	f.Close()
	if err != nil || string(head) != "#!" {
		return found
	}
	if lp, err := exec.LookPath(debianShell); err == nil {
		return lp
	}
	return found
}

// startTimeout bounds how long starting or attaching to a browser may take.
const startTimeout = 30 * time.Second

// Provider is a warm browser shared by the sessions of a run.
type Provider struct {
	opts     Options
	execPath string // empty when attaching over CDP
	grid     *grid  // set with Options.Grid

	mu        sync.Mutex
	closed    bool
	shared    *browserProc
	perWorker map[int]*browserProc
	all       []*browserProc // every browser ever started, for Close
	sessions  map[*Session]struct{}
	warmers   sync.WaitGroup // background openings of spare sessions
	closers   sync.WaitGroup // background closes of sessions (added under mu, not once closed)
	warmCtx   context.Context
	warmStop  context.CancelFunc
	cleanOnce sync.Once  // stale profiles of killed runs, once per provider
	startMu   sync.Mutex // one browser start at a time
	// gridStarts serialise the starts of one worker's browser on a Grid,
	// where the workers start theirs side by side: a session may wait in
	// the Grid's queue for minutes, and the others' must not wait behind it.
	gridStarts map[int]*sync.Mutex
	gridOpens  sync.WaitGroup // Grid sessions being asked for (added under mu, not once closed)
	starts     sync.WaitGroup // browser starts in flight, to their registration (added under mu, not once closed)
	opened     int            // sessions handed out
	quiet      sync.Map       // target.SessionID: pipelining sessions (pipe.go)
	// warmCtxs are the workers' warm browser contexts (warm.go), made one
	// at a time (warmMu).
	warmCtxs map[int]*warmContext
	warmMu   sync.Mutex
}

// browserProc is one browser generation: a Chromium process (or a CDP
// connection) and the chromedp contexts bound to it.
type browserProc struct {
	allocCancel context.CancelFunc
	ctx         context.Context // chromedp browser context; Done when the browser is gone
	cancel      context.CancelFunc
	dataDir     string // temporary profile ("" for remote)
	pid         int    // 0 for remote
	remote      bool
	gen         int
	// frameControl is set while the browser's pages are made with their
	// frames under control (frames.go).
	frameControl atomic.Bool
	// frameTurn is held while one of the browser's controlled frames is
	// drawn: it draws one at a time (frames.go).
	frameTurn chan struct{}

	// spare is a session opened ahead of time (a fresh browser context
	// nobody has used) so that NewSession does not wait for one; warming
	// is set while it is being opened (both guarded by Provider.mu).
	spare   chan *Session
	warming bool

	// gridSession is the Grid's session this browser is (nil off a Grid);
	// ended is set once it was ended (guarded by endOnce).
	gridSession *gridSession
	endOnce     sync.Once
}

// NewProvider checks the options and returns a provider; the browser starts
// lazily on the first NewSession. It fails with ErrNoBrowser when no local
// browser binary can be found (and no CDPURL is given).
func NewProvider(opts Options) (*Provider, error) {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.Logf == nil {
		opts.Logf = func(string, ...any) {}
	}
	p := &Provider{opts: opts, perWorker: map[int]*browserProc{}, sessions: map[*Session]struct{}{}, gridStarts: map[int]*sync.Mutex{}, warmCtxs: map[int]*warmContext{}}
	p.warmCtx, p.warmStop = context.WithCancel(context.Background())
	if opts.Grid != nil {
		if opts.CDPURL != "" || opts.BrowserPath != "" {
			return nil, fmt.Errorf("%w: --grid goes without --cdp-url and --browser (the Grid's nodes run the browsers)", drivers.ErrInfrastructure)
		}
		g, err := newGrid(*opts.Grid)
		if err != nil {
			return nil, err
		}
		p.grid = g
		g.logf = p.opts.Logf
		// One Grid session per worker: the Grid spreads them over its nodes.
		p.opts.BrowserPerWorker = true
		return p, nil
	}
	if opts.CDPURL != "" {
		if !strings.HasPrefix(opts.CDPURL, "ws://") && !strings.HasPrefix(opts.CDPURL, "wss://") &&
			!strings.HasPrefix(opts.CDPURL, "http://") && !strings.HasPrefix(opts.CDPURL, "https://") {
			return nil, fmt.Errorf("%w: --cdp-url %q must start with ws://, wss://, http:// or https://", drivers.ErrInfrastructure, opts.CDPURL)
		}
		return p, nil
	}
	path, err := findBrowser(opts)
	if err != nil {
		return nil, err
	}
	p.execPath = path
	return p, nil
}

// findBrowser resolves the browser binary from the options, the environment
// and PATH.
func findBrowser(opts Options) (string, error) {
	check := func(path, from string) (string, error) {
		if lp, err := exec.LookPath(path); err == nil {
			return lp, nil
		}
		return "", fmt.Errorf("%w (%s %q is not an executable file)", ErrNoBrowser, from, path)
	}
	if opts.BrowserPath != "" {
		return check(opts.BrowserPath, "--browser")
	}
	if env := opts.Getenv("ADTEST_CHROME"); env != "" {
		return check(env, "ADTEST_CHROME")
	}
	for _, name := range browserCandidates {
		if lp, err := exec.LookPath(name); err == nil {
			if name == "chromium-headless-shell" {
				lp = shellBinary(lp)
			}
			return lp, nil
		}
	}
	return "", fmt.Errorf("%w (looked on PATH for %s)", ErrNoBrowser, strings.Join(browserCandidates, ", "))
}

// Platform implements drivers.Provider.
func (p *Provider) Platform() string { return drivers.PlatformWeb }

var _ drivers.Provider = (*Provider)(nil)

// NewSession returns a driver on a fresh, isolated browser context with one
// page. It starts (or restarts) the browser when needed.
func (p *Provider) NewSession(ctx context.Context, o drivers.SessionOptions) (drivers.Driver, error) {
	var b *browserProc
	var s *Session
	// A browser that dies while the session opens (its death not noticed
	// yet when it was picked) is replaced once: the session opens on the
	// new one.
	for try := 0; s == nil; try++ {
		var err error
		b, err = p.browser(ctx, o.Worker)
		if err != nil {
			return nil, err
		}
		var wc *warmContext
		if p.warmMode(b) && !o.Fresh {
			if wc, err = p.warmContextFor(ctx, b, o.Worker); err != nil {
				return nil, fmt.Errorf("%w: web: could not open a browser context: %v", drivers.ErrInfrastructure, err)
			}
		} else if s = p.takeSpare(ctx, b); s != nil {
			break
		}
		s = newSession(p, b)
		s.warm = wc
		if err := s.start(ctx); err != nil {
			if wc != nil {
				// The context was thrown away meanwhile (the clearing
				// after the worker's last test failed): a new one.
				p.dropWarm(wc)
				if try == 0 && ctx.Err() == nil && b.ctx.Err() == nil {
					s.closeTab()
					s = nil
					continue
				}
			}
			s.closeTab()
			s = nil
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			// A dead browser is noticed by chromedp shortly after the
			// failing call.
			t := time.NewTimer(time.Second)
			select {
			case <-b.ctx.Done():
			case <-t.C:
			}
			t.Stop()
			if b.ctx.Err() != nil {
				if try == 0 {
					continue
				}
				return nil, fmt.Errorf("%w: web: the browser went away while opening a session: %v", drivers.ErrInfrastructure, err)
			}
			return nil, fmt.Errorf("%w: web: could not open a browser context: %v", drivers.ErrInfrastructure, err)
		}
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		s.closeTab()
		return nil, fmt.Errorf("%w: web: the provider is closed", drivers.ErrInfrastructure)
	}
	p.sessions[s] = struct{}{}
	p.opened++
	if p.opened > 1 && s.warm == nil {
		// A second session shows more will follow: keep one ready. (A run
		// of one test never pays for a context it does not use.)
		p.warm(b)
	}
	p.mu.Unlock()
	return s, nil
}

// takeSpare returns the session prepared ahead on b, or nil when none is
// ready (it does not wait for one being prepared: concurrent workers then
// open their own in parallel).
func (p *Provider) takeSpare(ctx context.Context, b *browserProc) *Session {
	select {
	case s := <-b.spare:
		if s.tabCtx.Err() == nil && b.ctx.Err() == nil {
			return s
		}
		s.tabCancel()
	default:
	}
	return nil
}

// warm opens the next session of b in the background, one at a time. It is
// called with p.mu held.
func (p *Provider) warm(b *browserProc) {
	if p.closed || b.warming || len(b.spare) > 0 || b.ctx.Err() != nil {
		return
	}
	b.warming = true
	p.warmers.Add(1)
	go func() {
		defer p.warmers.Done()
		ctx, cancel := context.WithTimeout(p.warmCtx, startTimeout)
		defer cancel()
		s := newSession(p, b)
		err := s.start(ctx)
		p.mu.Lock()
		b.warming = false
		closed := p.closed
		p.mu.Unlock()
		if err == nil && !closed {
			select {
			case b.spare <- s:
				return
			default:
			}
		}
		s.tabCancel()
	}()
}

// browser returns the live browser for worker, starting a new one when there
// is none or the previous one died. Starts are serialised by startMu, not
// under mu: the bookkeeping of sessions (closing one of a dead browser)
// never waits for a browser to start.
func (p *Provider) browser(ctx context.Context, worker int) (*browserProc, error) {
	mu := &p.startMu
	if p.grid != nil {
		p.mu.Lock()
		if p.gridStarts[worker] == nil {
			p.gridStarts[worker] = new(sync.Mutex)
		}
		mu = p.gridStarts[worker]
		p.mu.Unlock()
	}
	mu.Lock()
	defer mu.Unlock()
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, fmt.Errorf("%w: web: the provider is closed", drivers.ErrInfrastructure)
	}
	// Close waits for this start: a browser (a Grid session) started as
	// the provider closes is released here, before Close returns and the
	// process exits, not left holding its slot.
	p.starts.Add(1)
	defer p.starts.Done()
	var cur *browserProc
	if p.opts.BrowserPerWorker {
		cur = p.perWorker[worker]
	} else {
		cur = p.shared
	}
	p.mu.Unlock()
	if cur != nil && cur.ctx.Err() == nil {
		return cur, nil
	}
	if cur != nil {
		p.opts.Logf("web: browser generation %d is gone (pid %d); starting a new one", cur.gen, cur.pid)
		p.release(cur)
	}
	b, err := p.start(ctx)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		p.release(b)
		return nil, fmt.Errorf("%w: web: the provider is closed", drivers.ErrInfrastructure)
	}
	b.gen = len(p.all) + 1
	p.all = append(p.all, b)
	if p.opts.BrowserPerWorker {
		p.perWorker[worker] = b
	} else {
		p.shared = b
	}
	p.mu.Unlock()
	return b, nil
}

// probeTimeout bounds the check of a browser after a session of it hung.
const probeTimeout = 5 * time.Second

// probe checks, in the background, that browser b still answers a
// browser-level call; when it does not, b is retired: its sessions fail as
// infrastructure and the next NewSession starts a new browser.
func (p *Provider) probe(b *browserProc) {
	if b.ctx.Err() != nil {
		return
	}
	p.warmers.Add(1)
	go func() {
		defer p.warmers.Done()
		ctx, cancel := context.WithTimeout(b.ctx, probeTimeout)
		defer cancel()
		c := chromedp.FromContext(b.ctx)
		if c == nil || c.Browser == nil {
			return
		}
		_, err := cdp.Call(ctx, c.Browser, browser.GetVersion, cdp.Empty{})
		if err == nil || b.ctx.Err() != nil {
			return
		}
		p.opts.Logf("web: browser generation %d (pid %d) does not answer (%v); replacing it", b.gen, b.pid, err)
		p.retire(b)
	}()
}

// Watching a Grid's browser: a node that dies leaves the websocket through
// the Grid's router open, and a call in flight would wait for its bound.
const (
	watchEvery   = 2 * time.Second
	watchTimeout = 5 * time.Second
)

// watch asks a Grid's browser for its version every watchEvery while it is
// in use; one that does not answer within watchTimeout twice in a row (once
// is a loaded machine) is retired, which
// fails the calls in flight as infrastructure (its test is run again on a
// new session, on another node).
func (p *Provider) watch(b *browserProc) {
	p.warmers.Add(1)
	go func() {
		defer p.warmers.Done()
		tick := time.NewTicker(watchEvery)
		defer tick.Stop()
		for missed := 0; ; {
			select {
			case <-b.ctx.Done():
				return
			case <-p.warmCtx.Done():
				return
			case <-tick.C:
			}
			c := chromedp.FromContext(b.ctx)
			if c == nil || c.Browser == nil {
				return
			}
			ctx, cancel := context.WithTimeout(b.ctx, watchTimeout)
			stop := context.AfterFunc(p.warmCtx, cancel)
			_, err := cdp.Call(ctx, c.Browser, browser.GetVersion, cdp.Empty{})
			stop()
			cancel()
			if err == nil || b.ctx.Err() != nil || p.warmCtx.Err() != nil {
				missed = 0
				continue
			}
			if missed++; missed == 2 {
				p.opts.Logf("web: the browser of Grid session %s does not answer (%v); its node is gone, replacing it", b.gridSession.id, err)
				p.retire(b)
				return
			}
		}
	}()
}

// retire stops using b: it is released, and the next session starts a new
// browser.
func (p *Provider) retire(b *browserProc) {
	p.mu.Lock()
	if p.shared == b {
		p.shared = nil
	}
	for w, pb := range p.perWorker {
		if pb == b {
			delete(p.perWorker, w)
		}
	}
	p.mu.Unlock()
	p.release(b)
}

// start launches Chromium (or attaches over CDP) and connects to it. A
// browser pool that is full (HTTP 429: browserless with every slot taken)
// is asked again, after its Retry-After or an interval growing to 5 s,
// until poolWait (Options.PoolWait) has passed.
func (p *Provider) start(ctx context.Context) (*browserProc, error) {
	if p.grid != nil {
		// A session whose CDP endpoint the router cannot reach (its node
		// died as it was handed out) is ended and another asked for.
		for try := 1; ; try++ {
			b, err := p.startOnce(ctx)
			var aerr *gridAttachError
			if !errors.As(err, &aerr) || try == 3 || ctx.Err() != nil {
				return b, err
			}
			p.opts.Logf("web: %v; asking the Grid for another session", err)
		}
	}
	if p.opts.CDPURL == "" {
		return p.startOnce(ctx)
	}
	bound := cmp.Or(p.opts.PoolWait, DefaultPoolWait)
	deadline := time.Now().Add(bound)
	wait := 500 * time.Millisecond
	for {
		b, err := p.startOnce(ctx)
		var full *poolFullError
		if !errors.As(err, &full) {
			return b, err
		}
		next := wait
		if full.retryAfter > 0 {
			next = full.retryAfter
		}
		if time.Now().Add(next).After(deadline) {
			return nil, fmt.Errorf("%w: web: the browser pool at %s stayed full (429 Too Many Requests) for %s; raise its concurrency or run fewer workers (-j)", drivers.ErrInfrastructure, redactURL(p.opts.CDPURL), bound)
		}
		p.opts.Logf("web: the browser pool at %s is full (429); asking again in %s", redactURL(p.opts.CDPURL), next)
		t := time.NewTimer(next)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
		wait = min(2*wait, 5*time.Second)
	}
}

// DefaultPoolWait bounds the wait for a full browser pool (Options.PoolWait).
const DefaultPoolWait = 2 * time.Minute

// gridAttachError is a Grid's session whose CDP endpoint did not answer.
type gridAttachError struct{ error }

func (e *gridAttachError) Unwrap() error { return e.error }

// poolFullError is a browser pool's 429.
type poolFullError struct {
	retryAfter time.Duration // its Retry-After, 0 when it gave none
}

func (e *poolFullError) Error() string { return "the browser pool is full (429 Too Many Requests)" }

// poolFull matches a websocket handshake the pool refused as full.
var poolFull = regexp.MustCompile(`unexpected status "429`)

// startOnce launches Chromium (or attaches over CDP) and connects to it.
func (p *Provider) startOnce(ctx context.Context) (*browserProc, error) {
	b := &browserProc{spare: make(chan *Session, 1), frameTurn: make(chan struct{}, 1)}
	var allocCtx context.Context
	if p.grid != nil {
		b.remote = true
		// Close cancels a session still being asked for, and waits for it.
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			return nil, fmt.Errorf("%w: web: the provider is closed", drivers.ErrInfrastructure)
		}
		p.gridOpens.Add(1)
		p.mu.Unlock()
		gctx, gcancel := context.WithCancel(ctx)
		stop := context.AfterFunc(p.warmCtx, gcancel)
		gs, err := p.grid.open(gctx)
		stop()
		gcancel()
		p.gridOpens.Done()
		if err != nil {
			return nil, err
		}
		b.gridSession = gs
		p.opts.Logf("web: Grid session %s", gs.id)
		allocCtx, b.allocCancel = remote.NewAllocator(context.Background(), gs.ws, remote.NoModifyURL, remote.WithDialHTTPHeader(gs.header))
	} else if p.opts.CDPURL != "" {
		b.remote = true
		rctx, cancel := context.WithTimeout(ctx, startTimeout)
		wsURL, err := resolveCDP(rctx, p.opts.CDPURL)
		cancel()
		if err != nil {
			return nil, err
		}
		// Used as given: a pool's path and token are part of the address.
		allocCtx, b.allocCancel = remote.NewAllocator(context.Background(), wsURL, remote.NoModifyURL)
	} else {
		p.cleanOnce.Do(func() {
			for _, d := range cleanStale(os.TempDir()) {
				p.opts.Logf("web: removed %s, left by a run that was killed", d)
			}
		})
		dir, err := os.MkdirTemp("", profilePattern)
		if err != nil {
			return nil, fmt.Errorf("%w: web: creating the browser profile directory: %v", drivers.ErrInfrastructure, err)
		}
		b.dataDir = dir
		if err := writeOwner(dir); err != nil {
			removeDir(dir)
			return nil, fmt.Errorf("%w: web: writing the browser profile directory: %v", drivers.ErrInfrastructure, err)
		}
		allocCtx, b.allocCancel = chromedp.NewExecAllocator(context.Background(), p.allocatorOptions(dir)...)
		b.frameControl.Store(p.opts.FrameControl)
	}
	b.ctx, b.cancel = chromedp.NewContext(allocCtx, chromedp.WithErrorf(p.chromedpErrorf))

	// The first call binds the browser's life to b.ctx, so it gets no
	// deadline of its own; a timer cancels a start that hangs.
	done := make(chan struct{})
	stop := context.AfterFunc(ctx, b.cancel)
	timer := time.AfterFunc(startTimeout, b.cancel)
	_, err := chromedp.Targets(b.ctx)
	close(done)
	timer.Stop()
	stop()
	if err != nil {
		p.release(b)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if b.gridSession != nil {
			return nil, &gridAttachError{fmt.Errorf("%w: web: could not attach over CDP to session %s of the Selenium Grid at %s: %s", drivers.ErrInfrastructure, b.gridSession.id, p.grid.shown, p.grid.scrub(err.Error()))}
		}
		if b.remote {
			if poolFull.MatchString(err.Error()) {
				return nil, &poolFullError{}
			}
			if aerr, ok := authError(p.opts.CDPURL, err); ok {
				return nil, aerr
			}
			return nil, fmt.Errorf("%w: web: could not attach to the browser at %s: %s", drivers.ErrInfrastructure, redactURL(p.opts.CDPURL), scrubQuery(err, queryOf(p.opts.CDPURL)))
		}
		var execErr *exec.Error
		var pathErr *os.PathError
		if errors.As(err, &execErr) || errors.As(err, &pathErr) {
			return nil, fmt.Errorf("%w (starting %s: %v)", ErrNoBrowser, p.execPath, err)
		}
		return nil, fmt.Errorf("%w: web: starting %s failed: %v", drivers.ErrInfrastructure, p.execPath, err)
	}
	if c := chromedp.FromContext(b.ctx); c != nil && c.Browser != nil {
		if proc := c.Browser.Process(); proc != nil {
			b.pid = proc.Pid
		}
	}
	if b.dataDir != "" && b.pid != 0 {
		if err := writeBrowserGroup(b.dataDir, b.pid); err != nil {
			p.opts.Logf("web: %v", err)
		}
	}
	p.opts.Logf("web: browser started (pid %d, profile %s, remote %v)", b.pid, b.dataDir, b.remote)
	if b.gridSession != nil {
		p.watch(b)
	}
	return b, nil
}

// disabledFeatures are the Chromium features turned off (--disable-features).
var disabledFeatures = []string{
	"site-per-process", "Translate", "BlinkGenPropertyTrees", // chromedp's defaults
	"WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup",
	// A spare renderer is started ahead for each browser context (profile)
	// and is thrown away unused when the session's context is disposed.
	"SpareRendererForSitePerProcess",
}

// allocatorOptions are the Chromium flags: quiet on a closed network, a fresh
// profile in dir.
func (p *Provider) allocatorOptions(dir string) []chromedp.ExecAllocatorOption {
	opts := append([]chromedp.ExecAllocatorOption{}, chromedp.DefaultExecAllocatorOptions[:]...)
	opts = append(opts,
		chromedp.ExecPath(p.execPath),
		chromedp.UserDataDir(dir),
		chromedp.DisableGPU,
		chromedp.Flag("headless", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-domain-reliability", true),
		chromedp.Flag("no-pings", true),
		chromedp.WindowSize(1280, 800),
		// chromedp's defaults (site-per-process, Translate,
		// BlinkGenPropertyTrees) plus the WebUI omnibox popups: every
		// browser context opens a window, and each window of Chromium 15x
		// preloads its omnibox popup as a WebUI page in a renderer of its
		// own (about 0.6 CPU-s per session, half the CPU of a run).
		chromedp.Flag("disable-features", strings.Join(disabledFeatures, ",")),
		chromedp.ModifyCmdFunc(browserCmd),
	)
	noSandbox := os.Geteuid() == 0
	if p.opts.NoSandbox != nil {
		noSandbox = *p.opts.NoSandbox
	}
	opts = append(opts, chromedp.Flag("no-sandbox", noSandbox))
	if p.opts.Isolation == IsolationWarm {
		// A worker's next page of a site joins the renderer of its last
		// one, with the scripts it compiled (warm.go).
		opts = append(opts, chromedp.Flag("process-per-site", true))
	}
	if p.opts.FrameControl {
		for _, f := range frameFlags {
			opts = append(opts, chromedp.Flag(f, true))
		}
	}
	return opts
}

// ReleaseWorker lets the browser of a worker that has no more tests go: on
// a Grid its session ends and its slot is free for the workers still
// waiting in the Grid's queue. Its sessions still open end with it.
// Off a Grid it does nothing: a local browser costs nobody else a slot.
func (p *Provider) ReleaseWorker(worker int) {
	if p.grid == nil {
		return
	}
	p.mu.Lock()
	b := p.perWorker[worker]
	if b == nil || p.closed {
		p.mu.Unlock()
		return
	}
	delete(p.perWorker, worker)
	p.mu.Unlock()
	p.release(b)
}

// release stops a browser generation and removes its traces. It is safe to
// call more than once.
func (p *Provider) release(b *browserProc) {
	select {
	case s := <-b.spare:
		s.tabCancel()
	default:
	}
	if b.cancel != nil {
		b.cancel()
	}
	if b.allocCancel != nil {
		b.allocCancel() // waits for the process to exit
	}
	if b.dataDir != "" {
		// Chromium is stopped, not shut down (a clean Browser.close costs
		// about half a second more per run): what it leaves, its helper
		// processes, its profile and its singleton directory in $TMPDIR
		// (found through the profile's SingletonSocket link), is removed
		// here.
		removeProfile(b.dataDir, os.TempDir())
	}
	if b.gridSession != nil {
		// The Grid's slot is held until the session ends: ended on every
		// way out (Close, a browser found dead, a start that failed).
		b.endOnce.Do(func() {
			if err := p.grid.end(b.gridSession.id); err != nil {
				p.opts.Logf("web: %v", err)
			}
		})
	}
}

// Close shuts every browser down: sessions end, Chromium processes are
// killed and their temporary profiles removed.
func (p *Provider) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	sessions := make([]*Session, 0, len(p.sessions))
	for s := range p.sessions {
		sessions = append(sessions, s)
	}
	all := p.all
	p.mu.Unlock()

	for _, s := range sessions {
		s.closeTab()
	}
	p.closers.Wait()
	p.mu.Lock()
	warm := slices.Collect(maps.Values(p.warmCtxs))
	p.mu.Unlock()
	for _, wc := range warm {
		p.dropWarm(wc)
	}
	p.warmStop()
	p.warmers.Wait()   // a session being warmed ends in the spare slot or closed
	p.gridOpens.Wait() // cancelled by warmStop; sweep finds what the Grid made of them
	p.starts.Wait()    // a start that finished as Close began releases its browser itself
	var errs []error
	for _, b := range all {
		p.release(b)
		if b.dataDir != "" {
			if _, err := os.Stat(b.dataDir); err == nil {
				errs = append(errs, fmt.Errorf("web: could not remove the browser profile %s", b.dataDir))
			}
		}
	}
	if p.grid != nil {
		p.grid.sweep()
	}
	return errors.Join(errs...)
}

// closing runs end (a session's close) in the background and reports
// true, or reports false once the provider is closing: Close waits for the
// closes begun before it.
func (p *Provider) closing(end func()) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return false
	}
	p.closers.Add(1)
	go func() {
		defer p.closers.Done()
		end()
	}()
	return true
}

func (p *Provider) forget(s *Session) {
	p.mu.Lock()
	delete(p.sessions, s)
	p.mu.Unlock()
}
