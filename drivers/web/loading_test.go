package web

import (
	"testing"

	"github.com/adtest/adtest/drivers"
)

// TestOpenLeavesALongPollToItsBound: a page that keeps a request open after
// its load event (a long poll) is opened all the same once no request moved
// for loadsStall, and reads as loaded; the wait never hangs the step.
func TestOpenLeavesALongPollToItsBound(t *testing.T) {
	t.Parallel()
	s := session(t, "")
	ctx := testCtx(t)
	if err := s.Open(ctx, drivers.OpenRequest{Target: srv.URL + "/longpoll.html"}); err != nil {
		t.Fatalf("open: %v", err)
	}
	if n, _, _ := s.scriptState(); n != 1 {
		t.Errorf("requests in flight after open: %d, want the long poll (1)", n)
	}
	find(t, snap(t, s, drivers.SnapshotOptions{}), "heading", "Long poll")
}
