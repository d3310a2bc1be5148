package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// openPty opens a pseudo-terminal pair of cols columns with the standard
// library alone: /dev/ptmx, unlock, the slave's number.
func openPty(t *testing.T, cols int) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	ioctl := func(req uintptr, arg unsafe.Pointer) {
		if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), req, uintptr(arg)); errno != 0 {
			m.Close()
			t.Fatalf("ioctl %#x: %v", req, errno)
		}
	}
	var unlock int32
	ioctl(syscall.TIOCSPTLCK, unsafe.Pointer(&unlock))
	var n uint32
	ioctl(syscall.TIOCGPTN, unsafe.Pointer(&n))
	ws := struct{ row, col, x, y uint16 }{24, uint16(cols), 0, 0}
	ioctl(syscall.TIOCSWINSZ, unsafe.Pointer(&ws))
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		t.Fatal(err)
	}
	return m, s
}

// runOnPty runs `adtest args...` (this test binary as adtest) in dir with
// its stdin, stdout and stderr on a pseudo-terminal, and returns all it
// wrote there.
func runOnPty(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	master, slave := openPty(t, 72)
	defer master.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe)
	cmd.Args = append([]string{"adtest"}, args...)
	cmd.Dir = dir
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}, env...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	var out bytes.Buffer
	read := make(chan struct{})
	go func() {
		defer close(read)
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			out.Write(buf[:n])
			if err != nil {
				return // EIO once the child's side is closed
			}
		}
	}()
	cmd.Wait()
	master.SetReadDeadline(time.Now().Add(5 * time.Second))
	<-read
	if ctx.Err() != nil {
		t.Fatalf("adtest %s did not finish within 60s:\n%s", strings.Join(args, " "), out.String())
	}
	return strings.ReplaceAll(out.String(), "\r\n", "\n")
}

var sgr = regexp.MustCompile(`\x1b\[[0-9;]*m`)

// TestLiveProgressOnTerminal runs a suite on a pseudo-terminal: the live
// status area is drawn and erased (cursor up, clear to end) and finished
// lines scroll above it; NO_COLOR and --no-color drop the colors but keep the
// area; TERM=dumb and a pipe get plain lines.
func TestLiveProgressOnTerminal(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"screens.txt": "open demo -> home\nhang fill\nscreen home\n  textbox \"Email\" id=email editable\n",
		"suite/a.ad":  "context platform=web\nopen demo\n",
		"suite/b.ad":  "context platform=web timeout=1200\nopen demo\nfill \"id=email\" x@example.com\n",
	})
	args := []string{"run", "--fake-device", "screens.txt", "suite"}

	out := runOnPty(t, dir, []string{"TERM=xterm-256color"}, args...)
	for _, want := range []string{
		"Running 2 tests using 1 worker\n",
		"  [0/2] 0 passed, 0 failed",
		"\x1b[J",
		"passed   a (suite/a.ad)",
		"  [1/2] 1 passed, 0 failed",
		"  worker 0  b  step 2/2 fill \"id=email\" \"x@example.com\"  ",
		"timedOut b (suite/b.ad)",
	} {
		if !strings.Contains(sgr.ReplaceAllString(out, ""), want) {
			t.Errorf("terminal output lacks %q:\n%q", want, out)
		}
	}
	if !sgr.MatchString(out) {
		t.Errorf("no colors on a terminal:\n%q", out)
	}
	if !strings.HasSuffix(out, "1 passed, 0 failed, 0 flaky, 0 skipped, 1 timed out\n") {
		t.Errorf("the summary is not the last thing on the terminal:\n%q", out)
	}
	if i, j := strings.LastIndex(out, "\x1b[J"), strings.Index(out, "Failures:"); i > j {
		t.Errorf("the status area was drawn after the summary began:\n%q", out)
	}

	for _, tc := range []struct {
		name string
		env  []string
		args []string
	}{
		{"NO_COLOR", []string{"TERM=xterm-256color", "NO_COLOR=1"}, args},
		{"--no-color", []string{"TERM=xterm-256color"}, append([]string{"run", "--no-color"}, args[1:]...)},
	} {
		out := runOnPty(t, dir, tc.env, tc.args...)
		if sgr.MatchString(out) {
			t.Errorf("%s: colors written:\n%q", tc.name, out)
		}
		if !strings.Contains(out, "\x1b[J") {
			t.Errorf("%s: no live status area on a terminal:\n%q", tc.name, out)
		}
	}

	out = runOnPty(t, dir, []string{"TERM=dumb"}, args...)
	if strings.Contains(out, "\x1b") {
		t.Errorf("TERM=dumb: escape sequences written:\n%q", out)
	}

	code, stdout, _ := runMain(t, dir, args...)
	if code != ExitFailed || strings.Contains(stdout, "\x1b") || !strings.Contains(stdout, "[2/2] timedOut b (suite/b.ad)") {
		t.Errorf("not a terminal: exit %d, want 1 and plain lines:\n%q", code, stdout)
	}
}
