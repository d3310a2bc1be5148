package web

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/adtest/adtest/internal/proc"
)

// The browsers of a process that died (ADR 0002: the daemon owns helper
// lifetime policy, stale helpers are disposable). A long-lived process (the
// daemon) records the processes it started (its descendants, with their
// start times so that a reused pid is never touched) and the Chromium
// profiles they use; the next one kills what is left of them and removes
// those profiles before it serves. Linux /proc only; elsewhere nothing is
// recorded.

// HelperProc is one recorded descendant process.
type HelperProc struct {
	PID   int    `json:"pid"`
	Start uint64 `json:"start"` // /proc/<pid>/stat starttime
}

// Helpers is the record of a process's helper processes and the browser
// profiles they use.
type Helpers struct {
	Procs    []HelperProc `json:"procs,omitempty"`
	Profiles []string     `json:"profiles,omitempty"`
}

// profileFlag is how Chromium is told its profile directory.
const profileFlag = "--user-data-dir="

// profilePrefix is the command-line flag that marks every process of a
// Chromium started with a given profile directory.
func profilePrefix(dir string) string { return profileFlag + dir }

// browserGroupFile, in a profile directory, holds "<pid> <start time>" of
// the Chromium that runs with it. The browser leads a process group of its
// own (browserCmd), and its children stay in it: full Chromium passes
// --user-data-dir on to its zygotes and renderers, the headless shell does
// not, so a child of the shell is known by its group. A group id is not
// reused while a member lives; a new leader with the same pid has another
// start time.
const browserGroupFile = "adtest-browser"

// writeBrowserGroup records the browser of profile dir.
func writeBrowserGroup(dir string, pid int) error {
	return writeProcess(filepath.Join(dir, browserGroupFile), pid)
}

// browserGroup is the process group of the browser of profile dir, 0 when
// none is recorded or the pid now names another process.
func browserGroup(dir string) int {
	pid, want, err := readProcess(filepath.Join(dir, browserGroupFile))
	if err != nil || pid <= 1 || want == "" {
		return 0
	}
	if start := processStart(pid); start != "" && start != want {
		return 0 // the pid was reused
	}
	return pid
}

// profileProcesses lists the live pids of profile dir's browser: those whose
// command line names dir as their user data directory, and the members of
// the browser's process group (the headless shell's children).
func profileProcesses(dir string) []int {
	want := profilePrefix(dir)
	group := browserGroup(dir)
	self := os.Getpid()
	var pids []int
	for _, p := range proc.All() {
		if p.PID == self || !p.Live() {
			continue
		}
		if (group != 0 && p.PGRP == group) || slices.Contains(proc.Args(p.PID), want) {
			pids = append(pids, p.PID)
		}
	}
	return pids
}

// killProfileProcesses kills leftovers of a Chromium profile until none is
// seen for a few consecutive polls (children can fork while the parent dies).
// It returns how many kills it sent.
func killProfileProcesses(dir string) int {
	deadline := time.Now().Add(3 * time.Second)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	quiet, killed := 0, 0
	for quiet < 3 && time.Now().Before(deadline) {
		pids := profileProcesses(dir)
		if len(pids) == 0 {
			quiet++
		} else {
			quiet = 0
			for _, pid := range pids {
				if syscall.Kill(pid, syscall.SIGKILL) == nil {
					killed++
				}
			}
		}
		<-tick.C
	}
	return killed
}

// removeDir removes a profile directory, retrying while a dying process may
// still write into it.
func removeDir(dir string) {
	deadline := time.Now().Add(2 * time.Second)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		err := os.RemoveAll(dir)
		if err == nil || time.Now().After(deadline) {
			return
		}
		<-tick.C
	}
}

// HelpersOf lists the descendants of pid and the browser profiles they use.
func HelpersOf(pid int) Helpers {
	var h Helpers
	seen := map[string]bool{}
	for _, p := range proc.Descendants(pid) {
		h.Procs = append(h.Procs, HelperProc{PID: p.PID, Start: p.Start})
		for _, a := range proc.Args(p.PID) {
			if d, ok := strings.CutPrefix(a, profileFlag); ok && filepath.IsAbs(d) && !seen[d] {
				seen[d] = true
				h.Profiles = append(h.Profiles, d)
			}
		}
	}
	return h
}

// Reap kills what is left of a dead process's helpers (a recorded process
// only while its start time still matches) and of every process that runs
// with one of its profiles, and removes those profiles. It returns how many
// processes it killed. Bounded: a few seconds a profile at the most.
func Reap(h Helpers) int {
	killed := 0
	for _, r := range h.Procs {
		if r.PID == os.Getpid() {
			continue
		}
		if p, ok := proc.Stat(r.PID); ok && p.Start == r.Start && syscall.Kill(r.PID, syscall.SIGKILL) == nil {
			killed++
		}
	}
	for _, d := range h.Profiles {
		killed += killProfileProcesses(d)
		removeProfile(d, os.TempDir())
	}
	return killed
}

// Reaper records and reaps the browsers of a long-lived process as JSON
// (the daemon's sessions.json keeps the record; see daemon.Config.Reaper).
type Reaper struct{}

// Record is the JSON record of this process's helpers, nil when it has none.
func (Reaper) Record() json.RawMessage {
	h := HelpersOf(os.Getpid())
	if len(h.Procs) == 0 {
		return nil
	}
	b, err := json.Marshal(h)
	if err != nil {
		return nil
	}
	return b
}

// Reap reaps what a Record names; an unreadable record reaps nothing.
func (Reaper) Reap(record json.RawMessage) int {
	var h Helpers
	if json.Unmarshal(record, &h) != nil {
		return 0
	}
	return Reap(h)
}
