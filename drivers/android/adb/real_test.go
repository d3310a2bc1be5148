package adb_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers/android/adb"
	"github.com/adtest/adtest/internal/testsupport/adbtest"
	"github.com/adtest/adtest/internal/testsupport/fakedevice"
)

// One real adb server on a private port and one fake device for the package.
var (
	server *adbtest.Server
	dev    *fakedevice.Device
)

func TestMain(m *testing.M) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	s, err := adbtest.StartServer(ctx)
	if err == nil {
		server = s
		dev, err = s.Connect(ctx, adbtest.DeviceOptions())
	}
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, "adb tests:", err)
		if server != nil {
			server.Close()
		}
		os.Exit(1)
	}
	code := m.Run()
	server.Disconnect(dev)
	if err := server.Close(); err != nil || server.Alive() {
		fmt.Fprintln(os.Stderr, "adb tests: server teardown:", err)
		code = 1
	}
	os.Exit(code)
}

func rctx(t testing.TB) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return c
}

func TestRealServerHostServices(t *testing.T) {
	c := server.Client
	if v, err := c.Version(rctx(t)); err != nil || v != 41 {
		t.Errorf("version %d %v", v, err)
	}
	devs, err := c.Devices(rctx(t))
	if err != nil || len(devs) != 1 || devs[0].Serial != dev.Addr() || devs[0].State != "device" || devs[0].Model != "AdtestFake" {
		t.Errorf("devices %+v %v", devs, err)
	}
	fs, err := c.Features(rctx(t), dev.Addr())
	if sort.Strings(fs); err != nil || strings.Join(fs, ",") != "cmd,shell_v2" {
		t.Errorf("features %v %v", fs, err)
	}
}

func TestRealServerShellExec(t *testing.T) {
	c := server.Client
	res, err := c.Shell(rctx(t), dev.Addr(), "getprop ro.product.model")
	if err != nil || string(res.Stdout) != "AdtestFake\n" || res.ExitCode != 0 {
		t.Errorf("getprop: %q %d %v", res.Stdout, res.ExitCode, err)
	}
	res, err = c.Shell(rctx(t), dev.Addr(), "nosuchcmd")
	if err != nil || res.ExitCode != 127 || !strings.Contains(string(res.Stderr), "not found") {
		t.Errorf("nosuchcmd: %q %q %d %v", res.Stdout, res.Stderr, res.ExitCode, err)
	}
	png, err := c.Exec(rctx(t), dev.Addr(), "screencap -p", nil)
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Errorf("screencap: %d bytes %v", len(png), err)
	}
}

func TestRealServerSync(t *testing.T) {
	c := server.Client
	data := bytes.Repeat([]byte("0123456789abcdef"), 20000) // 320 KB: several DATA chunks
	mtime := time.Unix(1700000000, 0)
	if err := c.Push(rctx(t), dev.Addr(), bytes.NewReader(data), "/sdcard/big.bin", 0o640, mtime); err != nil {
		t.Fatal(err)
	}
	st, err := c.Stat(rctx(t), dev.Addr(), "/sdcard/big.bin")
	if err != nil || !st.Exists || int(st.Size) != len(data) || st.Mode.Perm() != 0o640 || !st.Mtime.Equal(mtime) {
		t.Errorf("stat %+v %v", st, err)
	}
	var got bytes.Buffer
	if err := c.Pull(rctx(t), dev.Addr(), "/sdcard/big.bin", &got); err != nil || !bytes.Equal(got.Bytes(), data) {
		t.Errorf("pull: %d bytes %v", got.Len(), err)
	}
	if err := c.Pull(rctx(t), dev.Addr(), "/sdcard/none", &got); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("pull of a missing file: %v", err)
	}
	if st, err := c.Stat(rctx(t), dev.Addr(), "/sdcard/none"); err != nil || st.Exists {
		t.Errorf("stat of a missing file: %+v %v", st, err)
	}
}

