package daemon

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Helper processes of a daemon that died (ADR 0002: the daemon owns helper
// lifetime policy, and stale helpers are disposable). A daemon records in
// sessions.json the processes it started for its sessions (its descendants,
// with their start times so a reused pid is never touched) and the browser
// profiles they use; the next daemon kills what is left of them and
// removes those profiles before it serves. Linux /proc only; elsewhere
// nothing is recorded.

// helperProc is one recorded descendant process.
type helperProc struct {
	PID   int    `json:"pid"`
	Start uint64 `json:"start"` // /proc/<pid>/stat starttime
}

// helpers is what sessions.json records of a daemon's helper processes.
type helpers struct {
	Procs    []helperProc `json:"procs,omitempty"`
	Profiles []string     `json:"profiles,omitempty"`
}

type procInfo struct {
	ppid    int
	start   uint64
	cmdline string
}

func readProcs() map[int]procInfo {
	out := map[int]procInfo{}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return out
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 20 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		start, _ := strconv.ParseUint(f[19], 10, 64)
		c, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		out[pid] = procInfo{ppid: ppid, start: start, cmdline: string(c)}
	}
	return out
}

// profileFlag is how a browser names its profile directory.
const profileFlag = "--user-data-dir="

func cmdArgs(cmdline string) []string {
	// Chromium's children rewrite their title: arguments may be separated
	// by spaces instead of NULs.
	return strings.FieldsFunc(cmdline, func(r rune) bool { return r == 0 || r == ' ' })
}

// ownHelpers lists this process's descendants and their browser profiles.
func ownHelpers() helpers {
	procs := readProcs()
	children := map[int][]int{}
	for pid, p := range procs {
		children[p.ppid] = append(children[p.ppid], pid)
	}
	var h helpers
	seen := map[string]bool{}
	var walk func(int)
	walk = func(pid int) {
		for _, c := range children[pid] {
			p := procs[c]
			h.Procs = append(h.Procs, helperProc{PID: c, Start: p.start})
			for _, a := range cmdArgs(p.cmdline) {
				if d, ok := strings.CutPrefix(a, profileFlag); ok && filepath.IsAbs(d) && !seen[d] {
					seen[d] = true
					h.Profiles = append(h.Profiles, d)
				}
			}
			walk(c)
		}
	}
	walk(os.Getpid())
	return h
}

// reap kills what is left of a dead daemon's helpers and removes their
// profiles; it returns how many processes it killed. Bounded (5 s).
func reap(h helpers) int {
	killed := 0
	deadline := time.Now().Add(5 * time.Second)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	first := true
	for {
		procs := readProcs()
		left := 0
		for pid, p := range procs {
			hit := false
			if first {
				for _, r := range h.Procs {
					if r.PID == pid && r.Start == p.start {
						hit = true
					}
				}
			}
			for _, a := range cmdArgs(p.cmdline) {
				for _, d := range h.Profiles {
					if a == profileFlag+d {
						hit = true
					}
				}
			}
			if hit && pid != os.Getpid() {
				left++
				if syscall.Kill(pid, syscall.SIGKILL) == nil {
					killed++
				}
			}
		}
		first = false
		if left == 0 || time.Now().After(deadline) {
			break
		}
		<-tick.C
	}
	for _, d := range h.Profiles {
		_ = os.RemoveAll(d)
	}
	return killed
}
