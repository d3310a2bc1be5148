package web

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/chromedp/cdproto"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/adtest/adtest/internal/pause"
)

// The driver's page code runs in an isolated world of its own in every
// document (Page.createIsolatedWorld), as a browser extension's content
// script does: it shares the page's DOM but none of its JavaScript globals.
// A page that replaces window.Event, wraps document.elementFromPoint (a
// Shadow DOM polyfill) or patches Array.prototype cannot change what the
// driver's code calls, and the driver's own globals (the library) are never
// visible to the page.
//
// The world is created by name: Chromium keeps one world per name and
// document, so creating it again in the same document returns the same
// context, with the library and its element handles still there. A new
// document (navigation) has no world until the next call creates one.

//go:embed page.js
var pageJS string

// worldName names the driver's isolated world.
const worldName = "adtest"

// installLib installs the page library in the world's global object once
// (the source is sent only with the first call in a new document).
var installLib = "globalThis.__adtestLib||(globalThis.__adtestLib=" + strings.TrimSpace(stripLineComments(pageJS)) + ")"

func stripLineComments(src string) string {
	var b strings.Builder
	for _, line := range strings.Split(src, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "//") {
			continue
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// noLib is what a call evaluates to in a context without the library: a
// context that is not the driver's world (a context id reused by another
// process after a cross-process navigation).
const noLib = "\x00adtest:nolib"

var noLibJSON, _ = json.Marshal(noLib)

// eval evaluates the JavaScript expression expr in the driver's isolated
// world of the current document and decodes its value (JSON, by value; a
// promise is awaited) into out (nil: the value is dropped). In expr the page
// library is `lib`, e.g. `lib.target("tok:3", true)`. A call that meets a
// document being replaced (a navigation in progress) is retried a few times.
//
// This is the one way the driver runs code in a page; reading the page's
// own globals (main world) is left to tests.
func (s *Session) eval(ctx context.Context, op, expr string, out any) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		err = s.evalOnce(ctx, op, expr, out)
		if err == nil || !retryableEval(err) || ctx.Err() != nil {
			return err
		}
		if werr := pause.For(ctx, 50*time.Millisecond); werr != nil {
			return err
		}
	}
	return err
}

// evalOnce is eval without the retries.
func (s *Session) evalOnce(ctx context.Context, op, expr string, out any) error {
	return s.do(ctx, op, func(ctx context.Context, t *chromedp.Target) error {
		raw, err := s.evalWorld(ctx, t, expr)
		if err != nil || out == nil {
			return err
		}
		return json.Unmarshal(raw, out)
	})
}

// lib calls a page-library function, e.g. call `target("tok:3",true)`, and
// decodes its result into out.
func (s *Session) lib(ctx context.Context, op, call string, out any) error {
	return s.eval(ctx, op, "lib."+call, out)
}

// evalWorld evaluates expr in the world and returns its JSON value, creating
// the world (and installing the library) in a document that has none.
func (s *Session) evalWorld(ctx context.Context, t *chromedp.Target, expr string) ([]byte, error) {
	call := "(lib=>lib?(" + expr + "):" + string(noLibJSON) + ")(globalThis.__adtestLib)"
	for try := 0; ; try++ {
		id := s.worldID()
		fresh := id == 0
		if fresh {
			var err error
			if id, err = s.createWorld(ctx, t); err != nil {
				return nil, err
			}
		}
		src := call
		if fresh {
			src = "(" + installLib + "," + call + ")"
		}
		r, err := cdp.Call(ctx, t, runtime.Evaluate, runtime.EvaluateParams{
			Expression: src, ContextID: id, ReturnByValue: ptr(true), AwaitPromise: ptr(true),
		})
		stale := false
		switch {
		case err != nil:
			// The document of a known world went away: create the world
			// of the new one (once).
			stale = !fresh && contextGone(err)
			if !stale || try > 0 {
				return nil, err
			}
		case r.ExceptionDetails != nil:
			return nil, &chromedp.ExceptionError{ExceptionDetails: r.ExceptionDetails}
		case r.Result != nil && bytes.Equal(r.Result.Value, noLibJSON):
			if fresh || try > 0 {
				return nil, fmt.Errorf("web: the driver's page library is missing in its own world")
			}
			stale = true
		}
		if stale {
			s.forgetWorld(id)
			continue
		}
		if r.Result == nil || len(r.Result.Value) == 0 {
			return []byte("null"), nil
		}
		return r.Result.Value, nil
	}
}

// createWorld creates (or finds) the world in the current document of the
// main frame and remembers its context.
func (s *Session) createWorld(ctx context.Context, t *chromedp.Target) (runtime.ExecutionContextID, error) {
	s.mu.Lock()
	frame := s.nav.mainFrame
	s.mu.Unlock()
	if frame == "" {
		frame = cdp.FrameID(t.TargetID)
	}
	r, err := cdp.Call(ctx, t, page.CreateIsolatedWorld, page.CreateIsolatedWorldParams{FrameID: frame, WorldName: worldName})
	if err != nil {
		return 0, err
	}
	s.mu.Lock()
	s.world = r.ExecutionContextID
	s.mu.Unlock()
	return r.ExecutionContextID, nil
}

func (s *Session) worldID() runtime.ExecutionContextID {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.world
}

// forgetWorld drops the remembered world if it is still id.
func (s *Session) forgetWorld(id runtime.ExecutionContextID) {
	s.mu.Lock()
	if s.world == id {
		s.world = 0
	}
	s.mu.Unlock()
}

// contextGone reports whether err says the evaluation's context no longer
// exists (its document was replaced).
func contextGone(err error) bool {
	var perr *cdproto.Error
	return errors.As(err, &perr) && strings.Contains(perr.Message, "Cannot find context")
}

func ptr[T any](v T) *T { return &v }
