package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/adtest/adtest/cmd/internal/fakedevicecmd"
	"github.com/adtest/adtest/drivers/fake"
	"github.com/adtest/adtest/internal/testsupport/adbtest"
	"github.com/adtest/adtest/internal/testsupport/fakedevice"
	"github.com/adtest/adtest/reporters"
	"github.com/adtest/adtest/runner"
)

// TestAndroidExampleSuite runs examples/android/suite through adtest run,
// the real adb server on a private port and the fake device.
func TestAndroidExampleSuite(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	srv := startADBServer(ctx, t)
	dev := connectExampleDevice(ctx, t, srv)
	art := t.TempDir()
	code, stdout, stderr := runMainCall(ctx, t, cliCall{cwd: "../.."}, "run", "--adb-server", srv.Addr(), "--debug",
		"--artifacts-dir", art, "--reporter", "console", "examples/android/suite")
	if code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	t.Logf("stdout:\n%s", stdout)
	if !strings.Contains(stderr, "snapshot started") || !strings.Contains(stderr, "snapshot reused") {
		t.Errorf("--debug shows no helper session events:\n%s", stderr)
	}
	if n := dev.Count("instrument-session"); n != 1 {
		t.Errorf("%d helper sessions for the suite, want 1 kept warm", n)
	}
	// timing.ndjson of each attempt says what the helper did per command.
	timings, _ := filepath.Glob(filepath.Join(art, "*", "*", "*", "timing.ndjson"))
	var all strings.Builder
	for _, f := range timings {
		b, _ := os.ReadFile(f)
		all.Write(b)
	}
	if len(timings) != 4 || !strings.Contains(all.String(), `"event":"helper","helper":"started"`) || !strings.Contains(all.String(), `"helper":"reused"`) {
		t.Errorf("%d timing files without helper events:\n%s", len(timings), all.String())
	}
}

// TestAndroidNoADB: no server answers and there is no adb binary to start
// one: exit 3 with how to install adb.
func TestAndroidNoADB(t *testing.T) {
	port, err := adbtest.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	addr := "127.0.0.1:" + strconv.Itoa(port)
	dir := writeFiles(t, map[string]string{"a.ad": "context platform=android\nopen com.example.app\n"})
	code, _, stderr := runMainCall(context.Background(), t, cliCall{cwd: dir, getenv: map[string]string{"ADTEST_ADB": "/nonexistent/adb"}},
		"run", "--adb-server", addr, "--artifacts-dir", "art", "a.ad")
	if code != ExitInfra || !strings.Contains(stderr, "install adb") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
}

// TestAndroidUnplugMidSuite: two devices; one loses its cable in the
// middle of its first test. That attempt fails as infrastructure (no
// retry), its worker takes no more tests, and the other device runs the
// rest of the suite.
func TestAndroidUnplugMidSuite(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	srv := startADBServer(ctx, t)
	screens := "viewport 1080 2400\nopen com.adtest.cable -> home\nscreen home\n  heading \"Home\"\n  button \"Pull\" id=pull -> goto gone\nscreen gone\n  text \"Gone\"\n"
	files := map[string]string{"screens.txt": screens}
	const n = 5
	for i := 1; i <= n; i++ {
		files[fmt.Sprintf("t%d.ad", i)] = "context platform=android retries=2\nopen com.adtest.cable --relaunch\nwait \"Home\" 3000\nclick id=\"com.adtest.cable:id/pull\"\nwait \"Gone\" 3000\n"
	}
	dir := writeFiles(t, files)
	sc, err := fake.LoadScreens(filepath.Join(dir, "screens.txt"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := srv.Connect(ctx, fakedevice.Options{Screens: sc, HelperInstalled: true, UnplugOnTap: "pull"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Disconnect(a)
	b, err := srv.Connect(ctx, fakedevice.Options{Screens: sc, HelperInstalled: true})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Disconnect(b)
	code, stdout, stderr := runMainCall(ctx, t, cliCall{cwd: dir}, "run", "--adb-server", srv.Addr(),
		"--device", a.Addr(), "--device", b.Addr(), "--artifacts-dir", "art", "--reporter", "json=result.json", ".")
	if code != ExitInfra {
		t.Errorf("exit %d, want %d (infrastructure)\nstdout:\n%s\nstderr:\n%s", code, ExitInfra, stdout, stderr)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "result.json"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := reporters.ReadJSON(strings.NewReader(string(raw)))
	if err != nil {
		t.Fatal(err)
	}
	if res.Stats.Passed != n-1 || res.Stats.Failed != 1 {
		t.Errorf("stats %+v", res.Stats)
	}
	for _, tr := range res.Tests {
		if tr.Status != runner.StatusFailed {
			continue
		}
		if len(tr.Attempts) != 1 || tr.Attempts[0].Error == nil || tr.Attempts[0].Error.Reason != "infrastructure" || tr.Attempts[0].Device != a.Addr() {
			t.Errorf("failed test %s: %d attempts, %+v", tr.Name, len(tr.Attempts), tr.Attempts[0].Error)
		}
	}
	if got := a.Count("am-start"); got != 1 {
		t.Errorf("the unplugged device's worker started %d apps, want 1 (it must stop taking tests)", got)
	}
	if got := b.Count("am-start"); got != n-1 {
		t.Errorf("the other device started %d apps, want %d", got, n-1)
	}
}

// fakedeviceMain is adtest-fakedevice inside scripts: a fake Android device
// behind a private adb server (android_*.txtar).
func fakedeviceMain() { os.Exit(fakedevicecmd.Main(os.Args[1:], os.Stdout, os.Stderr)) }

// TestAndroidEveryDeviceGetsAWorker: without --device or -j, a run with
// Android tests uses every online device, one worker each.
func TestAndroidEveryDeviceGetsAWorker(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	srv := startADBServer(ctx, t)
	files := map[string]string{}
	for i := 1; i <= 6; i++ {
		files[fmt.Sprintf("t%d.ad", i)] = "context platform=android\nopen com.adtest.demo --relaunch\nwait \"Sign in to Acme\" 3000\nwait 150\n"
	}
	dir := writeFiles(t, files)
	var devs []*fakedevice.Device
	for i := 0; i < 2; i++ {
		d, err := srv.Connect(ctx, fakedevice.Options{Screens: adbtest.ExampleScreens(), HelperInstalled: true})
		if err != nil {
			t.Fatal(err)
		}
		defer srv.Disconnect(d)
		devs = append(devs, d)
	}
	code, stdout, stderr := runMainCall(ctx, t, cliCall{cwd: dir}, "run", "--adb-server", srv.Addr(), "--artifacts-dir", "art", ".")
	if code != ExitOK || !strings.Contains(stdout, "using 2 workers") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, d := range devs {
		if d.Count("am-start") == 0 {
			t.Errorf("device %s ran no test", d.Addr())
		}
	}
}

// startADBServer starts Debian's adb server on a private port for one test
// and checks at cleanup that it stopped.
func startADBServer(ctx context.Context, t *testing.T) *adbtest.Server {
	t.Helper()
	srv, err := adbtest.StartServer(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := srv.Close(); err != nil || srv.Alive() {
			t.Errorf("adb server teardown: %v (alive %v)", err, srv.Alive())
		}
	})
	return srv
}

// connectExampleDevice connects a fake device serving the example app to
// srv; it is disconnected at cleanup, before the server stops.
func connectExampleDevice(ctx context.Context, t *testing.T, srv *adbtest.Server) *fakedevice.Device {
	t.Helper()
	dev, err := srv.Connect(ctx, adbtest.DeviceOptions())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Disconnect(dev) })
	return dev
}
