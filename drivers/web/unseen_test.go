package web

import (
	"strings"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers"
)

// TestSnapshotSaysWhatItCannotSee: a closed shadow root, another origin's
// frame and a sandboxed one are nodes whose Unseen says so (issue 34, bad input); an
// open shadow root and a custom element without one are read as usual,
// and a custom element with nothing to say gets no node.
func TestSnapshotSaysWhatItCannotSee(t *testing.T) {
	t.Parallel()
	s := session(t, "unseen.html")
	var sn *drivers.Snapshot
	// The frame of the other origin loads after the page's load event.
	ctx := testCtx(t)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		sn = snap(t, s, drivers.SnapshotOptions{})
		if n := nodeByID(sn, "other"); n != nil && n.Unseen != "" {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no cross-origin frame node:\n%s", dump(sn))
		case <-tick.C:
		}
	}
	vault := nodeByID(sn, "vault")
	if vault == nil || vault.Unseen != "closed shadow root" {
		t.Errorf("x-closed: %+v, want a node with Unseen \"closed shadow root\":\n%s", vault, dump(sn))
	}
	other := nodeByID(sn, "other")
	if other.Role != "iframe" || other.Label != "Payment" || !strings.HasPrefix(other.Unseen, "cross-origin frame (http://localhost:") {
		t.Errorf("frame: %+v, want iframe \"Payment\" unseen as a cross-origin frame of localhost", other)
	}
	if boxed := nodeByID(sn, "boxed"); boxed == nil || boxed.Unseen != "sandboxed frame" {
		t.Errorf("sandboxed frame: %+v, want Unseen \"sandboxed frame\"", boxed)
	}
	find(t, sn, "button", "Open button")
	find(t, sn, "button", "Light button")
	unseen := 0
	for _, n := range sn.Nodes {
		if n.Unseen != "" {
			unseen++
		}
		if n.Role == "generic" && n.ID == "" && n.Unseen == "" {
			t.Errorf("a generic node with nothing to say: %+v\n%s", n, dump(sn))
		}
	}
	if unseen != 3 {
		t.Errorf("%d unseen nodes, want 3:\n%s", unseen, dump(sn))
	}
}
