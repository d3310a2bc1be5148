//go:build unix

package suite

import (
	"errors"
	"fmt"
	"os/exec"
	"syscall"
	"time"

	"github.com/adtest/adtest/internal/proc"
)

// setProcessGroup puts the command in a process group of its own (its pgid
// is its pid), so that stopGroup reaches everything it forks.
func setProcessGroup(c *exec.Cmd) {
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// stopGroup sends SIGTERM to the process group pgid, waits for the leader
// (exited delivers its Wait) and for the rest of the group to exit, and
// sends SIGKILL to the group once grace has passed.
func stopGroup(pgid int, exited <-chan error, grace time.Duration) error {
	if err := syscall.Kill(-pgid, syscall.SIGTERM); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	deadline := time.NewTimer(grace)
	defer deadline.Stop()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	leaderDone := false
	for {
		select {
		case <-exited:
			leaderDone = true
			exited = nil
		case <-deadline.C:
			return killGroup(pgid, exited, leaderDone, tick.C)
		case <-tick.C:
		}
		if leaderDone && !groupAlive(pgid) {
			return nil
		}
	}
}

// killAfter bounds how long killGroup waits for SIGKILL to end the group's
// members: the signal cannot be caught, but a member in uninterruptible
// sleep takes its time.
const killAfter = 10 * time.Second

// killGroup sends SIGKILL to the group and returns once the leader has been
// waited for and no member of the group is alive. kill(2) only queues the
// signal: a member that has not been scheduled since is still alive in
// /proc, so returning right after the call let a caller (and the test of
// this function, under load) see the group live.
func killGroup(pgid int, exited <-chan error, leaderDone bool, tick <-chan time.Time) error {
	syscall.Kill(-pgid, syscall.SIGKILL)
	if !leaderDone {
		<-exited // SIGKILL ends the leader; Wait returns
	}
	bound := time.NewTimer(killAfter)
	defer bound.Stop()
	for groupAlive(pgid) {
		select {
		case <-bound.C:
			return fmt.Errorf("process group %d still has live members %s after SIGKILL", pgid, killAfter)
		case <-tick:
		}
	}
	return nil
}

// groupAlive reports a live (not zombie) process in group pgid.
func groupAlive(pgid int) bool { return groupSize(pgid) > 0 }

// groupSize counts the live processes of group pgid. It reads /proc where
// there is one: an orphan that exited under an init that does not reap stays
// a zombie, which kill(-pgid, 0) would count as alive.
func groupSize(pgid int) int {
	all := proc.All()
	if len(all) == 0 {
		if syscall.Kill(-pgid, 0) == nil {
			return 1
		}
		return 0
	}
	n := 0
	for _, p := range all {
		if p.PGRP == pgid && p.Live() {
			n++
		}
	}
	return n
}
