package web

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/headlessexperimental"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// Frames drawn when the session says so (Options.FrameControl).
//
// Left to itself, headless Chromium draws at most 60 frames a second, on
// its own clock, and everything that waits for a frame waits for that
// clock's next tick: a capture (Page.captureScreenshot) asks for a new
// frame, waits until it reached the screen and copies the screen at a
// later draw, about three ticks (45-50 ms), which the next step that
// changes the screen must wait out, or its effect could be in the picture.
// The headless shell can leave a page's frames to its client instead
// (begin-frame control): a page made that way draws a frame only on
// HeadlessExperimental.beginFrame, which returns once the frame is drawn.
// The session is then the page's clock. A pump draws a frame every 60th of
// a second while the frames change the screen (requestAnimationFrame,
// animations and timers run as before) and every 10th once three in a row
// changed nothing; a frame the session waits for (the settle's, a stable
// box's) is drawn as soon as the page asked for it; and while a capture or
// an input waits for frames they are drawn in a burst, one every
// burstPeriod, so a trace picture costs the frames' work, not the ticks (a
// median 27 ms on the example suite at -j 2, against 45-50 ms).
//
// The browser draws one controlled frame at a time: a frame asked for while
// another page's is being drawn makes its GPU process exit ("overlapping
// IssueExternalBeginFrame"), so the frames of all the browser's pages take
// turns (browserProc.frameTurn).
//
// Only a headless shell adtest starts itself gets the flags; a browser that
// cannot draw a controlled page's first frame has its pages made the usual
// way from then on.

const (
	// disposeBound bounds the disposal of a browser context.
	disposeBound = 5 * time.Second
	// framePeriod is the pump's period while the page changes: the 60 Hz
	// of Chromium's own.
	framePeriod = time.Second / 60
	// idleFrames frames in a row that change nothing on the screen make the
	// page idle: it then gets a frame every idlePeriod (its timers, a
	// requestAnimationFrame that changes nothing) until one changes the
	// screen or the session waits for a frame.
	idleFrames = 3
	idlePeriod = time.Second / 10
	// burstPeriod is the pace of a burst. Drawn back to back, a frame
	// followed the one before as soon as it was drawn (often within a
	// millisecond on a still page): the example suite took the same time
	// with a frame every 4 ms and a fifth less CPU (docs/performance.md, "Traces").
	burstPeriod = 4 * time.Millisecond
	// dozeAfter without a call from the session makes an idle page doze:
	// it gets a frame every dozePeriod until the session calls it again or
	// a frame changes the screen. An interactive session's page waits for
	// its next command for as long as the person or agent thinks: at 10 Hz
	// its frames cost about 1% of a core, at 1 Hz a tenth of that.
	dozeAfter  = 3 * time.Second
	dozePeriod = time.Second
	// frameCallBound bounds one controlled frame (drawn in a few
	// milliseconds, also while the page's main thread is busy): a browser
	// that does not answer within it holds no turn longer.
	frameCallBound = 5 * time.Second
)

// frameFlags are the browser's flags for controlled frames: the client
// may control a page's frames, and a frame is drawn only once every stage
// before drawing (raster included) is done, so the pixels returned are the
// page's as it was when the frame began.
var frameFlags = []string{"enable-begin-frame-control", "run-all-compositor-stages-before-draw"}

// framePump issues the frames of one controlled page.
type framePump struct {
	// turn is the browser's: held while one of its frames is drawn.
	turn chan struct{}
	// tabCtx is the page's.
	tabCtx context.Context
	// wake asks for a frame now (the session waits for one).
	wake chan struct{}
	// bursts counts the captures and inputs in progress: while one is,
	// frames are drawn in a burst (a capture waits for two of them, an
	// input for one).
	bursts atomic.Int32
	cancel context.CancelFunc
	done   chan struct{}
	// frames counts the frames drawn (tests).
	frames atomic.Int64
	// born is when the pump started; active is the time since born of the
	// session's latest call to its page (touch); dozeAfter and dozePeriod
	// are the constants' (tests change them); dozing is whether it dozes.
	born                  time.Time
	active                atomic.Int64
	dozeAfter, dozePeriod atomic.Int64
	dozing                atomic.Bool
}

// doze reports whether the idle pump dozes: the session has not called
// its page for dozeAfter. Dozing is set before the time of the last call
// is read and touch sets that time before it reads dozing, so a call made
// meanwhile either is seen here or wakes the pump.
func (p *framePump) doze() bool {
	p.dozing.Store(true)
	if time.Since(p.born)-time.Duration(p.active.Load()) >= time.Duration(p.dozeAfter.Load()) {
		return true
	}
	p.dozing.Store(false)
	return false
}

// touch records a call of the session to its page; a dozing pump draws a
// frame at once and goes back to the idle pace.
func (p *framePump) touch() {
	p.active.Store(int64(time.Since(p.born)))
	if p.dozing.Load() {
		p.kick()
	}
}

// newControlledTarget creates a browser context and a page in it whose
// frames the client draws.
func newControlledTarget(ctx context.Context, b *browserProc) (target.ID, cdp.BrowserContextID, error) {
	c := chromedp.FromContext(b.ctx)
	if c == nil || c.Browser == nil {
		return "", "", errors.New("web: no browser connection")
	}
	bc, err := cdp.Call(ctx, c.Browser, target.CreateBrowserContext, target.CreateBrowserContextParams{DisposeOnDetach: ptr(true)})
	if err != nil {
		return "", "", err
	}
	t, err := cdp.Call(ctx, c.Browser, target.CreateTarget, target.CreateTargetParams{URL: "about:blank",
		BrowserContextID: bc.BrowserContextID, NewWindow: ptr(true), EnableBeginFrameControl: ptr(true)})
	if err != nil {
		disposeContext(b, bc.BrowserContextID)
		return "", "", err
	}
	return t.TargetID, bc.BrowserContextID, nil
}

