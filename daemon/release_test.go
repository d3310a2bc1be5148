package daemon

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/drivers/android"
	"github.com/adtest/adtest/drivers/fake"
	"github.com/adtest/adtest/internal/testsupport/adbtest"
)

// TestEveryExitHandsBackTheDriver: whatever way a daemon session ends, its
// driver is closed once (on Android, that is what gives the device lease
// back). A script's close ends only the app; the session's end still has
// to release the driver.
func TestEveryExitHandsBackTheDriver(t *testing.T) {
	for _, tc := range []struct {
		name   string
		closes int // the driver's close operations seen: the daemon's one, and the test's own
		end    func(t *testing.T, td *testDaemon, c *Client, dev func() *fake.Device)
	}{
		{"close", 1, func(t *testing.T, td *testDaemon, c *Client, _ func() *fake.Device) {
			mustOK(t, do(t, c, cmd("s", "open", "demo")))
			mustOK(t, do(t, c, cmd("s", "snapshot", "-i")))
			mustOK(t, do(t, c, cmd("s", "close")))
		}},
		{"close whose app close fails", 1, func(t *testing.T, td *testDaemon, c *Client, dev func() *fake.Device) {
			mustOK(t, do(t, c, cmd("s", "open", "demo")))
			dev().FailOn("close-app", 1, "boom")
			if r := do(t, c, cmd("s", "close")); r.OK {
				t.Fatal("close should report the failed app close")
			}
		}},
		{"failed open", 1, func(t *testing.T, td *testDaemon, c *Client, _ func() *fake.Device) {
			if r := do(t, c, cmd("s", "open", "no.such.app")); r.OK {
				t.Fatal("open of an unknown app should fail")
			}
		}},
		{"lost device", 2, func(t *testing.T, td *testDaemon, c *Client, dev func() *fake.Device) {
			mustOK(t, do(t, c, cmd("s", "open", "demo")))
			mustOK(t, do(t, c, cmd("s", "close")))
			mustOK(t, do(t, c, cmd("s", "open", "demo")))
			// The device goes away under the session (the test's own close).
			if err := dev().Close(context.Background()); err != nil {
				t.Fatal(err)
			}
			wantReason(t, do(t, c, cmd("s", "snapshot")), "infrastructure")
		}},
		{"daemon stop", 1, func(t *testing.T, td *testDaemon, c *Client, _ func() *fake.Device) {
			mustOK(t, do(t, c, cmd("s", "open", "demo")))
			mustOK(t, do(t, c, cmd("s", "close")))
			mustOK(t, do(t, c, cmd("t", "open", "demo")))
			mustOK(t, do(t, c, &Request{Op: OpStop}))
			select {
			case err := <-td.done:
				td.done <- err
			case <-time.After(20 * time.Second):
				t.Fatal("daemon did not stop")
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			td := startDaemon(t, nil)
			c := td.client()
			dev := func() *fake.Device {
				t.Helper()
				ds := td.prov.Devices()
				if len(ds) == 0 {
					t.Fatal("no session was started")
				}
				return ds[len(ds)-1]
			}
			tc.end(t, td, c, dev)
			for i, d := range td.prov.Devices() {
				want := 1
				if i == len(td.prov.Devices())-1 {
					want = tc.closes
				}
				if n := d.Count("close"); n != want {
					t.Errorf("session %d: driver closed %d times, want %d (ops %v)", i, n, want, d.Counts())
				}
			}
		})
	}
}

// TestAndroidDeviceHandedBackAfterClose: issue 36 bug 1. On the real adb
// server and the fake device, a second Android session on the one device
// opens promptly after the first one's close (it used to wait for the
// device lease until the request's bound, ten minutes).
func TestAndroidDeviceHandedBackAfterClose(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	srv, err := adbtest.StartServer(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := srv.Close(); err != nil || srv.Alive() {
			t.Errorf("adb server teardown: %v (alive %v)", err, srv.Alive())
		}
	})
	dev, err := srv.Connect(ctx, adbtest.DeviceOptions())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Disconnect(dev) })
	td := startDaemon(t, func(cfg *Config) {
		cfg.Providers = func(ctx context.Context, platform string) (drivers.Provider, error) {
			if platform != drivers.PlatformAndroid {
				return nil, errors.New("only android here")
			}
			return android.NewProvider(ctx, android.Options{Server: srv.Addr(), Getenv: os.Getenv, NoSession: true})
		}
	})
	c := td.client()
	open := func(session string) *Request {
		// The request's own bound is short: a device that is not handed
		// back fails the open in seconds, not the daemon's default minutes.
		return &Request{Op: OpCommand, Session: session, Command: "open", Argv: []string{"com.adtest.demo"}, Platform: drivers.PlatformAndroid, TimeoutMs: 8000}
	}
	mustOK(t, do(t, c, open("a1")))
	mustOK(t, do(t, c, cmd("a1", "snapshot", "-i")))
	mustOK(t, do(t, c, cmd("a1", "close")))
	mustOK(t, do(t, c, open("a2")))
	mustOK(t, do(t, c, cmd("a2", "snapshot", "-i")))
	mustOK(t, do(t, c, cmd("a2", "close")))
	// A failed open hands the device back too.
	if r := do(t, c, &Request{Op: OpCommand, Session: "a3", Command: "open", Argv: []string{"com.no.such.app"}, Platform: drivers.PlatformAndroid, TimeoutMs: 8000}); r.OK {
		t.Fatal("open of an app that is not installed should fail")
	}
	mustOK(t, do(t, c, open("a4")))
	mustOK(t, do(t, c, cmd("a4", "close")))
}
