package runner

import (
	"strings"
	"testing"
)

// TestDoneWhen is issue 3's acceptance: snapshot -i -> click @e1 (navigates)
// -> click @e2 fails at step 3 with ref_frame_expired, and the device
// received exactly one tap.
func TestDoneWhen(t *testing.T) {
	e := newEnv(t, loginScreens)
	res := e.replay(t, "open demo\nsnapshot -i\nclick @e2\nclick @e1\n")
	if res.Status != StatusFailed || res.Error == nil {
		t.Fatalf("status %s, error %v; want failed", res.Status, res.Error)
	}
	if res.Error.Step != 4 || res.Error.Reason != "ref_frame_expired" || res.Error.Code != CodeReplayDivergence {
		t.Fatalf("got step %d reason %q code %q", res.Error.Step, res.Error.Reason, res.Error.Code)
	}
	if got := e.dev.Count("tap"); got != 1 {
		t.Fatalf("taps = %d, want exactly 1", got)
	}
	want := "Replay failed at step 4 (click @e1): Ref @e1 belongs to an expired ref frame — a device action since the snapshot invalidated it"
	if res.Error.Message != want {
		t.Fatalf("message\n got %q\nwant %q", res.Error.Message, want)
	}
}

// TestDoneWhenExact is the literal script: snapshot -i, click @e1
// (navigates), click @e2 fails at step 3.
func TestDoneWhenExact(t *testing.T) {
	e := newEnv(t, `
open * -> start
screen start
  link "Next" -> goto second
  button "Stay"
screen second
  button "Other"
`)
	e.must(t, "open app")
	res := e.replay(t, "snapshot -i\nclick @e1\nclick @e2\n")
	if res.Error == nil || res.Error.Step != 3 || res.Error.Reason != "ref_frame_expired" {
		t.Fatalf("got %+v", res.Error)
	}
	if got := e.dev.Count("tap"); got != 1 {
		t.Fatalf("taps = %d, want 1", got)
	}
	if e.dev.Screen() != "second" {
		t.Fatalf("screen %q, want second (the first click navigated)", e.dev.Screen())
	}
	if got := res.Error.Details["executed"]; got != 2 {
		t.Fatalf("executed = %v, want 2", got)
	}
	if !strings.HasPrefix(res.Error.Message, "Replay failed at step 3 (click @e2): Ref @e2 belongs to an expired ref frame") {
		t.Fatalf("message %q", res.Error.Message)
	}
}