// disposeContext disposes of a browser context adtest created (its pages
// close with it), within a bound.
func disposeContext(b *browserProc, id cdp.BrowserContextID) {
	c := chromedp.FromContext(b.ctx)
	if c == nil || c.Browser == nil || b.ctx.Err() != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(b.ctx), disposeBound)
	defer cancel()
	_, _ = cdp.Call(ctx, c.Browser, target.DisposeBrowserContext, target.DisposeBrowserContextParams{BrowserContextID: id})
}

// startPump draws the first frame of the page in tabCtx (within bound: a
// browser that cannot control frames fails it) and then pumps frames until
// the page's context ends or stop is called.
func startPump(ctx, tabCtx context.Context, turn chan struct{}) (*framePump, error) {
	if _, err := drawFrame(ctx, tabCtx, turn); err != nil {
		return nil, err
	}
	pctx, cancel := context.WithCancel(tabCtx)
	p := &framePump{turn: turn, tabCtx: tabCtx, wake: make(chan struct{}, 1), cancel: cancel, done: make(chan struct{}), born: time.Now()}
	p.frames.Store(1)
	p.dozeAfter.Store(int64(dozeAfter))
	p.dozePeriod.Store(int64(dozePeriod))
	go p.run(pctx)
	return p, nil
}

// stop ends the pump and waits for its last frame.
func (p *framePump) stop() {
	p.cancel()
	<-p.done
}

func (p *framePump) run(ctx context.Context) {
	defer close(p.done)
	timer := time.NewTimer(framePeriod)
	defer timer.Stop()
	still := 0 // frames in a row that changed nothing
	for {
		woken := false
		select {
		case <-ctx.Done():
			return
		case <-p.wake:
			woken = true
		case <-timer.C:
		}
		start := time.Now()
		damage, _ := drawFrame(ctx, p.tabCtx, p.turn)
		p.frames.Add(1)
		if damage || woken {
			still = 0
		} else {
			still++
		}
		period, dozes := framePeriod, false
		switch {
		case p.bursts.Load() > 0:
			period = burstPeriod
		case still >= idleFrames:
			period = idlePeriod
			if dozes = p.doze(); dozes {
				period = time.Duration(p.dozePeriod.Load())
			}
		}
		if !dozes {
			p.dozing.Store(false)
		}
		// A frame that took longer than the period is followed at once.
		timer.Reset(max(period-time.Since(start), 0))
	}
}

// burst has frames drawn every burstPeriod until the returned function is
// called: a capture (Page.captureScreenshot) or an input is waiting for
// them.
func (p *framePump) burst() func() {
	p.bursts.Add(1)
	p.kick()
	return func() { p.bursts.Add(-1) }
}

// kick asks for a frame now, without waiting for it: the session is about
// to wait for the page's next frame.
func (p *framePump) kick() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// drawFrame draws one frame of the page in tabCtx, in the browser's turn.
// The turn is held until the browser answered (or frameCallBound passed):
// neither ctx nor the end of the page cancels the wait for the answer, as
// a frame still being drawn when another page's begins makes the browser's
// GPU process exit. ctx only bounds the wait for the turn.
func drawFrame(ctx, tabCtx context.Context, turn chan struct{}) (damage bool, err error) {
	select {
	case turn <- struct{}{}:
		defer func() { <-turn }()
	case <-ctx.Done():
		return false, fmt.Errorf("web: drawing a frame: %w", ctx.Err())
	case <-tabCtx.Done():
		return false, fmt.Errorf("web: drawing a frame: %w", tabCtx.Err())
	}
	if tabCtx.Err() != nil {
		return false, fmt.Errorf("web: drawing a frame: %w", tabCtx.Err())
	}
	fctx, cancel := context.WithTimeout(context.WithoutCancel(tabCtx), frameCallBound)
	defer cancel()
	p := headlessexperimental.BeginFrameParams{Interval: float64(framePeriod) / float64(time.Millisecond)}
	err = chromedp.Do(fctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		r, err := cdp.Call(ctx, t, headlessexperimental.BeginFrame, p)
		damage = r.HasDamage
		return err
	}))
	if err != nil {
		return false, fmt.Errorf("web: drawing a frame: %w", err)
	}
	return damage, nil
}

// burstFrames has the page's frames drawn in a burst until the returned
// function is called, if the session draws them: a capture waits for two
// frames (a new one, then the draw it is copied from), and Chromium
// delivers a pointer's move with the next frame and answers it once
// delivered (a gesture moves at the frames' pace).
func (s *Session) burstFrames() func() {
	s.mu.Lock()
	pump := s.frames
	s.mu.Unlock()
	if pump == nil {
		return func() {}
	}
	return pump.burst()
}

// FramesDrawn is how many frames the session drew since its page was made:
// 0 when the browser draws them (Options.FrameControl off, or a browser
// that cannot leave them to the session).
func (s *Session) FramesDrawn() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.frames == nil {
		return 0
	}
	return s.frames.frames.Load()
}
