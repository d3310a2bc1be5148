package runner

import (
	"context"
	"testing"
)

// The session hands out evidence and captures itself (the suite and the
// recorder never reach its driver): the failure evidence holds the latest
// capture, a fresh one when there is none, the screenshot and the log; a
// capture for the recorder is fresh and leaves the frame and the latest
// observation as they were.
func TestSessionEvidenceAndCapture(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t, loginScreens)
	e.must(t, "open demo")
	ev := e.sess.Evidence(ctx, nil)
	if ev.ScreenshotErr != nil || len(ev.Screenshot) == 0 || ev.Snapshot == nil || ev.Snapshot.Title != "Sign in" || !ev.HasLog {
		t.Fatalf("fresh evidence %+v", ev)
	}
	if e.sess.LastSnapshot() != nil {
		t.Fatal("evidence replaced the latest observation")
	}
	e.must(t, "snapshot -i")
	last, gen := e.sess.LastSnapshot(), e.sess.RefsGeneration()
	if ev := e.sess.Evidence(ctx, nil); ev.Snapshot != last {
		t.Fatalf("evidence %p, want the latest capture %p", ev.Snapshot, last)
	}
	snap, err := e.sess.Capture(ctx)
	if err != nil || snap == nil || snap == last || snap.Title != "Sign in" {
		t.Fatalf("capture %+v %v", snap, err)
	}
	if e.sess.LastSnapshot() != last || e.sess.RefsGeneration() != gen {
		t.Fatal("a capture for the recorder touched the session's observation or frame")
	}
}
