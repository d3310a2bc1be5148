package proc

import (
	"net"
	"os"
	"os/exec"
	"reflect"
	"runtime"
	"testing"
)

func TestParseStat(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		line string
		want Process
		ok   bool
	}{
		{
			name: "plain",
			line: "42 (bash) S 7 42 42 34816 42 4194560 1 2 3 4 5 6 7 8 20 0 1 0 9876 1 2 3",
			want: Process{PID: 42, PPID: 7, PGRP: 42, State: 'S', Start: 9876, CPUTicks: 11},
			ok:   true,
		},
		{
			name: "a command name with spaces and parentheses is read from the last one",
			line: "43 (Web Content (x)) Z 1 5 5 0 -1 4194560 1 2 3 4 5 6 7 8 20 0 1 0 123 1 2 3",
			want: Process{PID: 43, PPID: 1, PGRP: 5, State: 'Z', Start: 123, CPUTicks: 11},
			ok:   true,
		},
		{name: "truncated", line: "44 (x) S 1 2 3", ok: false},
		{name: "no command name", line: "45 S 1 2 3", ok: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pid := tt.want.PID
			if !tt.ok {
				pid = 1
			}
			got, ok := parseStat(pid, []byte(tt.line))
			if ok != tt.ok || (ok && got != tt.want) {
				t.Errorf("parseStat = %+v, %v; want %+v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestLive(t *testing.T) {
	t.Parallel()
	for state, want := range map[byte]bool{'R': true, 'S': true, 'D': true, 'Z': false, 'X': false} {
		if got := (Process{State: state}).Live(); got != want {
			t.Errorf("state %c: Live() = %v, want %v", state, got, want)
		}
	}
}

func TestSplitArgs(t *testing.T) {
	t.Parallel()
	got := splitArgs("chromium\x00--type=renderer --user-data-dir=/tmp/p\x00\x00")
	want := []string{"chromium", "--type=renderer", "--user-data-dir=/tmp/p"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("splitArgs = %q, want %q", got, want)
	}
}

func TestParseRSS(t *testing.T) {
	t.Parallel()
	if got := parseRSS("Name:\tx\nVmPeak:\t 900 kB\nVmRSS:\t    1234 kB\nThreads: 3\n"); got != 1234*1024 {
		t.Errorf("parseRSS = %d, want %d", got, 1234*1024)
	}
	if got := parseRSS("Name:\tx\n"); got != 0 {
		t.Errorf("parseRSS without VmRSS = %d, want 0", got)
	}
}

func TestParseUnixSockets(t *testing.T) {
	t.Parallel()
	table := "Num       RefCount Protocol Flags    Type St Inode Path\n" +
		"0000000000000000: 00000002 00000000 00010000 0001 01 1234 /tmp/org.chromium.Chromium.x/SingletonSocket\n" +
		"0000000000000000: 00000002 00000000 00010000 0001 01 1235\n" +
		"0000000000000000: 00000002 00000000 00010000 0001 01 1236 @adtest-port-1\n"
	want := map[string]bool{"/tmp/org.chromium.Chromium.x/SingletonSocket": true, "@adtest-port-1": true}
	if got := parseUnixSockets(table); !reflect.DeepEqual(got, want) {
		t.Errorf("parseUnixSockets = %v, want %v", got, want)
	}
}

// The live readers against this test process and a child it starts.
func TestLiveProcesses(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc is Linux's")
	}
	self, ok := Stat(os.Getpid())
	if !ok || self.PID != os.Getpid() || self.PPID != os.Getppid() || !self.Live() || self.Start == 0 {
		t.Fatalf("Stat(self) = %+v, %v", self, ok)
	}
	cmd := exec.Command("cat")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(); cmd.Wait() })
	var child *Process
	for _, p := range Descendants(os.Getpid()) {
		if p.PID == cmd.Process.Pid {
			child = &p
		}
	}
	if child == nil || child.PPID != os.Getpid() {
		t.Fatalf("Descendants(self) misses the child %d: %+v", cmd.Process.Pid, Descendants(os.Getpid()))
	}
	if got := Args(cmd.Process.Pid); !reflect.DeepEqual(got, []string{"cat"}) {
		t.Errorf("Args(child) = %q, want [cat]", got)
	}
	if _, ok := Stat(-1); ok {
		t.Error("Stat(-1) found a process")
	}
	if SelfRSS() <= 0 {
		t.Error("SelfRSS() = 0")
	}
	if low := EphemeralLow(); low <= 0 || low > 65535 {
		t.Errorf("EphemeralLow() = %d", low)
	}
}

// A socket this process listens on is found by its port, with its address
// and inode, and this process is its owner; IPv6 too where the machine has it.
func TestTCPListenersAndOwners(t *testing.T) {
	if _, err := os.Stat("/proc/net/tcp"); err != nil {
		t.Skip("no /proc/net/tcp here")
	}
	for _, tc := range []struct{ network, addr string }{{"tcp4", "127.0.0.1:0"}, {"tcp4", "0.0.0.0:0"}, {"tcp6", "[::1]:0"}} {
		ln, err := net.Listen(tc.network, tc.addr)
		if err != nil {
			t.Logf("%s %s: %v (skipped)", tc.network, tc.addr, err)
			continue
		}
		a := ln.Addr().(*net.TCPAddr)
		ls := TCPListeners(a.Port)
		if len(ls) != 1 || !ls[0].IP.Equal(a.IP) || ls[0].UID != os.Getuid() || ls[0].Inode == 0 {
			t.Errorf("%s: listeners on %d: %+v", a, a.Port, ls)
		} else if owners := SocketOwners(ls[0].Inode, nil); !reflect.DeepEqual(owners, []int{os.Getpid()}) {
			t.Errorf("%s: owners %v, want this process %d", a, owners, os.Getpid())
		}
		ln.Close()
		if ls := TCPListeners(a.Port); len(ls) != 0 {
			t.Errorf("%s: still listed after close: %+v", a, ls)
		}
	}
}

func TestParseTCPListeners(t *testing.T) {
	t.Parallel()
	table := "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n" +
		"   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 4242 1 0 100 0 0 10 0\n" +
		"   1: 0100007F:1F90 0100007F:C350 01 00000000:00000000 00:00000000 00000000  1000        0 4243 1 0 100 0 0 10 0\n"
	got := parseTCPListeners(table)
	if len(got) != 1 || got[0].Port != 8080 || got[0].UID != 1000 || got[0].Inode != 4242 {
		t.Fatalf("got %+v", got)
	}
	if runtime.GOARCH == "amd64" || runtime.GOARCH == "arm64" {
		if !got[0].IP.Equal(net.IPv4(127, 0, 0, 1)) {
			t.Fatalf("address %v, want 127.0.0.1", got[0].IP)
		}
	}
}
