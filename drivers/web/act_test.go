package web

import (
	"bytes"
	"context"
	"errors"
	"math"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers"
)

func TestTapVariants(t *testing.T) {
	t.Parallel()
	// One session per page; each case reloads the page for a clean state.
	basic, events := session(t, ""), session(t, "")
	for _, tc := range []struct {
		name   string
		action func(n *drivers.Node) drivers.Action
		id     string
		want   string
	}{
		{"single click", func(n *drivers.Node) drivers.Action { return tap(n) }, "clicks", "Clicked 1"},
		{"count 3", func(n *drivers.Node) drivers.Action { a := tap(n); a.Count = 3; a.IntervalMs = 10; return a }, "clicks", "Clicked 3"},
		{"point target", func(n *drivers.Node) drivers.Action {
			return drivers.Action{Kind: drivers.ActTap, Target: &drivers.Target{Point: n.Rect.Center()}}
		}, "clicks", "Clicked 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			open(t, basic, "basic.html")
			s := basic
			n := find(t, snap(t, s, drivers.SnapshotOptions{}), "button", "Count")
			if err := s.Act(testCtx(t), tc.action(n)); err != nil {
				t.Fatal(err)
			}
			waitText(t, s, tc.id, tc.want)
		})
	}
	for _, tc := range []struct {
		name   string
		action func(n *drivers.Node) drivers.Action
		want   string
	}{
		{"double tap", func(n *drivers.Node) drivers.Action { a := tap(n); a.DoubleTap = true; return a }, "double"},
		{"secondary button", func(n *drivers.Node) drivers.Action { a := tap(n); a.Button = "secondary"; return a }, "context"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			open(t, events, "events.html")
			s := events
			n := find(t, snap(t, s, drivers.SnapshotOptions{}), "button", "Events")
			if err := s.Act(testCtx(t), tc.action(n)); err != nil {
				t.Fatal(err)
			}
			waitText(t, s, "log", tc.want)
		})
	}
}

func TestTapScrollsIntoView(t *testing.T) {
	t.Parallel()
	s := session(t, "scroll.html")
	sn := snap(t, s, drivers.SnapshotOptions{})
	item := find(t, sn, "listitem", "Item 150")
	if item.Visible {
		t.Fatal("Item 150 is visible before scrolling; the page is too short for this test")
	}
	if err := s.Act(testCtx(t), tap(item)); err != nil {
		t.Fatal(err)
	}
	if !find(t, snap(t, s, drivers.SnapshotOptions{}), "listitem", "Item 150").Visible {
		t.Error("Item 150 is not visible after the tap scrolled to it")
	}
}

func TestCoveredClickIsRefused(t *testing.T) {
	t.Parallel()
	s := session(t, "covered.html")
	n := find(t, snap(t, s, drivers.SnapshotOptions{}), "button", "Buy")
	if n.Hittable {
		t.Error("covered button is reported hittable")
	}
	a := tap(n)
	a.Target.Describe = `@e1 "Buy"`
	for _, step := range []struct {
		name string
		run  func() error
	}{
		{"preflight", func() error { return s.Preflight(testCtx(t), a) }},
		{"act", func() error { return s.Act(testCtx(t), a) }},
	} {
		err := step.run()
		var te *drivers.TargetError
		if !errors.As(err, &te) {
			t.Fatalf("%s: got %v, want a *drivers.TargetError", step.name, err)
		}
		want := `@e1 "Buy" is covered by div#overlay "Accept cookies": the click would land on the covering element, so nothing was done`
		if step.name == "preflight" {
			want = strings.Replace(want, "the click", "the tap", 1)
		}
		if te.Reason != "target_covered" || te.Message != want {
			t.Errorf("%s: reason %q message %q\nwant message %q", step.name, te.Reason, te.Message, want)
		}
	}
	if got := textByID(t, s, "r"); got != "Nothing" {
		t.Errorf("the covered button was clicked: %q", got)
	}
}

