package web

import (
	"context"
	"encoding/json"
	"errors"
	"log"
	"strconv"

	"github.com/chromedp/cdproto"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// Pipelined input: the presses of a click go to the page one after the
// other without waiting for each one's reply, as a user's hand sends them.
//
// Input.dispatchMouseEvent answers when the renderer has handled the event,
// and the renderer handles a mouse move at its next animation frame (moves
// are aligned to frames); a press that follows it flushes the move first.
// Sent in order and awaited one by one, a click's move costs a frame before
// its press can even be sent; sent in order and awaited together, the page
// sees the same events in the same order (move, down, up, click) and the
// click costs no frame. Awaiting the last reply still means every handler of
// the click has run.
//
// chromedp sends a command and waits for its reply; two commands sent from
// two goroutines may reach the browser in either order. So the pipelined
// commands go through a second DevTools session on the same page, attached
// through the browser's Target domain without flattening: each command is
// wrapped in Target.sendMessageToTarget, which the browser acknowledges as
// soon as it routed the command to the page, and the page's replies come
// back as Target.receivedMessageFromTarget events. The acknowledgement
// orders the commands; the replies are awaited at the end. A browser that
// refuses such a session (a remote pool, a future Chromium) gets the
// commands one by one, as before.

// pipedCall is one command of a pipelined run.
type pipedCall struct {
	method string
	params any
}

// pipeState is a session's pipelining session on its page.
type pipeState struct {
	target  target.ID        // the page target sid is attached to
	sid     target.SessionID // "" when not attached yet
	refused bool             // the browser refused: commands go one by one
	next    int64            // the last command id sent
}

type sendMessageParams struct {
	Message   string           `json:"message"`
	SessionID target.SessionID `json:"sessionId"`
}

var sendMessageToTarget = cdp.Command[sendMessageParams, cdp.Empty]{Method: "Target.sendMessageToTarget"}

// errPipeClosed reports a browser connection that ended while replies were
// awaited.
var errPipeClosed = errors.New("the browser connection closed before the input was answered")

// pipeline sends calls to the page in order, each without waiting for the
// reply of the one before, then waits for every reply; the first error
// reply is returned. It reports false, having sent nothing, when the
// browser offers no pipelining session: the caller then sends the calls one
// by one.
func (s *Session) pipeline(ctx context.Context, t *chromedp.Target, calls []pipedCall) (bool, error) {
	c := chromedp.FromContext(s.tabCtx)
	if c == nil || c.Browser == nil {
		return false, nil
	}
	b := c.Browser
	sid, ok := s.pipeSession(ctx, b, t.TargetID)
	if !ok {
		return false, nil
	}
	replies, stop := b.Subscribe(target.ReceivedMessageFromTarget.Method)
	defer stop()
	pending := make(map[int64]bool, len(calls))
	for i, call := range calls {
		params, err := jsonv2.Marshal(call.params, chromedp.DefaultMarshalOptions)
		if err != nil {
			return true, err
		}
		s.mu.Lock()
		s.pipe.next++
		id := s.pipe.next
		s.mu.Unlock()
		msg := `{"id":` + strconv.FormatInt(id, 10) + `,"method":` + strconv.Quote(call.method) + `,"params":` + string(params) + `}`
		if _, err := cdp.Call(ctx, b, sendMessageToTarget, sendMessageParams{Message: msg, SessionID: sid}); err != nil {
			if i == 0 && ctx.Err() == nil && !errors.Is(err, context.Canceled) {
				var perr *cdproto.Error
				if errors.As(err, &perr) {
					// The browser answered no: it keeps no such session.
					s.refusePipe()
					return false, nil
				}
			}
			return true, err
		}
		pending[id] = true
	}
	var first error
	for len(pending) > 0 {
		select {
		case v, ok := <-replies:
			if !ok {
				return true, errPipeClosed
			}
			var ev target.EventReceivedMessageFromTarget
			if err := json.Unmarshal(v, &ev); err != nil || ev.SessionID != sid {
				continue
			}
			var reply struct {
				ID    int64          `json:"id"`
				Error *cdproto.Error `json:"error"`
			}
			if err := json.Unmarshal([]byte(ev.Message), &reply); err != nil || !pending[reply.ID] {
				continue
			}
			delete(pending, reply.ID)
			if reply.Error != nil && first == nil {
				first = reply.Error
			}
		case <-ctx.Done():
			return true, ctx.Err()
		case <-s.tabCtx.Done():
			return true, s.tabCtx.Err()
		}
	}
	return true, first
}

// pipeSession returns the session's pipelining session on the page target
// tid, attaching one when there is none for that target yet.
func (s *Session) pipeSession(ctx context.Context, b *chromedp.Browser, tid target.ID) (target.SessionID, bool) {
	s.mu.Lock()
	p := s.pipe
	s.mu.Unlock()
	if p.refused {
		return "", false
	}
	if p.sid != "" && p.target == tid {
		return p.sid, true
	}
	r, err := cdp.Call(ctx, b, target.AttachToTarget, target.AttachToTargetParams{TargetID: tid, Flatten: ptr(false)})
	if err != nil {
		var perr *cdproto.Error
		if errors.As(err, &perr) {
			s.refusePipe()
		}
		return "", false
	}
	// The session ends with its page; chromedp then notes a detach of a
	// session it does not know, which the provider keeps quiet.
	s.p.quietDetach(r.SessionID)
	s.mu.Lock()
	s.pipe.target, s.pipe.sid = tid, r.SessionID
	s.mu.Unlock()
	return r.SessionID, true
}

func (s *Session) refusePipe() {
	s.mu.Lock()
	s.pipe.refused = true
	s.mu.Unlock()
}

// pipedOrEach runs calls pipelined, or one by one when the browser offers
// no pipelining session.
func (s *Session) pipedOrEach(ctx context.Context, t *chromedp.Target, calls []pipedCall) error {
	if ok, err := s.pipeline(ctx, t, calls); ok {
		return err
	}
	for _, c := range calls {
		if err := t.Call(ctx, c.method, c.params, nil); err != nil {
			return err
		}
	}
	return nil
}

// detachNote is chromedp's note on the detach of a session it does not
// route: the pipelining sessions' (see pipe.go).
const detachNote = "executor for %q doesn't exist"

// quietDetach keeps chromedp's note on the detach of sid out of the log.
func (p *Provider) quietDetach(sid target.SessionID) {
	p.quiet.Store(sid, struct{}{})
}

// chromedpErrorf is the browser connection's error log: chromedp's own
// format, less the note on a pipelining session's detach.
func (p *Provider) chromedpErrorf(format string, args ...any) {
	if format == detachNote && len(args) == 1 {
		if sid, ok := args[0].(target.SessionID); ok {
			if _, ok := p.quiet.LoadAndDelete(sid); ok {
				return
			}
		}
	}
	log.Printf("ERROR: "+format, args...)
}
