// Command cpuprocs runs a command and says where the machine's CPU went
// while it ran, by kind of process: the browser, its renderers, its GPU and
// utility processes, the test runner, Node. It reads /proc every 20 ms and
// counts the user and system time of every process that started after it
// did (a process's last slice before it exits can be missed: the figures
// are a little low, the same way for every command).
//
//	go run ./scripts/cpuprocs -- bin/adtest run -j 2 suite
//
// Linux only. The command's output goes to this one's.
package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

type proc struct {
	kind string
	cpu  time.Duration
}

func main() {
	args := os.Args[1:]
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "usage: cpuprocs -- COMMAND [ARG...]")
		os.Exit(2)
	}
	before := map[int]bool{}
	for _, pid := range pids() {
		before[pid] = true
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "cpuprocs:", err)
		os.Exit(1)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	seen := map[int]*proc{}
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	var err error
loop:
	for {
		sample(before, seen)
		select {
		case err = <-done:
			break loop
		case <-tick.C:
		}
	}
	wall := time.Since(start)
	byKind := map[string][2]float64{}
	var total float64
	for _, p := range seen {
		v := byKind[p.kind]
		v[0] += p.cpu.Seconds()
		v[1]++
		byKind[p.kind] = v
		total += p.cpu.Seconds()
	}
	kinds := make([]string, 0, len(byKind))
	for k := range byKind {
		kinds = append(kinds, k)
	}
	sort.Slice(kinds, func(i, j int) bool { return byKind[kinds[i]][0] > byKind[kinds[j]][0] })
	fmt.Fprintf(os.Stderr, "cpuprocs: wall %.2f s, CPU %.2f s of the processes started under it\n", wall.Seconds(), total)
	for _, k := range kinds {
		fmt.Fprintf(os.Stderr, "  %-28s %6.2f s  %3.0f processes\n", k, byKind[k][0], byKind[k][1])
	}
	if err != nil {
		if x, ok := err.(*exec.ExitError); ok {
			os.Exit(x.ExitCode())
		}
		os.Exit(1)
	}
}

func pids() []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		if n, err := strconv.Atoi(e.Name()); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// sample reads the CPU time of every process not in before; a process's
// kind is read while its command line is still there.
func sample(before map[int]bool, seen map[int]*proc) {
	self := os.Getpid()
	for _, pid := range pids() {
		if before[pid] || pid == self {
			continue
		}
		cpu, ok := cpuOf(pid)
		if !ok {
			continue
		}
		p := seen[pid]
		if p != nil && p.kind == "chromium zygote" {
			// A renderer is forked from the zygote and renames itself
			// after: read its kind again.
			if k := kindOf(pid); k != "" {
				p.kind = k
			}
		}
		if p == nil {
			kind := kindOf(pid)
			if kind == "" {
				continue // gone, or a zombie: its kind is unknown
			}
			p = &proc{kind: kind}
			seen[pid] = p
		}
		p.cpu = max(p.cpu, cpu)
	}
}

// cpuOf is the user + system time of pid (/proc/PID/stat fields 14 and 15).
func cpuOf(pid int) (time.Duration, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, false
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	s, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	const hz = 100 // USER_HZ on Linux
	return time.Duration(u+s) * time.Second / hz, true
}

// kindOf names a process by its program, and a Chromium child by its
// --type (renderer, gpu-process, utility, zygote).
func kindOf(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil || len(b) == 0 {
		return ""
	}
	args := strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
	// Chromium's children rewrite their command line into one string.
	if len(args) == 1 {
		args = strings.Fields(args[0])
	}
	name := filepath.Base(args[0])
	for _, a := range args[1:] {
		if t, ok := strings.CutPrefix(a, "--type="); ok {
			return "chromium " + t
		}
	}
	if strings.Contains(name, "chrom") {
		return "chromium browser"
	}
	return name
}