func TestFill(t *testing.T) {
	t.Parallel()
	s := session(t, "basic.html")
	sn := snap(t, s, drivers.SnapshotOptions{})
	ctx := testCtx(t)
	fill := func(n *drivers.Node, text string) error {
		return s.Act(ctx, drivers.Action{Kind: drivers.ActFill, Target: &drivers.Target{Node: n}, Text: text})
	}
	email := find(t, sn, "textbox", "Email")
	if err := fill(email, "first@example.com"); err != nil {
		t.Fatal(err)
	}
	if err := fill(email, "ada@example.com"); err != nil { // replaces, does not append
		t.Fatal(err)
	}
	if err := fill(find(t, sn, "textbox", "Password"), "secret"); err != nil {
		t.Fatal(err)
	}
	if err := fill(find(t, sn, "combobox", "Country"), "France"); err != nil {
		t.Fatal(err)
	}
	after := snap(t, s, drivers.SnapshotOptions{})
	for _, c := range []struct{ role, label, value string }{
		{"textbox", "Email", "ada@example.com"},
		{"textbox", "Password", "••••••••"},
		{"combobox", "Country", "France"},
	} {
		if got := find(t, after, c.role, c.label).Value; got != c.value {
			t.Errorf("%s value %q, want %q", c.label, got, c.value)
		}
	}

	for _, tc := range []struct {
		name, label, role, text, reason, msg string
	}{
		{"maxlength cuts the text", "Code", "textbox", "ABCDEF", "fill_mismatch", `textbox "Code" shows a different value after fill (3 characters, expected 6): the page changed or limited the input`},
		{"unknown option", "Country", "combobox", "Spain", "option_not_found", `combobox "Country" has no option "Spain" (options: Choose, Germany, France)`},
		{"not editable", "Sign in", "button", "x", "target_not_editable", `button "Sign in" is not an editable field`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := fill(find(t, after, tc.role, tc.label), tc.text)
			var te *drivers.TargetError
			if !errors.As(err, &te) || string(te.Reason) != tc.reason || te.Message != tc.msg {
				t.Fatalf("got %v\nwant reason %s message %q", err, tc.reason, tc.msg)
			}
		})
	}
}

