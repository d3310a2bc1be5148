package web

import (
	"context"
	"fmt"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// HTML5 drag and drop under a pan. A page whose element starts a native
// drag (draggable, a dragstart it does not cancel) stops seeing mouse
// moves: the browser runs the drag with the system's drag loop, which a
// headless browser driven over CDP does not have. So while the button is
// held, the browser is asked to hand a drag it would start to the session
// (Input.setInterceptDrags); from then on the pan's moves go to the page as
// drag events (dragenter and dragover where the pointer is) and its
// release as the drop, as under a person's hand. A drag the page does with
// pointer or mouse events starts no native drag and is left as it was.

// dragWaitBound bounds the wait for the browser's word of a drag the page
// saw begin (it comes with the move that started it).
const dragWaitBound = 2 * time.Second

// nativeDrag is one pan's watch for a native drag.
type nativeDrag struct {
	s       *Session
	data    *input.DragData // the drag's data once the page started one
	dropped bool
}

// beginDrag asks the browser to hand over a drag the page starts, and the
// page library to note its dragstart.
func (s *Session) beginDrag(ctx context.Context, t *chromedp.Target) (*nativeDrag, error) {
	select {
	case <-s.dragCh: // a word left from an earlier pan
	default:
	}
	if _, err := cdp.Call(ctx, t, input.SetInterceptDrags, input.SetInterceptDragsParams{Enabled: true}); err != nil {
		return nil, err
	}
	// A page the watch cannot reach (a document on its way out) loses only
	// the fallback of release: the browser's word still comes.
	_, _ = s.evalWorld(ctx, t, "lib.dragWatch()")
	return &nativeDrag{s: s}, nil
}

// end gives drags back to the browser, cancelling a drag a failed pan left
// under way. It runs after the pan (also one that failed or was
// cancelled), so it has its own bound.
func (d *nativeDrag) end(ctx context.Context, t *chromedp.Target) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if d.data != nil && !d.dropped {
		_ = dragEvent(ctx, t, input.DispatchDragEventTypeDragCancel, drivers.Point{}, d.data) // best effort: the pan already failed
	}
	_, _ = cdp.Call(ctx, t, input.SetInterceptDrags, input.SetInterceptDragsParams{Enabled: false}) // best effort: the next pan sets it again
}

// move moves the held pointer to p: a mouse move, or once the page started
// a drag, a drag over p.
func (d *nativeDrag) move(ctx context.Context, t *chromedp.Target, p drivers.Point) error {
	if d.data != nil {
		return dragEvent(ctx, t, input.DispatchDragEventTypeDragOver, p, d.data)
	}
	if err := mouse(ctx, t, input.DispatchMouseEventTypeMouseMoved, p, input.MouseButtonLeft, 1, 0); err != nil {
		return err
	}
	select {
	case data := <-d.s.dragCh:
		return d.enter(ctx, t, p, data)
	default:
		return nil
	}
}

// enter begins the drag over p with the browser's data for it.
func (d *nativeDrag) enter(ctx context.Context, t *chromedp.Target, p drivers.Point, data *input.DragData) error {
	d.data = data
	if err := dragEvent(ctx, t, input.DispatchDragEventTypeDragEnter, p, data); err != nil {
		return err
	}
	return dragEvent(ctx, t, input.DispatchDragEventTypeDragOver, p, data)
}

// release lets the button go at p: the drop of a drag the page started (the
// browser then ends it: dragend on its source), else a mouse release. A
// drag the page saw begin whose word the browser had not yet given is
// waited for, bounded.
func (d *nativeDrag) release(ctx context.Context, t *chromedp.Target, p drivers.Point) error {
	if d.data == nil {
		// A document gone meanwhile (the pan navigated) began no drag.
		raw, _ := d.s.evalWorld(ctx, t, "lib.dragStarted()")
		if string(raw) == "true" {
			wctx, cancel := context.WithTimeout(ctx, dragWaitBound)
			defer cancel()
			select {
			case data := <-d.s.dragCh:
				if err := d.enter(ctx, t, p, data); err != nil {
					return err
				}
			case <-wctx.Done():
				if ctx.Err() != nil {
					return ctx.Err()
				}
				return fmt.Errorf("web: pan: the page began a drag but the browser did not hand it over within %s", dragWaitBound)
			}
		}
	}
	if d.data == nil {
		return mouse(ctx, t, input.DispatchMouseEventTypeMouseReleased, p, input.MouseButtonLeft, 0, 1)
	}
	d.dropped = true
	return dragEvent(ctx, t, input.DispatchDragEventTypeDrop, p, d.data)
}

func dragEvent(ctx context.Context, t *chromedp.Target, typ input.DispatchDragEventType, p drivers.Point, data *input.DragData) error {
	_, err := cdp.Call(ctx, t, input.DispatchDragEvent, input.DispatchDragEventParams{Type: typ, X: p.X, Y: p.Y, Data: data})
	return err
}

// onDragEvent records the browser's word of a drag it handed over (called
// from the tab's read loop: never blocks).
func (s *Session) onDragEvent(ev *input.EventDragIntercepted) {
	select {
	case s.dragCh <- ev.Data:
	default:
	}
}
