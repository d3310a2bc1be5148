package android_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers/fake"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/drivers/android"
	"github.com/adtest/adtest/internal/testsupport/fakedevice"
)

type rig struct {
	dev  *fakedevice.Device
	prov *android.Provider
	s    *android.Session
}

func newRig(t testing.TB, fo fakedevice.Options, po android.Options) *rig {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	dev, err := server.Connect(ctx, fo)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { server.Disconnect(dev) })
	po.Server = server.Addr()
	po.Devices = []string{dev.Addr()}
	prov, err := android.NewProvider(ctx, po)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { prov.Close() })
	d, err := prov.NewSession(ctx, drivers.SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return &rig{dev: dev, prov: prov, s: d.(*android.Session)}
}

func tctx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func find(t testing.TB, snap *drivers.Snapshot, label string) *drivers.Node {
	t.Helper()
	for i := range snap.Nodes {
		if snap.Nodes[i].Label == label {
			return &snap.Nodes[i]
		}
	}
	var labels []string
	for _, n := range snap.Nodes {
		labels = append(labels, n.Label)
	}
	t.Fatalf("no node %q in %q", label, labels)
	return nil
}

func has(snap *drivers.Snapshot, label string) bool {
	for _, n := range snap.Nodes {
		if n.Label == label {
			return true
		}
	}
	return false
}

func events(p *android.Provider) []string {
	var out []string
	for _, e := range p.Events() {
		out = append(out, e.Command+":"+e.Event)
	}
	return out
}

func count(list []string, s string) int {
	n := 0
	for _, x := range list {
		if x == s {
			n++
		}
	}
	return n
}

func tapAt(t *testing.T, r *rig, ctx context.Context, n *drivers.Node) {
	t.Helper()
	if err := r.s.Act(ctx, drivers.Action{Kind: drivers.ActTap, Target: &drivers.Target{Node: n, Point: n.Rect.Center()}}); err != nil {
		t.Fatal(err)
	}
}

