package web

import (
	"context"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/chromedp/chromedp"
)

// TestActSettles: when a click returns, what it started is observable: a
// navigation (link, form submit, location change) reached its new document,
// a same-document change (history push) and an rAF-deferred update are on
// the page. The snapshot right after Act must show it, every time.
func TestActSettles(t *testing.T) {
	s := session(t, "settle.html")
	for _, tc := range []struct {
		role, name string
		nav        bool
		want       string // text of #out when the page stays
	}{
		{"link", "Link away", true, ""},
		{"button", "Submit away", true, ""},
		{"button", "Script away", true, ""},
		{"button", "Paint later", false, "Painted"},
		{"button", "Push", false, "Pushed"},
		{"button", "Leave soon", true, ""},
	} {
		for i := 0; i < 3; i++ {
			open(t, s, "settle.html")
			n := find(t, snap(t, s, drivers.SnapshotOptions{}), tc.role, tc.name)
			if err := s.Act(testCtx(t), tap(n)); err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if tc.nav {
				// Straight after Act, before any snapshot could wait:
				// the new document is there (the server answers it
				// 400 ms late).
				if title := evalString(t, s, "document.title + ' ' + document.readyState"); title != "Slow interactive" && title != "Slow complete" {
					t.Errorf("%s #%d: right after the click the page is %q, want the new one loaded", tc.name, i, title)
				}
				continue
			}
			sn := snap(t, s, drivers.SnapshotOptions{})
			got := ""
			for _, nd := range sn.Nodes {
				if nd.ID == "out" {
					got = nd.Text
				}
			}
			if got != tc.want || sn.Title != "Settle" {
				t.Errorf("%s #%d: %q on %q right after the click, want %q", tc.name, i, got, sn.Title, tc.want)
			}
		}
	}
}

// TestSnapshotWaitsForInFlightNavigation: a snapshot taken while a
// navigation is in flight captures the new document, not the old one.
func TestSnapshotWaitsForInFlightNavigation(t *testing.T) {
	s := session(t, "settle.html")
	for i := 0; i < 5; i++ {
		open(t, s, "settle.html")
		// A navigation the driver did not start (evaluated, not acted):
		// the page leaves by itself for a page that answers late.
		mark := s.navMark()
		evalString(t, s, "setTimeout(() => { location.href = 'slow' }, 0), ''")
		// Poll (bounded) until the page's events say it started.
		ctx := testCtx(t)
		for s.navMark() == mark {
			select {
			case <-ctx.Done():
				t.Fatal("no navigation started")
			case <-time.After(2 * time.Millisecond):
			}
		}
		if sn := snap(t, s, drivers.SnapshotOptions{}); sn.Title != "Slow" {
			t.Errorf("#%d: snapshot of %q during a navigation, want the new page", i, sn.Title)
		}
	}
}

// evalString evaluates expr in the page, bypassing the driver's waits.
func evalString(t *testing.T, s *Session, expr string) string {
	t.Helper()
	var out string
	err := s.do(testCtx(t), "test", func(ctx context.Context, tg *chromedp.Target) error {
		var err error
		out, err = chromedp.Evaluate[string](expr)(ctx, tg)
		return err
	})
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return out
}

// TestVisibleClippedByScrollContainer: an element inside the viewport but
// below the edge of its scroll container is not in view (scroll --until
// must not stop on it); a scroll of the container brings it in.
func TestVisibleClippedByScrollContainer(t *testing.T) {
	s := session(t, "clip.html")
	sn := snap(t, s, drivers.SnapshotOptions{})
	if n := find(t, sn, "button", "Item 1"); !n.Visible || !n.Hittable {
		t.Errorf("Item 1: visible %v hittable %v, want both", n.Visible, n.Hittable)
	}
	if n := find(t, sn, "button", "Item 10"); n.Visible || n.Hittable || n.Rect.Y+n.Rect.Height > 720 {
		t.Errorf("Item 10 (at y=%g, below the container's edge): visible %v hittable %v, want neither", n.Rect.Y, n.Visible, n.Hittable)
	}
	// Nothing under the centre scrolls: the container is the largest one.
	if err := s.Act(testCtx(t), drivers.Action{Kind: drivers.ActScroll, Direction: "down", Amount: 1}); err != nil {
		t.Fatal(err)
	}
	if r := s.LastScroll(); r.Container != "div#box" || r.Distance != 200 || r.AtEnd {
		t.Errorf("scroll report %+v, want 200 px in div#box, not at its end", r)
	}
	if n := find(t, snap(t, s, drivers.SnapshotOptions{}), "button", "Item 10"); !n.Visible {
		t.Errorf("Item 10 after scrolling the container: not visible")
	}
}