func TestTypeKeyFocus(t *testing.T) {
	t.Parallel()
	s := session(t, "events.html")
	ctx := testCtx(t)
	field := find(t, snap(t, s, drivers.SnapshotOptions{}), "textbox", "Field")
	if err := s.Act(ctx, drivers.Action{Kind: drivers.ActFocus, Target: &drivers.Target{Node: field}}); err != nil {
		t.Fatal(err)
	}
	if !find(t, snap(t, s, drivers.SnapshotOptions{}), "textbox", "Field").Focused {
		t.Fatal("field not focused after focus")
	}
	if err := s.Act(ctx, drivers.Action{Kind: drivers.ActType, Text: "hi there"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Act(ctx, drivers.Action{Kind: drivers.ActKey, Key: "enter"}); err != nil {
		t.Fatal(err)
	}
	waitText(t, s, "log", "enter hi there")
	if err := s.Act(ctx, drivers.Action{Kind: drivers.ActKey, Key: "dismiss"}); err != nil {
		t.Fatal(err)
	}
	if find(t, snap(t, s, drivers.SnapshotOptions{}), "textbox", "Field").Focused {
		t.Error("field still focused after keyboard dismiss")
	}
	err := s.Act(ctx, drivers.Action{Kind: drivers.ActKey, Key: "hyperdrive"})
	if err == nil || !strings.Contains(err.Error(), `unknown key "hyperdrive"`) {
		t.Errorf("unknown key: %v", err)
	}
}

func TestHoverLongPressPan(t *testing.T) {
	t.Parallel()
	s := session(t, "events.html")
	ctx := testCtx(t)
	sn := snap(t, s, drivers.SnapshotOptions{})
	if err := s.Act(ctx, drivers.Action{Kind: drivers.ActHover, Target: &drivers.Target{Node: find(t, sn, "text", "Hover me")}}); err != nil {
		t.Fatal(err)
	}
	find(t, snap(t, s, drivers.SnapshotOptions{}), "text", "Tooltip shown")

	if err := s.Act(ctx, drivers.Action{Kind: drivers.ActLongPress, Target: &drivers.Target{Node: find(t, sn, "button", "Hold")}}); err != nil {
		t.Fatal(err)
	}
	waitText(t, s, "log", "held long")

	pad := find(t, sn, "text", "Pad").Rect
	from := drivers.Point{X: pad.X + 20, Y: pad.Y + 20}
	to := drivers.Point{X: pad.X + 220, Y: pad.Y + 70}
	if err := s.Act(ctx, drivers.Action{Kind: drivers.ActPan, From: from, To: to, Duration: 100 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	waitText(t, s, "log", "dragged 200 50")
}

func TestAlerts(t *testing.T) {
	t.Parallel()
	s := session(t, "events.html")
	ctx := testCtx(t)
	sn := snap(t, s, drivers.SnapshotOptions{})
	if _, open, err := s.AlertText(ctx); err != nil || open {
		t.Fatalf("alert open before any: %v %v", open, err)
	}
	if err := s.Act(ctx, tap(find(t, sn, "button", "Confirm"))); err != nil {
		t.Fatal(err)
	}
	msg, open, err := s.AlertText(ctx)
	if err != nil || !open || msg != "Delete item?" {
		t.Fatalf("AlertText = %q %v %v", msg, open, err)
	}
	_, err = s.Snapshot(ctx, drivers.SnapshotOptions{})
	if targetReason(err) != "alert_open" {
		t.Errorf("snapshot with a dialog open: %v", err)
	}
	if err := s.AlertRespond(ctx, false); err != nil {
		t.Fatal(err)
	}
	waitText(t, s, "log", "cancelled")
	if err := s.Act(ctx, tap(find(t, sn, "button", "Confirm"))); err != nil {
		t.Fatal(err)
	}
	if err := s.AlertRespond(ctx, true); err != nil {
		t.Fatal(err)
	}
	waitText(t, s, "log", "confirmed")
	if err := s.AlertRespond(ctx, true); err != nil {
		t.Errorf("respond with no alert open: %v", err)
	}
}

func TestScroll(t *testing.T) {
	t.Parallel()
	s := session(t, "scroll.html")
	ctx := testCtx(t)
	y := func(role, name string) float64 {
		return find(t, snap(t, s, drivers.SnapshotOptions{}), role, name).Rect.Y
	}
	top := y("listitem", "Item 1")
	if err := s.Act(ctx, drivers.Action{Kind: drivers.ActScroll, Direction: "down"}); err != nil {
		t.Fatal(err)
	}
	sn := snap(t, s, drivers.SnapshotOptions{})
	if got, want := top-y("listitem", "Item 1"), sn.Viewport.Height*0.5; math.Abs(got-want) > 1 {
		t.Errorf("scroll down moved the page %v px, want %v", got, want)
	}
	if err := s.Act(ctx, drivers.Action{Kind: drivers.ActScroll, Direction: "bottom"}); err != nil {
		t.Fatal(err)
	}
	if !find(t, snap(t, s, drivers.SnapshotOptions{}), "listitem", "Item 200").Visible {
		t.Error("Item 200 not visible after scroll bottom")
	}
	if err := s.Act(ctx, drivers.Action{Kind: drivers.ActScroll, Direction: "top"}); err != nil {
		t.Fatal(err)
	}
	// scroll inside the box: the row moves, the page does not
	row := y("text", "Row 1")
	item := y("listitem", "Item 1")
	box := find(t, snap(t, s, drivers.SnapshotOptions{}), "text", "Row 2")
	if err := s.Act(ctx, drivers.Action{Kind: drivers.ActScroll, Direction: "down", Amount: 0.5, Target: &drivers.Target{Node: box}}); err != nil {
		t.Fatal(err)
	}
	if got := row - y("text", "Row 1"); got != 100 {
		t.Errorf("box scrolled %v px, want 100 (half of 200)", got)
	}
	if got := y("listitem", "Item 1"); got != item {
		t.Errorf("page moved from %v to %v while scrolling the box", item, got)
	}
	// swipe up scrolls the page down
	before := y("listitem", "Item 20")
	if err := s.Act(ctx, drivers.Action{Kind: drivers.ActSwipe, From: drivers.Point{X: 300, Y: 500}, To: drivers.Point{X: 300, Y: 300}}); err != nil {
		t.Fatal(err)
	}
	if after := y("listitem", "Item 20"); after >= before-100 {
		t.Errorf("swipe up: Item 20 moved from %v to %v, want up by ~200", before, after)
	}
}

func TestOpenBackViewportScreenshot(t *testing.T) {
	t.Parallel()
	s := session(t, "basic.html")
	ctx := testCtx(t)
	if err := s.Act(ctx, tap(find(t, snap(t, s, drivers.SnapshotOptions{}), "link", "Docs"))); err != nil {
		t.Fatal(err)
	}
	waitTitle(t, s, "Second")
	if err := s.Act(ctx, drivers.Action{Kind: drivers.ActBack}); err != nil {
		t.Fatal(err)
	}
	if sn := snap(t, s, drivers.SnapshotOptions{}); sn.Title != "Basic" {
		t.Errorf("after back title %q, want Basic", sn.Title)
	}
	if err := s.Act(ctx, drivers.Action{Kind: drivers.ActViewport, Size: drivers.Point{X: 400, Y: 300}}); err != nil {
		t.Fatal(err)
	}
	if sn := snap(t, s, drivers.SnapshotOptions{}); sn.Viewport.Width != 400 || sn.Viewport.Height != 300 {
		t.Errorf("viewport %+v, want 400x300", sn.Viewport)
	}
	for _, full := range []bool{false, true} {
		png, err := s.Screenshot(ctx, drivers.ScreenshotOptions{FullPage: full})
		if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
			t.Errorf("screenshot full=%v: %d bytes, %v", full, len(png), err)
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String() + "/nothing"
	l.Close()
	err = s.Open(ctx, drivers.OpenRequest{Target: closed})
	if targetReason(err) != "navigation_failed" || err.Error() != "could not open "+closed+": net::ERR_CONNECTION_REFUSED" {
		t.Errorf("open of a closed port: %v", err)
	}
}

func waitTitle(t *testing.T, s *Session, want string) {
	t.Helper()
	ctx := testCtx(t)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		sn, err := s.Snapshot(ctx, drivers.SnapshotOptions{})
		if err == nil && sn.Title == want {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("title never became %q", want)
		case <-tick.C:
		}
	}
}

func TestStaleHandleFailsCleanly(t *testing.T) {
	t.Parallel()
	s := session(t, "basic.html")
	ctx := testCtx(t)
	old := find(t, snap(t, s, drivers.SnapshotOptions{}), "button", "Count")
	if err := s.Open(ctx, drivers.OpenRequest{Target: srv.URL + "/basic.html"}); err != nil {
		t.Fatal(err)
	}
	err := s.Act(ctx, drivers.Action{Kind: drivers.ActTap, Target: &drivers.Target{Node: old, Describe: "@e9"}})
	var te *drivers.TargetError
	if !errors.As(err, &te) || te.Reason != "target_stale" ||
		te.Message != "@e9 is no longer on the page (it was removed or the page navigated since the snapshot)" {
		t.Fatalf("got %v", err)
	}
	if got := textByID(t, s, "clicks"); got != "Clicked 0" {
		t.Errorf("a stale handle clicked something: %q", got)
	}
}

func TestAttrsLogsUnsupported(t *testing.T) {
	t.Parallel()
	s := session(t, "events.html")
	ctx := testCtx(t)
	sn := snap(t, s, drivers.SnapshotOptions{})
	attrs, err := s.Attrs(ctx, find(t, sn, "textbox", "Field"))
	if err != nil || len(attrs) != 3 || attrs["id"] != "field" || attrs["aria-label"] != "Field" {
		t.Errorf("attrs %v %v", attrs, err)
	}
	if err := s.Act(ctx, tap(find(t, sn, "button", "Log"))); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for len(s.LogTail(10)) < 2 && time.Now().Before(deadline) {
		<-tick.C
	}
	got := strings.Join(s.LogTail(10), "\n")
	want := "console.log: hello log 42\nuncaught: Error: boom (" + srv.URL + "/events.html:11)"
	if got != want {
		t.Errorf("LogTail:\n%s\nwant:\n%s", got, want)
	}
	if got := s.LogTail(1); len(got) != 1 || !strings.HasPrefix(got[0], "uncaught:") {
		t.Errorf("LogTail(1) = %q", got)
	}
	if err := s.Act(ctx, tap(find(t, sn, "button", "Image"))); err != nil {
		t.Fatal(err)
	}
	want404 := "browser.error: Failed to load resource: the server responded with a status of 404 (Not Found) (" + srv.URL + "/missing.png)"
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); <-tick.C {
		if got := s.LogTail(1); len(got) == 1 && got[0] == want404 {
			break
		}
	}
	if got := s.LogTail(1); len(got) != 1 || got[0] != want404 {
		t.Errorf("LogTail(1) = %q, want %q", got, want404)
	}
	err = s.Act(ctx, drivers.Action{Kind: drivers.ActHome})
	if !errors.Is(err, drivers.ErrUnsupported) || err.Error() != "unsupported operation: home is not supported on web" {
		t.Errorf("home: %v", err)
	}
}

func TestSessionsAreIsolated(t *testing.T) {
	t.Parallel()
	first := session(t, "storage.html")
	if got := textByID(t, first, "c"); got != "cookie=none local=none" {
		t.Fatalf("first visit: %q", got)
	}
	if err := first.Open(testCtx(t), drivers.OpenRequest{Target: srv.URL + "/storage.html"}); err != nil {
		t.Fatal(err)
	}
	if got := textByID(t, first, "c"); got != "cookie=session=abc local=v" {
		t.Fatalf("second visit in the same session: %q", got)
	}
	second := session(t, "storage.html")
	if got := textByID(t, second, "c"); got != "cookie=none local=none" {
		t.Errorf("a new session sees the state of another: %q", got)
	}
	// Relaunch gives a fresh context within the same session.
	if err := first.Open(testCtx(t), drivers.OpenRequest{Target: srv.URL + "/storage.html", Relaunch: true}); err != nil {
		t.Fatal(err)
	}
	if got := textByID(t, first, "c"); got != "cookie=none local=none" {
		t.Errorf("after relaunch: %q", got)
	}
	if err := first.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := first.Snapshot(testCtx(t), drivers.SnapshotOptions{}); !errors.Is(err, errClosed) {
		t.Errorf("snapshot after close: %v", err)
	}
}

func TestPreflightHasNoSideEffects(t *testing.T) {
	t.Parallel()
	s := session(t, "basic.html")
	ctx := testCtx(t)
	sn := snap(t, s, drivers.SnapshotOptions{})
	far := find(t, sn, "text", "Far away")
	for _, tc := range []struct {
		name   string
		action drivers.Action
		reason string
	}{
		{"enabled button in view", tap(find(t, sn, "button", "Sign in")), ""},
		{"disabled button", tap(find(t, sn, "button", "Disabled")), "target_disabled"},
		{"out of view passes (act scrolls)", drivers.Action{Kind: drivers.ActHover, Target: &drivers.Target{Node: far}}, ""},
		{"no node target", drivers.Action{Kind: drivers.ActTap, Target: &drivers.Target{Point: drivers.Point{X: 5, Y: 5}}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := s.Preflight(ctx, tc.action)
			if got := targetReason(err); got != tc.reason || (tc.reason == "" && err != nil) {
				t.Fatalf("got %v, want reason %q", err, tc.reason)
			}
		})
	}
	after := snap(t, s, drivers.SnapshotOptions{})
	if got := find(t, after, "text", "Far away").Rect.Y; got != far.Rect.Y {
		t.Errorf("preflight scrolled the page: Far away moved from %v to %v", far.Rect.Y, got)
	}
	if got := textByID(t, s, "clicks"); got != "Clicked 0" {
		t.Errorf("preflight clicked: %q", got)
	}
}

func TestShadowDOMButton(t *testing.T) {
	t.Parallel()
	s := session(t, "shadow.html")
	n := find(t, snap(t, s, drivers.SnapshotOptions{}), "button", "Shadow buy")
	if !n.Hittable {
		t.Error("a button in an open shadow root is not hittable")
	}
	if err := s.Act(testCtx(t), tap(n)); err != nil {
		t.Fatal(err)
	}
	waitText(t, s, "r", "Bought in shadow")
}

func TestDialogWhileLoading(t *testing.T) {
	t.Parallel()
	s := session(t, "")
	ctx := testCtx(t)
	if err := s.Open(ctx, drivers.OpenRequest{Target: srv.URL + "/onload.html"}); err != nil {
		t.Fatal(err)
	}
	if msg, open, err := s.AlertText(ctx); err != nil || !open || msg != "Allow notifications?" {
		t.Fatalf("AlertText = %q %v %v", msg, open, err)
	}
	if err := s.AlertRespond(ctx, true); err != nil {
		t.Fatal(err)
	}
	waitText(t, s, "r", "Allowed")
}

func TestScrollFindsTheAppContainer(t *testing.T) {
	t.Parallel()
	s := session(t, "app-scroll.html")
	before := find(t, snap(t, s, drivers.SnapshotOptions{}), "text", "Line 1").Rect.Y
	if err := s.Act(testCtx(t), drivers.Action{Kind: drivers.ActScroll, Direction: "down", Amount: 0.25}); err != nil {
		t.Fatal(err)
	}
	after := find(t, snap(t, s, drivers.SnapshotOptions{}), "text", "Line 1").Rect.Y
	if got := before - after; got != 180 { // a quarter of the 720 px main container
		t.Errorf("the main container scrolled %v px, want 180", got)
	}
}

func TestFillAndTypeVariants(t *testing.T) {
	t.Parallel()
	s := session(t, "basic.html")
	ctx := testCtx(t)
	sn := snap(t, s, drivers.SnapshotOptions{})
	email := find(t, sn, "textbox", "Email")
	for _, tc := range []struct {
		name   string
		action drivers.Action
		want   string
	}{
		{"fill at a point", drivers.Action{Kind: drivers.ActFill, Target: &drivers.Target{Point: email.Rect.Center()}, Text: "point@example.com"}, "point@example.com"},
		{"fill with a typing delay", drivers.Action{Kind: drivers.ActFill, Target: &drivers.Target{Node: email}, Text: "slow", DelayMs: 5}, "slow"},
		{"fill empty clears", drivers.Action{Kind: drivers.ActFill, Target: &drivers.Target{Node: email}, Text: ""}, ""},
		{"type appends with a delay", drivers.Action{Kind: drivers.ActType, Text: "ab", DelayMs: 5}, "ab"},
		{"type appends", drivers.Action{Kind: drivers.ActType, Text: "c@d"}, "abc@d"},
	} {
		if err := s.Act(ctx, tc.action); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := find(t, snap(t, s, drivers.SnapshotOptions{}), "textbox", "Email").Value; got != tc.want {
			t.Errorf("%s: value %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestInputEndsWithItsContext(t *testing.T) {
	t.Parallel()
	s := session(t, "events.html")
	hold := find(t, snap(t, s, drivers.SnapshotOptions{}), "button", "Hold")
	ctx, cancel := context.WithTimeout(testCtx(t), 300*time.Millisecond)
	defer cancel()
	err := s.Act(ctx, drivers.Action{Kind: drivers.ActLongPress, Target: &drivers.Target{Node: hold}, Duration: 10 * time.Second})
	if !errors.Is(err, context.DeadlineExceeded) || err.Error() != "web: longpress: context deadline exceeded" {
		t.Fatalf("got %v, want the deadline", err)
	}
	if errors.Is(err, drivers.ErrInfrastructure) {
		t.Fatal("a step timeout is not an infrastructure failure")
	}
	// the session still works
	if err := s.Act(testCtx(t), tap(find(t, snap(t, s, drivers.SnapshotOptions{}), "button", "Events"))); err != nil {
		t.Fatal(err)
	}
}
