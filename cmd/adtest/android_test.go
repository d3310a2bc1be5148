package main

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers/android/adbtest"
)

// TestAndroidExampleSuite runs examples/android/suite through adtest run,
// the real adb server on a private port and the fake device.
func TestAndroidExampleSuite(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	srv, err := adbtest.StartServer(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := srv.Close(); err != nil || srv.Alive() {
			t.Errorf("adb server teardown: %v (alive %v)", err, srv.Alive())
		}
	}()
	dev, err := srv.Connect(ctx, adbtest.DeviceOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Disconnect(dev)
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
}

// TestAndroidNoADB: no server answers and there is no adb binary to start
// one: exit 3 with how to install adb.
func TestAndroidNoADB(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	dir := writeFiles(t, map[string]string{"a.ad": "context platform=android\nopen com.example.app\n"})
	code, _, stderr := runMainCall(context.Background(), t, cliCall{cwd: dir, getenv: map[string]string{"ADTEST_ADB": "/nonexistent/adb"}},
		"run", "--adb-server", addr, "--artifacts-dir", "art", "a.ad")
	if code != ExitInfra || !strings.Contains(stderr, "install adb") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
}
