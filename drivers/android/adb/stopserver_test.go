package adb

import (
	"context"
	"net"
	"os/exec"
	"testing"
	"time"
)

// TestStopStartedServerKillsAServerStuckInExit: the server answers host:kill
// and stays (adb's exit blocking under load); StopStartedServer kills the
// process EnsureServer started once its grace is over, and nothing else.
func TestStopStartedServerKillsAServerStuckInExit(t *testing.T) {
	f := startFake(t, "")
	_, port, _ := net.SplitHostPort(f.ln.Addr().String())
	// The stand-in for `adb -L tcp:PORT fork-server server`: a shell whose
	// command line reads as that server's.
	stuck := exec.Command("/bin/sh", "-c", "sleep 60; true", "adb", "-L", "tcp:"+port, "fork-server", "server")
	stuck.Args[0] = "adb"
	if err := stuck.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- stuck.Wait() }()
	t.Cleanup(func() { stuck.Process.Kill() })
	c, err := New(Options{Server: f.ln.Addr().String(), NoStart: true})
	if err != nil {
		t.Fatal(err)
	}
	if pid := serverProcess(port); pid != stuck.Process.Pid {
		t.Fatalf("serverProcess(%s) = %d, want %d", port, pid, stuck.Process.Pid)
	}
	// Another client, which started nothing, stops nothing.
	if err := c.StopStartedServer(context.Background()); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		t.Fatalf("a server this client did not start was ended: %v", err)
	default:
	}
	c.started, c.serverPID = true, stuck.Process.Pid
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := c.StopStartedServer(ctx); err != nil {
		t.Fatalf("StopStartedServer: %v", err)
	}
	select {
	case err := <-exited:
		if err == nil {
			t.Fatal("the stuck server exited by itself")
		}
	case <-ctx.Done():
		t.Fatal("the stuck server is still running")
	}
	if c.StartedServer() {
		t.Error("the client still owns a server after stopping it")
	}
}