// TestPersistentHelperFlow: the first snapshot installs the helper (the
// pinned APK) and starts one session; later ones reuse it; fill, tap and
// back work through it.
func TestPersistentHelperFlow(t *testing.T) {
	r := newRig(t, fakedevice.Options{}, android.Options{})
	ctx := tctx(t)
	if err := r.s.Open(ctx, drivers.OpenRequest{Target: "com.adtest.demo"}); err != nil {
		t.Fatal(err)
	}
	snap, err := r.s.Snapshot(ctx, drivers.SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if snap.URL != "com.adtest.demo" || snap.Viewport.Width != 1080 {
		t.Errorf("snapshot of %q viewport %v", snap.URL, snap.Viewport)
	}
	email := find(t, snap, "Email")
	if email.Role != "edittext" || !email.Editable || email.ID != "com.adtest.demo:id/email" {
		t.Errorf("email node %+v", *email)
	}
	if err := r.s.Act(ctx, drivers.Action{Kind: drivers.ActFill, Text: "ada lovelace@example.com", Target: &drivers.Target{Node: email}}); err != nil {
		t.Fatal(err)
	}
	snap = r.snap(t, ctx)
	if got := find(t, snap, "Email").Value; got != "ada lovelace@example.com" {
		t.Errorf("email holds %q", got)
	}
	// fill again replaces the text
	if err := r.s.Act(ctx, drivers.Action{Kind: drivers.ActFill, Text: "ada@example.com", Target: &drivers.Target{Node: find(t, snap, "Email")}}); err != nil {
		t.Fatal(err)
	}
	snap = r.snap(t, ctx)
	tapAt(t, r, ctx, find(t, snap, "Sign in"))
	snap = r.snap(t, ctx)
	if !has(snap, "Signed in") {
		t.Fatalf("not signed in")
	}
	if err := r.s.Act(ctx, drivers.Action{Kind: drivers.ActBack}); err != nil {
		t.Fatal(err)
	}
	snap = r.snap(t, ctx)
	if !has(snap, "Sign in to Acme") {
		t.Errorf("back did not return to the login screen")
	}
	if n := r.dev.Count("instrument-session"); n != 1 {
		t.Errorf("%d helper sessions started, want 1", n)
	}
	if n := r.dev.Count("instrument-oneshot"); n != 0 {
		t.Errorf("%d one-shot captures, want 0", n)
	}
	if r.dev.Count("install") != 1 || r.dev.InstalledAPKSHA256() != android.HelperSHA256 {
		t.Errorf("installs %d, sha %s", r.dev.Count("install"), r.dev.InstalledAPKSHA256())
	}
	ev := events(r.prov)
	if count(ev, "snapshot:started") != 1 || count(ev, "snapshot:reused") < 3 {
		t.Errorf("events %v", ev)
	}
	if r.dev.Count("uiautomator-dump") != 0 {
		t.Errorf("uiautomator dump was used")
	}
	// Closing the provider ends the helper session and removes its forward.
	if err := r.s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	r.prov.Close()
	if fw, err := server.Client.ListForwards(ctx); err != nil || len(fw) != 0 {
		t.Errorf("forwards left after Close: %v %v", fw, err)
	}
	if n := r.dev.LiveSessions(); n != 0 {
		t.Errorf("%d helper sessions still running on the device after Close", n)
	}
}

// TestSessionFallsBackOneShotForReads: a malformed session reply
// invalidates the session and the snapshot is taken one-shot; the next
// snapshot starts a new session.
func TestSessionFallsBackOneShotForReads(t *testing.T) {
	r := newRig(t, fakedevice.Options{HelperInstalled: true}, android.Options{})
	ctx := tctx(t)
	if err := r.s.Open(ctx, drivers.OpenRequest{Target: "com.adtest.demo"}); err != nil {
		t.Fatal(err)
	}
	r.dev.BreakSession(1)
	snap, err := r.s.Snapshot(ctx, drivers.SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	find(t, snap, "Sign in to Acme")
	if n := r.dev.Count("instrument-oneshot"); n != 1 {
		t.Errorf("%d one-shot captures, want 1", n)
	}
	if _, err := r.s.Snapshot(ctx, drivers.SnapshotOptions{}); err != nil {
		t.Fatal(err)
	}
	ev := events(r.prov)
	if count(ev, "snapshot:invalidated") != 1 || count(ev, "snapshot:fallback") != 1 || count(ev, "snapshot:started") != 2 {
		t.Errorf("events %v", ev)
	}
	if r.dev.Count("install") != 0 {
		t.Errorf("an installed helper of the right version was reinstalled")
	}
	// The helper process dies: the next command sees it and restarts.
	r.dev.KillHelper()
	if _, err := r.s.Snapshot(ctx, drivers.SnapshotOptions{}); err != nil {
		t.Fatal(err)
	}
	if n := count(events(r.prov), "snapshot:invalidated"); n != 2 {
		t.Errorf("after the helper died: events %v", events(r.prov))
	}
}

// TestGestureFailureIsNotRetried: a gesture through a session that fails
// is reported, not replayed one-shot (ADR 0002).
func TestGestureFailureIsNotRetried(t *testing.T) {
	r := newRig(t, fakedevice.Options{HelperInstalled: true}, android.Options{})
	ctx := tctx(t)
	if err := r.s.Open(ctx, drivers.OpenRequest{Target: "adtest://catalog"}); err != nil {
		t.Fatal(err)
	}
	r.dev.BreakGesture(1)
	err := r.s.Act(ctx, drivers.Action{Kind: drivers.ActSwipe, From: drivers.Point{X: 540, Y: 1800}, To: drivers.Point{X: 540, Y: 600}})
	if err == nil {
		t.Fatal("a failed session gesture returned no error")
	}
	if r.dev.Count("gesture-swipe") != 0 || r.dev.Count("instrument-oneshot") != 0 {
		t.Errorf("gesture replayed: swipes %d, one-shots %d", r.dev.Count("gesture-swipe"), r.dev.Count("instrument-oneshot"))
	}
	// The next scroll starts a fresh session and works.
	if err := r.s.Act(ctx, drivers.Action{Kind: drivers.ActScroll, Direction: "down", Amount: 0.8}); err != nil {
		t.Fatal(err)
	}
	snap, err := r.s.Snapshot(ctx, drivers.SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n := find(t, snap, "Item 60")
	if !n.Visible {
		t.Errorf("Item 60 not scrolled into view: %+v", n.Rect)
	}
}

// TestFailsClosedWithoutHelper: with no helper on the device and none set
// up on the host, a snapshot fails as infrastructure; uiautomator dump is
// not substituted.
func TestFailsClosedWithoutHelper(t *testing.T) {
	r := newRig(t, fakedevice.Options{}, android.Options{HelperDir: t.TempDir()})
	ctx := tctx(t)
	if err := r.s.Open(ctx, drivers.OpenRequest{Target: "com.adtest.demo"}); err != nil {
		t.Fatal(err)
	}
	_, err := r.s.Snapshot(ctx, drivers.SnapshotOptions{})
	if !errors.Is(err, drivers.ErrInfrastructure) || !strings.Contains(err.Error(), "adtest android setup") {
		t.Fatalf("err = %v", err)
	}
	if r.dev.Count("uiautomator-dump") != 0 {
		t.Errorf("uiautomator dump was substituted")
	}
}

// TestDumpModeInstallsNothing: --android-snapshot=dump reads uiautomator dump.
func TestDumpModeInstallsNothing(t *testing.T) {
	r := newRig(t, fakedevice.Options{}, android.Options{Snapshot: android.SnapshotDump})
	ctx := tctx(t)
	if err := r.s.Open(ctx, drivers.OpenRequest{Target: "com.adtest.demo"}); err != nil {
		t.Fatal(err)
	}
	snap, err := r.s.Snapshot(ctx, drivers.SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	find(t, snap, "Sign in to Acme")
	if err := r.s.Act(ctx, drivers.Action{Kind: drivers.ActScroll, Direction: "down"}); err != nil {
		t.Fatal(err)
	}
	if r.dev.Count("install") != 0 || r.dev.Count("instrument-session") != 0 || r.dev.Count("uiautomator-dump") == 0 {
		t.Errorf("install %d, sessions %d, dumps %d", r.dev.Count("install"), r.dev.Count("instrument-session"), r.dev.Count("uiautomator-dump"))
	}
}

// TestUnplugIsInfrastructure: a device that goes away mid-test fails the
// next command as infrastructure and invalidates its helper session.
func TestUnplugIsInfrastructure(t *testing.T) {
	r := newRig(t, fakedevice.Options{HelperInstalled: true}, android.Options{})
	ctx := tctx(t)
	if err := r.s.Open(ctx, drivers.OpenRequest{Target: "com.adtest.demo"}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.s.Snapshot(ctx, drivers.SnapshotOptions{}); err != nil {
		t.Fatal(err)
	}
	r.dev.Unplug()
	_, err := r.s.Snapshot(ctx, drivers.SnapshotOptions{})
	if !errors.Is(err, drivers.ErrInfrastructure) {
		t.Fatalf("after unplug: %v", err)
	}
	// The tracker sees the device leave; new sessions on it then fail.
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	r.s.Close(ctx)
	for {
		sctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		d, err := r.prov.NewSession(sctx, drivers.SessionOptions{Device: r.dev.Addr()})
		cancel()
		if errors.Is(err, drivers.ErrInfrastructure) {
			break
		}
		if d != nil {
			d.Close(ctx)
		}
		select {
		case <-ctx.Done():
			t.Fatalf("a new session on an unplugged device still opens: %v", err)
		case <-tick.C:
		}
	}
	if ev := events(r.prov); count(ev, "track-devices:invalidated")+count(ev, "snapshot:invalidated") != 1 {
		t.Errorf("events %v", ev)
	}
}

// TestAlertScreenshotLogsKeyboard covers the system dialog, screencap,
// logcat, dumpsys input_method, appstate and settings paths.
func TestAlertScreenshotLogsKeyboard(t *testing.T) {
	r := newRig(t, fakedevice.Options{HelperInstalled: true}, android.Options{})
	ctx := tctx(t)
	if err := r.s.Open(ctx, drivers.OpenRequest{Target: "demo"}); err != nil { // substring match of the package
		t.Fatal(err)
	}
	if err := r.dev.App().SetScreen("home"); err != nil {
		t.Fatal(err)
	}
	snap := r.snap(t, ctx)
	tapAt(t, r, ctx, find(t, snap, "Delete account"))
	text, open, err := r.s.AlertText(ctx)
	if err != nil || !open || text != "Delete your account?" {
		t.Fatalf("alert %q %v %v", text, open, err)
	}
	snap = r.snap(t, ctx)
	signOut := find(t, snap, "Sign out")
	if signOut.Hittable {
		t.Errorf("a node under the dialog is hittable")
	}
	var te *drivers.TargetError
	if err := r.s.Preflight(ctx, drivers.Action{Kind: drivers.ActTap, Target: &drivers.Target{Node: signOut, Describe: "Sign out"}}); !errors.As(err, &te) || te.Reason != "target_covered" {
		t.Errorf("preflight of a covered node: %v", err)
	}
	if err := r.s.AlertRespond(ctx, false); err != nil {
		t.Fatal(err)
	}
	if _, open, _ := r.s.AlertText(ctx); open {
		t.Errorf("alert still open after dismiss")
	}
	png, err := r.s.Screenshot(ctx, drivers.ScreenshotOptions{})
	if err != nil || string(png[1:4]) != "PNG" {
		t.Errorf("screenshot: %v", err)
	}
	if lines := r.s.LogTail(20); len(lines) == 0 || !strings.Contains(strings.Join(lines, "\n"), "input tap") {
		t.Errorf("log tail %q", lines)
	}
	if app, err := r.s.AppState(ctx); err != nil || app != "com.adtest.demo" {
		t.Errorf("appstate %q %v", app, err)
	}
	if err := r.s.Setting(ctx, "animations", "off"); err != nil || r.dev.Setting("animator_duration_scale") != "0" {
		t.Errorf("animations off: %v", err)
	}
	if err := r.s.Setting(ctx, "wifi", "off"); err != nil || r.dev.Setting("wifi") != "off" {
		t.Errorf("wifi off: %v", err)
	}
	r.dev.App().SetScreen("login")
	snap = r.snap(t, ctx)
	tapAt(t, r, ctx, find(t, snap, "Password"))
	st, err := r.s.KeyboardStatus(ctx)
	if err != nil || !st.Visible || st.InputType != "password" {
		t.Errorf("keyboard %+v %v", st, err)
	}
	if err := r.s.Act(ctx, drivers.Action{Kind: drivers.ActKey, Key: "dismiss"}); err != nil {
		t.Fatal(err)
	}
	if st, _ := r.s.KeyboardStatus(ctx); st.Visible {
		t.Errorf("keyboard still visible after dismiss")
	}
	if err := r.s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if r.dev.Foreground() != "" {
		t.Errorf("app still in front after close")
	}
	// A later session's log slice starts at its own beginning.
	d2, err := r.prov.NewSession(ctx, drivers.SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Close(ctx)
	if tail := strings.Join(d2.(drivers.LogTailer).LogTail(200), "\n"); strings.Contains(tail, "input tap") {
		t.Errorf("the new session's log tail has the old session's lines:\n%s", tail)
	}
}

// TestHelperVersionChangeReinstalls: the helper is replaced by an older
// version behind the driver's back; the session dies with it, and the
// restart upgrades the helper before it starts a new session.
func TestHelperVersionChangeReinstalls(t *testing.T) {
	r := newRig(t, fakedevice.Options{HelperInstalled: true}, android.Options{})
	ctx := tctx(t)
	if err := r.s.Open(ctx, drivers.OpenRequest{Target: "com.adtest.demo"}); err != nil {
		t.Fatal(err)
	}
	r.dev.SetHelperVersion(20000)
	if _, err := r.s.Snapshot(ctx, drivers.SnapshotOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.s.Snapshot(ctx, drivers.SnapshotOptions{}); err != nil {
		t.Fatal(err)
	}
	if r.dev.Count("install") != 1 || r.dev.HelperVersion() != android.HelperVersionCode {
		t.Errorf("installs %d, version %d", r.dev.Count("install"), r.dev.HelperVersion())
	}
	if ev := events(r.prov); count(ev, "snapshot:invalidated") != 1 || count(ev, "snapshot:started") != 2 {
		t.Errorf("events %v", ev)
	}
}

// TestOneSessionPerDevice: with more workers than devices, a session waits
// for the device to be free; a free device is taken first.
func TestOneSessionPerDevice(t *testing.T) {
	r := newRig(t, fakedevice.Options{HelperInstalled: true}, android.Options{})
	ctx := tctx(t)
	wctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	_, err := r.prov.NewSession(wctx, drivers.SessionOptions{Worker: 1})
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a second session on a busy device: %v", err)
	}
	got := make(chan error, 1)
	go func() {
		d, err := r.prov.NewSession(ctx, drivers.SessionOptions{Worker: 1})
		if err == nil {
			err = d.Close(ctx)
		}
		got <- err
	}()
	if err := r.s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-got; err != nil {
		t.Fatalf("the waiting session: %v", err)
	}
	// A second device: worker 1 gets it while worker 0 holds the first.
	other, err := server.Connect(ctx, fakedevice.Options{HelperInstalled: true})
	if err != nil {
		t.Fatal(err)
	}
	defer server.Disconnect(other)
	prov, err := android.NewProvider(ctx, android.Options{Server: server.Addr(), Devices: []string{r.dev.Addr(), other.Addr()}})
	if err != nil {
		t.Fatal(err)
	}
	defer prov.Close()
	a, err := prov.NewSession(ctx, drivers.SessionOptions{Worker: 0})
	if err != nil {
		t.Fatal(err)
	}
	b, err := prov.NewSession(ctx, drivers.SessionOptions{Worker: 0})
	if err != nil {
		t.Fatal(err)
	}
	if sa, sb := a.(*android.Session).Serial(), b.(*android.Session).Serial(); sa == sb {
		t.Errorf("both sessions on %s", sa)
	}
	a.Close(ctx)
	b.Close(ctx)
}

// TestLocalhostDeepLinkReverses: a localhost URL with a port gets adb
// reverse first, so the device reaches the host's server.
func TestLocalhostDeepLinkReverses(t *testing.T) {
	sc := adbtestScreens(t, "viewport 1080 2400\nopen com.adtest.web -> page\nscreen page\n  text \"Page\"\n")
	r := newRig(t, fakedevice.Options{Screens: sc, HelperInstalled: true}, android.Options{})
	ctx := tctx(t)
	if err := r.s.Open(ctx, drivers.OpenRequest{Target: "com.adtest.web", URL: "http://localhost:8123/hello"}); err != nil {
		t.Fatal(err)
	}
	if got := r.dev.Reverses()["tcp:8123"]; got != "tcp:8123" {
		t.Errorf("reverses %v", r.dev.Reverses())
	}
	if r.dev.Foreground() != "com.adtest.web" {
		t.Errorf("foreground %q", r.dev.Foreground())
	}
}

func adbtestScreens(t *testing.T, src string) *fake.Screens {
	t.Helper()
	s, err := fake.ParseScreens("screens", src)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestNoDeviceIsInfrastructure: a --device that is not there fails the
// provider as infrastructure and names what the server does list.
func TestNoDeviceIsInfrastructure(t *testing.T) {
	ctx := tctx(t)
	dev, err := server.Connect(ctx, fakedevice.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer server.Disconnect(dev)
	_, err = android.NewProvider(ctx, android.Options{Server: server.Addr(), Devices: []string{"emulator-5554"}})
	if !errors.Is(err, drivers.ErrInfrastructure) || !strings.Contains(err.Error(), "device emulator-5554 is not online") || !strings.Contains(err.Error(), dev.Addr()+" device") {
		t.Errorf("err = %v", err)
	}
}

// snap takes a snapshot and fails the test when it cannot.
func (r *rig) snap(t testing.TB, ctx context.Context) *drivers.Snapshot {
	t.Helper()
	s, err := r.s.Snapshot(ctx, drivers.SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}
