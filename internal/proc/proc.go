// Package proc is adtest's one reader of Linux's /proc: the processes of the
// machine (pid, parent, process group, state, start time, arguments), this
// process's resident set, the bound Unix sockets, the listening TCP sockets
// and who holds them, and the kernel's ephemeral port range. Where there is no /proc (other systems, a sandbox without
// it) every reader answers "nothing": an empty list, false or zero, never
// an error the caller must handle.
//
// Callers: the daemon (its helpers and its memory figure), the web driver
// (Chromium's profile owners and leftovers), the suite runner (a served
// app's process group) and the test rigs.
package proc

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Root is where the process filesystem is mounted.
const Root = "/proc"

// Process is what adtest reads of one /proc/PID/stat line.
type Process struct {
	PID  int
	PPID int
	// PGRP is the process group.
	PGRP int
	// State is the one-letter state: R, S, D, Z (zombie), X (dead), ...
	State byte
	// Start is the start time in clock ticks since boot (field 22): with
	// the pid it names one process even after the pid is reused.
	Start uint64
	// CPUTicks is the CPU time the process has used, user and system
	// (fields 14 and 15), in clock ticks (USER_HZ: 100 a second on Linux).
	CPUTicks uint64
}

// Live reports a process that runs or sleeps: neither a zombie nor dead.
func (p Process) Live() bool { return p.State != 'Z' && p.State != 'X' }

// Stat reads the process pid; false when there is no such process (or no
// /proc).
func Stat(pid int) (Process, bool) {
	b, err := os.ReadFile(filepath.Join(Root, strconv.Itoa(pid), "stat"))
	if err != nil {
		return Process{}, false
	}
	return parseStat(pid, b)
}

// parseStat reads "pid (comm) state ppid pgrp ... starttime ...". The
// command name may hold spaces and parentheses, so the fields are counted
// from the last ')'.
func parseStat(pid int, b []byte) (Process, bool) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return Process{}, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 20 || len(f[0]) == 0 {
		return Process{}, false
	}
	p := Process{PID: pid, State: f[0][0]}
	p.PPID, _ = strconv.Atoi(string(f[1]))
	p.PGRP, _ = strconv.Atoi(string(f[2]))
	p.Start, _ = strconv.ParseUint(string(f[19]), 10, 64)
	utime, _ := strconv.ParseUint(string(f[11]), 10, 64)
	stime, _ := strconv.ParseUint(string(f[12]), 10, 64)
	p.CPUTicks = utime + stime
	return p, true
}

// PIDs lists the ids of the machine's processes, in no particular order;
// nil where there is no /proc.
func PIDs() []int {
	ents, err := os.ReadDir(Root)
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range ents {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			out = append(out, pid)
		}
	}
	return out
}

// All lists the processes of the machine, in no particular order; nil where
// there is no /proc. A process that exits while it is read is left out.
func All() []Process {
	var out []Process
	for _, pid := range PIDs() {
		if p, ok := Stat(pid); ok {
			out = append(out, p)
		}
	}
	return out
}

// Descendants lists the processes below pid (children, their children,
// ...), parents before their children; pid itself is not in the list.
func Descendants(pid int) []Process {
	children := map[int][]Process{}
	for _, p := range All() {
		children[p.PPID] = append(children[p.PPID], p)
	}
	var out []Process
	var walk func(int)
	walk = func(pid int) {
		for _, c := range children[pid] {
			out = append(out, c)
			walk(c.PID)
		}
	}
	walk(pid)
	return out
}

// Args is the command line of pid, nil when there is no such process.
// Arguments are split at NULs and at spaces: Chromium's child processes
// rewrite their title, which can join their arguments with spaces.
func Args(pid int) []string {
	b, err := os.ReadFile(filepath.Join(Root, strconv.Itoa(pid), "cmdline"))
	if err != nil {
		return nil
	}
	return splitArgs(string(b))
}

func splitArgs(cmdline string) []string {
	return strings.FieldsFunc(cmdline, func(r rune) bool { return r == 0 || r == ' ' })
}

// SelfRSS is this process's resident set size in bytes, 0 where /proc does
// not say.
func SelfRSS() int64 {
	b, err := os.ReadFile(filepath.Join(Root, "self", "status"))
	if err != nil {
		return 0
	}
	return parseRSS(string(b))
}

func parseRSS(status string) int64 {
	for _, ln := range strings.Split(status, "\n") {
		if rest, ok := strings.CutPrefix(ln, "VmRSS:"); ok {
			if f := strings.Fields(rest); len(f) > 0 {
				kb, _ := strconv.ParseInt(f[0], 10, 64)
				return kb * 1024
			}
		}
	}
	return 0
}

