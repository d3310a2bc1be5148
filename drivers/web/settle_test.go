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
	} {
		for i := 0; i < 3; i++ {
			open(t, s, "settle.html")
			n := find(t, snap(t, s, drivers.SnapshotOptions{}), tc.role, tc.name)
			if err := s.Act(testCtx(t), tap(n)); err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			sn := snap(t, s, drivers.SnapshotOptions{})
			if tc.nav {
				if sn.Title != "Second" {
					t.Errorf("%s #%d: the snapshot after the click shows %q, want the new page", tc.name, i, sn.Title)
				}
				continue
			}
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
		// A navigation the driver did not start (no settle): the page
		// leaves by itself.
		mark := s.navMark()
		if err := s.do(testCtx(t), "test", func(ctx context.Context, tg *chromedp.Target) error {
			_, err := chromedp.Evaluate[chromedp.Void]("setTimeout(() => { location.href = 'nav2.html' }, 0)")(ctx, tg)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		// Poll (bounded) until the page's events say it started.
		ctx := testCtx(t)
		for s.navMark() == mark {
			select {
			case <-ctx.Done():
				t.Fatal("no navigation started")
			case <-time.After(2 * time.Millisecond):
			}
		}
		if sn := snap(t, s, drivers.SnapshotOptions{}); sn.Title != "Second" {
			t.Errorf("#%d: snapshot of %q during a navigation, want the new page", i, sn.Title)
		}
	}
}
