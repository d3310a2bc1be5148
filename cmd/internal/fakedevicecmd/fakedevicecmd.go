// Package fakedevicecmd is the body of the adtest-fakedevice command
// (cmd/adtest-fakedevice), kept importable so that cmd/adtest's scripts run
// it in-process.
package fakedevicecmd

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/adtest/adtest/drivers/android/adb"
	"github.com/adtest/adtest/drivers/fake"
	"github.com/adtest/adtest/internal/testsupport/adbtest"
	"github.com/adtest/adtest/internal/testsupport/fakedevice"
)

// Main is the adtest-fakedevice command (cmd/adtest-fakedevice):
//
//	adtest-fakedevice [-screens FILE] [-helper-installed] [-connect] [-adb-server HOST:PORT]
//	adtest-fakedevice -own-server [-port N] [-ready FILE] [-screens FILE] [-helper-installed]
//
// It starts a fake device and prints its address. With -connect it asks
// the adb server to connect to it (`adb connect ADDR` does the same). With
// -own-server it first starts a private adb server (on -port, else a free
// loopback port), connects the device and prints "adb-server HOST:PORT";
// -ready writes those lines to FILE once the device is online. It runs
// until SIGINT or SIGTERM, then disconnects and stops what it started.
// Without -screens it serves the example app (examples/android).
func Main(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("adtest-fakedevice", flag.ContinueOnError)
	fs.SetOutput(stderr)
	screens := fs.String("screens", "", "screens `FILE` (drivers/fake format); default: the example app")
	connect := fs.Bool("connect", false, "ask the adb server to connect to the device")
	server := fs.String("adb-server", "", "adb server `HOST:PORT` (else ADB_SERVER_SOCKET, ANDROID_ADB_SERVER_PORT, 127.0.0.1:5037)")
	own := fs.Bool("own-server", false, "start a private adb server, connect the device to it, stop it on exit")
	port := fs.Int("port", 0, "with -own-server: the server's `PORT` (default: a free one)")
	ready := fs.String("ready", "", "with -own-server: write the addresses to `FILE` when the device is online")
	helper := fs.Bool("helper-installed", false, "the device has the snapshot helper installed already")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	if *own {
		err = runOwn(ctx, *screens, *port, *ready, *helper, stdout)
	} else {
		err = runPlain(ctx, *screens, *connect, *server, *helper, stdout, stderr)
	}
	if err != nil {
		fmt.Fprintln(stderr, "adtest-fakedevice:", err)
		return 1
	}
	return 0
}

func loadScreens(path string) (*fake.Screens, error) {
	if path != "" {
		return fake.LoadScreens(path)
	}
	return adbtest.ExampleScreens(), nil
}

func runOwn(ctx context.Context, screensPath string, port int, ready string, helper bool, stdout io.Writer) error {
	s, err := loadScreens(screensPath)
	if err != nil {
		return err
	}
	sctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	var srv *adbtest.Server
	if port > 0 {
		srv, err = adbtest.StartServerOn(sctx, port)
	} else {
		srv, err = adbtest.StartServer(sctx)
	}
	if err != nil {
		return err
	}
	defer srv.Close()
	dev, err := srv.Connect(sctx, fakedevice.Options{Screens: s, HelperInstalled: helper})
	if err != nil {
		return err
	}
	defer srv.Disconnect(dev)
	lines := fmt.Sprintf("device %s\nadb-server %s\n", dev.Addr(), srv.Addr())
	io.WriteString(stdout, lines)
	if ready != "" {
		if err := os.WriteFile(ready, []byte(lines), 0o644); err != nil {
			return err
		}
	}
	<-ctx.Done()
	return nil
}

func runPlain(ctx context.Context, screensPath string, connect bool, server string, helper bool, stdout, stderr io.Writer) error {
	s, err := loadScreens(screensPath)
	if err != nil {
		return err
	}
	dev, err := fakedevice.Start(fakedevice.Options{Screens: s, HelperInstalled: helper})
	if err != nil {
		return err
	}
	defer dev.Close()
	fmt.Fprintln(stdout, dev.Addr())
	if connect {
		c, err := adb.New(adb.Options{Server: server})
		if err != nil {
			return err
		}
		cctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		if err := c.EnsureServer(cctx); err != nil {
			return err
		}
		if _, err := c.Connect(cctx, dev.Addr()); err != nil {
			return err
		}
		if err := c.WaitDevice(cctx, dev.Addr()); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "adtest-fakedevice: %s is online at the adb server %s\n", dev.Addr(), c.Addr())
		defer func() {
			dctx, dcancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer dcancel()
			c.Disconnect(dctx, dev.Addr())
		}()
	}
	<-ctx.Done()
	return nil
}
