package main

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/adtest/adtest/daemon"
	"github.com/adtest/adtest/drivers/web"
	"github.com/adtest/adtest/internal/proc"
	"github.com/rogpeppe/go-internal/testscript"
)

// daemonSetup gives every script its own daemon directory and stops a
// daemon the script left running (the script fails when it had to).
func daemonSetup(e *testscript.Env) {
	run := filepath.Join(e.WorkDir, "run")
	_ = os.Mkdir(run, 0o700)
	e.Setenv("XDG_RUNTIME_DIR", run)
	e.Setenv("ADTEST_DAEMON_IDLE_TIMEOUT", "2m")
	dir := filepath.Join(run, "adtest")
	// A short TMPDIR for the daemon's browser: Chromium refuses socket paths
	// over 107 bytes, and $WORK/.tmp can be longer.
	tmp, err := os.MkdirTemp("", "adts")
	if err == nil {
		e.Setenv("TMPDIR", tmp)
		e.Defer(func() { os.RemoveAll(tmp) })
	}
	e.Defer(func() {
		if b, err := os.ReadFile(filepath.Join(e.WorkDir, "crash-profiles")); err == nil && len(b) > 0 {
			list := strings.Split(string(b), "\n")
			if left := web.ProfileLeftovers(list); left != "" {
				killProfiles(list)
				e.T().Fatal("a crashed daemon's browser was not reaped: " + left)
			}
		}
	})
	e.Defer(func() {
		pid := daemonPID(dir)
		if pid <= 0 {
			return
		}
		if syscall.Kill(pid, 0) != nil {
			return
		}
		_ = syscall.Kill(pid, syscall.SIGTERM)
		if !daemon.WaitStopped(context.Background(), dir, 30*time.Second) {
			killTree(pid)
		}
		e.T().Fatal("the script left the adtest daemon running (stopped it)")
	})
}

func daemonPID(dir string) int {
	b, err := os.ReadFile(filepath.Join(dir, "daemon.json"))
	if err != nil {
		return 0
	}
	var info struct {
		PID int `json:"pid"`
	}
	_ = json.Unmarshal(b, &info)
	return info.PID
}

// waithttp URL: polls until URL answers (20 s deadline).
func cmdWaitHTTP(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: [!] waithttp URL (negated: URL does not answer now)")
	}
	if neg {
		client := &http.Client{Timeout: 2 * time.Second}
		if resp, err := client.Get(args[0]); err == nil {
			resp.Body.Close()
			ts.Fatalf("%s still answers (%s)", args[0], resp.Status)
		}
		return
	}
	deadline := time.Now().Add(20 * time.Second)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	client := &http.Client{Timeout: 2 * time.Second}
	for {
		resp, err := client.Get(args[0])
		if err == nil {
			resp.Body.Close()
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("waithttp %s: %v", args[0], err)
		}
		<-tick.C
	}
}

// crashdaemon: kills the daemon of $XDG_RUNTIME_DIR/adtest with SIGKILL, as
// a crash would: its browser is orphaned (the next daemon must reap it).
// The profiles it used are noted in $WORK/crash-profiles, so that the
// script's end can clean up if that daemon does not.
func cmdCrashDaemon(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: crashdaemon")
	}
	dir := filepath.Join(ts.Getenv("XDG_RUNTIME_DIR"), "adtest")
	pid := daemonPID(dir)
	if pid <= 0 {
		ts.Fatalf("crashdaemon: no daemon pid in %s", dir)
	}
	profiles := profilesOf(descendants(pid))
	_ = os.WriteFile(ts.MkAbs("crash-profiles"), []byte(strings.Join(profiles, "\n")), 0o600)
	_ = syscall.Kill(pid, syscall.SIGKILL)
	if !daemon.WaitStopped(context.Background(), dir, 10*time.Second) {
		ts.Fatalf("crashdaemon: the daemon still holds its lock")
	}
}

// profilesOf lists the browser profiles the processes use.
func profilesOf(pids []int) []string {
	set := map[string]bool{}
	var out []string
	for _, p := range pids {
		for _, arg := range proc.Args(p) {
			if d, ok := strings.CutPrefix(arg, "--user-data-dir="); ok && !set[d] {
				set[d] = true
				out = append(out, d)
			}
		}
	}
	return out
}

// killTree SIGKILLs pid and every descendant, then what still runs with
// their browser profiles, and removes those profiles.
func killTree(pid int) {
	all := descendants(pid)
	profiles := profilesOf(all)
	for _, p := range all {
		_ = syscall.Kill(p, syscall.SIGKILL)
	}
	killProfiles(profiles)
}

// killProfiles kills whatever runs with one of the profiles and removes
// them (bounded), as a daemon reaps a dead one's browsers.
func killProfiles(profiles []string) {
	web.Reap(web.Helpers{Profiles: profiles})
}

// exits N PROG ARGS...: runs PROG and wants exit code N (its output is kept
// for stdout/stderr like exec's).
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits N PROG ARGS...")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: %v", err)
	}
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		got = ee.ExitCode()
	} else if err != nil {
		ts.Fatalf("exits: %v", err)
	}
	if got != want {
		ts.Logf("stdout: %s\nstderr: %s", ts.ReadFile("stdout"), ts.ReadFile("stderr"))
		ts.Fatalf("%s exited %d, want %d", strings.Join(args[1:], " "), got, want)
	}
}

// daemonprofiles: records in $DAEMON_PROFILES the Chromium profiles the
// running daemon's browsers use (there must be one).
func cmdDaemonProfiles(ts *testscript.TestScript, neg bool, args []string) {
	dir := filepath.Join(ts.Getenv("XDG_RUNTIME_DIR"), "adtest")
	pid := daemonPID(dir)
	if pid <= 0 {
		ts.Fatalf("daemonprofiles: no daemon")
	}
	set := map[string]bool{}
	for _, p := range descendants(pid) {
		for _, arg := range proc.Args(p) {
			if d, ok := strings.CutPrefix(arg, "--user-data-dir="); ok {
				set[d] = true
			}
		}
	}
	if len(set) == 0 {
		ts.Fatalf("daemonprofiles: the daemon runs no browser")
	}
	var list []string
	for d := range set {
		list = append(list, d)
	}
	ts.Setenv("DAEMON_PROFILES", strings.Join(list, string(os.PathListSeparator)))
}

// profilesgone: no process and no directory of $DAEMON_PROFILES remains.
func cmdProfilesGone(ts *testscript.TestScript, neg bool, args []string) {
	list := filepath.SplitList(ts.Getenv("DAEMON_PROFILES"))
	if len(list) == 0 {
		ts.Fatalf("profilesgone: run daemonprofiles first")
	}
	deadline := time.Now().Add(5 * time.Second)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		left := web.ProfileLeftovers(list)
		if left == "" {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("browser leftovers: %s", left)
		}
		<-tick.C
	}
}

func descendants(pid int) []int {
	all := []int{pid}
	for _, p := range proc.Descendants(pid) {
		all = append(all, p.PID)
	}
	return all
}