// UnixSockets returns the paths of the machine's bound Unix sockets
// (/proc/net/unix), nil where /proc does not say.
func UnixSockets() map[string]bool {
	b, err := os.ReadFile(filepath.Join(Root, "net", "unix"))
	if err != nil {
		return nil
	}
	return parseUnixSockets(string(b))
}

func parseUnixSockets(table string) map[string]bool {
	out := map[string]bool{}
	lines := strings.Split(table, "\n")
	if len(lines) > 0 {
		lines = lines[1:] // the header
	}
	for _, line := range lines {
		if f := strings.Fields(line); len(f) >= 8 {
			out[f[7]] = true
		}
	}
	return out
}

// EphemeralLow is the first port of the kernel's ephemeral range (where
// bind to port 0 and outgoing connections draw from), 0 where the system
// does not say.
func EphemeralLow() int {
	b, err := os.ReadFile(filepath.Join(Root, "sys", "net", "ipv4", "ip_local_port_range"))
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) != 2 {
		return 0
	}
	n, err := strconv.Atoi(f[0])
	if err != nil {
		return 0
	}
	return n
}

// Listener is one listening TCP socket of /proc/net/tcp or tcp6.
type Listener struct {
	IP    net.IP // the bound address: unspecified for a wildcard bind
	Port  int
	UID   int
	Inode uint64
}

// TCPListeners returns the machine's listening TCP sockets on port (IPv4
// and IPv6), nil where /proc does not say.
func TCPListeners(port int) []Listener {
	var out []Listener
	for _, name := range []string{"tcp", "tcp6"} {
		b, err := os.ReadFile(filepath.Join(Root, "net", name))
		if err != nil {
			continue
		}
		for _, l := range parseTCPListeners(string(b)) {
			if l.Port == port {
				out = append(out, l)
			}
		}
	}
	return out
}

// tcpListen is the state column's value of a listening socket.
const tcpListen = "0A"

// parseTCPListeners reads a /proc/net/tcp table: "sl local rem st tx:rx tr
// retrnsmt uid timeout inode ...", addresses as hex words in the host's
// byte order and the port in big-endian hex.
func parseTCPListeners(table string) []Listener {
	var out []Listener
	lines := strings.Split(table, "\n")
	if len(lines) > 0 {
		lines = lines[1:] // the header
	}
	for _, line := range lines {
		f := strings.Fields(line)
		if len(f) < 10 || f[3] != tcpListen {
			continue
		}
		addr, port, ok := strings.Cut(f[1], ":")
		if !ok {
			continue
		}
		ip, ok := parseHexIP(addr)
		if !ok {
			continue
		}
		p, err := strconv.ParseUint(port, 16, 16)
		if err != nil {
			continue
		}
		uid, _ := strconv.Atoi(f[7])
		inode, _ := strconv.ParseUint(f[9], 10, 64)
		out = append(out, Listener{IP: ip, Port: int(p), UID: uid, Inode: inode})
	}
	return out
}

// parseHexIP reads an address of /proc/net/tcp{,6}: 8 or 32 hex digits,
// each 32-bit word in the host's byte order.
func parseHexIP(s string) (net.IP, bool) {
	if len(s) != 8 && len(s) != 32 {
		return nil, false
	}
	raw, err := hex.DecodeString(s)
	if err != nil {
		return nil, false
	}
	ip := make(net.IP, len(raw))
	for w := 0; w < len(raw); w += 4 {
		// The kernel prints each word as a number (most significant digit
		// first) of the bytes as they lie in memory.
		binary.NativeEndian.PutUint32(ip[w:], binary.BigEndian.Uint32(raw[w:]))
	}
	return ip, true
}

// SocketOwners returns the processes among pids (all of the machine's when
// pids is nil) that hold the socket inode open. A process this user may
// not read is left out.
func SocketOwners(inode uint64, pids []int) []int {
	if pids == nil {
		pids = PIDs()
	}
	want := "socket:[" + strconv.FormatUint(inode, 10) + "]"
	var out []int
	for _, pid := range pids {
		dir := filepath.Join(Root, strconv.Itoa(pid), "fd")
		ents, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range ents {
			if l, err := os.Readlink(filepath.Join(dir, e.Name())); err == nil && l == want {
				out = append(out, pid)
				break
			}
		}
	}
	return out
}