func TestRealServerForwardReverseInstall(t *testing.T) {
	c := server.Client
	port, err := c.Forward(rctx(t), dev.Addr(), "tcp:0", "tcp:7001", false)
	if err != nil || port == "" || port == "0" {
		t.Fatalf("forward tcp:0: %q %v", port, err)
	}
	fw, err := c.ListForwards(rctx(t))
	if err != nil || len(fw) != 1 || fw[0].Local != "tcp:"+port || fw[0].Remote != "tcp:7001" {
		t.Errorf("list %+v %v", fw, err)
	}
	if err := c.KillForward(rctx(t), dev.Addr(), "tcp:"+port); err != nil {
		t.Error(err)
	}
	if fw, _ := c.ListForwards(rctx(t)); len(fw) != 0 {
		t.Errorf("after kill: %+v", fw)
	}
	if err := c.Reverse(rctx(t), dev.Addr(), "tcp:8080", "tcp:8080"); err != nil {
		t.Fatal(err)
	}
	rv, err := c.ListReverses(rctx(t), dev.Addr())
	if err != nil || len(rv) != 1 || rv[0].Local != "tcp:8080" {
		t.Errorf("reverses %+v %v", rv, err)
	}
	if err := c.KillReverse(rctx(t), dev.Addr(), "tcp:8080"); err != nil || len(dev.Reverses()) != 0 {
		t.Errorf("kill reverse: %v %v", err, dev.Reverses())
	}
	before := dev.Count("install")
	apk := bytes.Repeat([]byte{1, 2, 3}, 50000)
	if err := c.Install(rctx(t), dev.Addr(), apk, "-r", "-t"); err != nil {
		t.Fatal(err)
	}
	if got := dev.Count("install") - before; got != 1 {
		t.Errorf("installs %d", got)
	}
}

func TestRealServerTrackDevices(t *testing.T) {
	c := server.Client
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	ch, err := c.TrackDevices(ctx)
	if err != nil {
		t.Fatal(err)
	}
	first := <-ch
	if len(first) != 1 || first[0].Serial != dev.Addr() {
		t.Fatalf("first list %+v", first)
	}
	other, err := server.Connect(ctx, adbtest.DeviceOptions())
	if err != nil {
		t.Fatal(err)
	}
	saw := false
	for list := range ch {
		for _, d := range list {
			if d.Serial == other.Addr() && d.State == "device" {
				saw = true
			}
		}
		if saw {
			break
		}
	}
	server.Disconnect(other)
	for list := range ch {
		if len(list) == 1 {
			break
		}
	}
	if !saw || ctx.Err() != nil {
		t.Errorf("track-devices: saw the new device %v, ctx %v", saw, ctx.Err())
	}
}

// BenchmarkShellRoundTrip: `echo` through the Go client against spawning
// the adb binary, side by side on the same server and device.
func BenchmarkShellRoundTrip(b *testing.B) {
	b.Run("go-client", func(b *testing.B) {
		ctx := rctx(b)
		for i := 0; i < b.N; i++ {
			if _, err := server.Client.Shell(ctx, dev.Addr(), "echo hi"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("adb-binary", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			cmd := exec.Command("adb", "-P", strconv.Itoa(server.Port), "-s", dev.Addr(), "shell", "echo", "hi")
			if out, err := cmd.CombinedOutput(); err != nil || string(out) != "hi\n" {
				b.Fatalf("%q %v", out, err)
			}
		}
	})
}

// TestEnsureServerStartsOne: no server on a private port, so EnsureServer
// runs `adb -P PORT start-server`; StopStartedServer then ends that server
// and its port closes (nothing left running).
func TestEnsureServerStartsOne(t *testing.T) {
	// Not a port from listen(:0): another test binary's adb server could be
	// handed the same one, answer EnsureServer, and be killed below.
	port, err := adbtest.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	addr := "127.0.0.1:" + strconv.Itoa(port)
	c, err := adb.New(adb.Options{Server: addr})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := c.EnsureServer(ctx); err != nil {
		t.Fatal(err)
	}
	if v, err := c.Version(ctx); err != nil || v != 41 {
		t.Errorf("the started server: %d %v", v, err)
	}
	if !c.StartedServer() {
		t.Fatal("EnsureServer started a server and does not own it")
	}
	if err := c.StopStartedServer(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Version(ctx); adb.ReasonOf(err) != adb.ReasonServerUnavailable {
		t.Fatalf("the started server still answers on %s: %v", addr, err)
	}
}
