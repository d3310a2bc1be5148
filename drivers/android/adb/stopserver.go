package adb

// Ending a server EnsureServer started.

import (
	"context"
	"fmt"
	"net"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"github.com/adtest/adtest/internal/proc"
)

// stopGrace is how long StopStartedServer lets a server exit on host:kill
// before it kills the process.
const stopGrace = 3 * time.Second

// serverProcess is the pid of the adb server listening on port that `adb -P
// PORT start-server` forked (`adb -L tcp:PORT fork-server server ...`), 0
// when there is none.
func serverProcess(port string) int {
	for _, p := range proc.All() {
		if isServer(p.PID, port) {
			return p.PID
		}
	}
	return 0
}

// isServer reports whether pid is a live adb server process for port.
func isServer(pid int, port string) bool {
	p, ok := proc.Stat(pid)
	if !ok || !p.Live() {
		return false
	}
	args := proc.Args(pid)
	return len(args) > 0 && filepath.Base(args[0]) == "adb" &&
		slices.Contains(args, "tcp:"+port) && slices.Contains(args, "fork-server")
}

// StopStartedServer ends the server EnsureServer started (nothing when it
// started none): host:kill, then, when the process is still there after
// stopGrace, SIGKILL. adb (29.0.6) answers host:kill with exit(0) while its
// other threads run, and under load that exit can block for good with the
// port still accepting connections (its log ends with "adb server killed by
// remote request" and the process stays: seen in 2 of 20 runs of the adb
// packages at load 25-40); a failed attempt must not leave such a server
// holding the port the next attempt starts one on.
func (c *Client) StopStartedServer(ctx context.Context) error {
	c.mu.Lock()
	started, pid := c.started, c.serverPID
	c.mu.Unlock()
	if !started {
		return nil
	}
	err := c.KillServer(ctx)
	_, port, _ := net.SplitHostPort(c.addr)
	if pid == 0 || !isServer(pid, port) {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, stopGrace+5*time.Second)
	defer cancel()
	grace := time.NewTimer(stopGrace)
	defer grace.Stop()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for isServer(pid, port) {
		select {
		case <-grace.C:
			syscall.Kill(pid, syscall.SIGKILL)
		case <-tick.C:
		case <-ctx.Done():
			return fmt.Errorf("adb kill-server: the server this run started (pid %d) did not exit: %w", pid, ctx.Err())
		}
	}
	c.mu.Lock()
	c.started, c.serverPID = false, 0
	c.mu.Unlock()
	return nil
}
