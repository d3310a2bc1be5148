package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/adtest/adtest/internal/testsupport/adbtest"
	"github.com/adtest/adtest/reporters/html"
)

// readmeBlock is one ```sh block of the README with the marker above it:
// `<!-- readme-test: run -->` or `<!-- readme-test: skip: REASON -->`.
type readmeBlock struct {
	line int // of the opening fence
	run  bool
	body string
}

var readmeMarker = regexp.MustCompile(`^<!-- readme-test: (run|skip: \S.*) -->$`)

// readmeBlocks reads every ```sh block; a block without a marker, a marker
// without a block, or a skip without its reason is an error, so no block can
// leave the test unnoticed.
func readmeBlocks(src []byte) ([]readmeBlock, error) {
	var blocks []readmeBlock
	var marker string
	markerLine := 0
	var cur *readmeBlock
	sc := bufio.NewScanner(bytes.NewReader(src))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur != nil && line == "```":
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.body += line + "\n"
		case strings.HasPrefix(line, "<!-- readme-test"):
			m := readmeMarker.FindStringSubmatch(line)
			if m == nil {
				return nil, fmt.Errorf("README.md:%d: a marker is `<!-- readme-test: run -->` or `<!-- readme-test: skip: REASON -->`", n)
			}
			marker, markerLine = m[1], n
		case line == "```sh":
			if marker == "" || markerLine != n-1 {
				return nil, fmt.Errorf("README.md:%d: a ```sh block needs a readme-test marker on the line above it", n)
			}
			cur = &readmeBlock{line: n, run: marker == "run"}
			marker = ""
		default:
			if marker != "" {
				return nil, fmt.Errorf("README.md:%d: the readme-test marker is not followed by a ```sh block", markerLine)
			}
		}
	}
	if cur != nil {
		return nil, fmt.Errorf("README.md:%d: unclosed ```sh block", cur.line)
	}
	if marker != "" {
		return nil, fmt.Errorf("README.md:%d: the readme-test marker is not followed by a ```sh block", markerLine)
	}
	return blocks, nil
}

// TestREADME runs the README's ```sh blocks marked run, in order, in one
// bash (job control on, as in a terminal: `kill %1` stops the app), on a
// copy of the repository's tracked files, as a newcomer would paste them.
// The one change: the example app's port 8080 becomes a free port, so that
// the test never meets another server there. Blocks marked skip say why
// (make demo installs packages; show-report serves until Ctrl-C).
func TestREADME(t *testing.T) {
	if testing.Short() && os.Getenv("CI") != "true" {
		t.Skip("-short: the README's blocks build adtest and run the example suite in Chromium (never skipped under CI=true)")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks, err := readmeBlocks(src)
	if err != nil {
		t.Fatal(err)
	}
	port, err := adbtest.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	var script strings.Builder
	script.WriteString("set -euo pipefail\nset -m\ntrap 'kill $(jobs -p) 2>/dev/null || true' EXIT\n")
	ran := 0
	for _, b := range blocks {
		if !b.run {
			continue
		}
		ran++
		script.WriteString("# README.md:" + strconv.Itoa(b.line) + "\n")
		script.WriteString("echo \"readme-block " + strconv.Itoa(b.line) + " $(date +%s.%N)\"\n")
		script.WriteString(strings.ReplaceAll(b.body, "127.0.0.1:8080", "127.0.0.1:"+strconv.Itoa(port)))
	}
	if ran < 5 {
		t.Fatalf("only %d README blocks are marked run", ran)
	}

	work := t.TempDir()
	copyTracked(t, root, work)
	run := filepath.Join(work, ".run")
	if err := os.Mkdir(run, 0o700); err != nil {
		t.Fatal(err)
	}
	tmp, err := os.MkdirTemp("", "adrm") // short: Chromium's socket paths
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	env := append(os.Environ(), "XDG_RUNTIME_DIR="+run, "ADTEST_DAEMON_DIR="+filepath.Join(run, "adtest"),
		"ADTEST_DAEMON_IDLE_TIMEOUT=2m", "TMPDIR="+tmp, "NO_COLOR=1", "CI=true")
	if p, err := exec.LookPath("chromium"); err == nil {
		env = append(env, "ADTEST_CHROME="+p)
	}
	t.Cleanup(func() {
		// The daemon the interactive block started, whatever happened.
		stop := exec.Command(filepath.Join(work, "bin", "adtest"), "daemon", "stop")
		stop.Env = env
		stop.Dir = work
		stop.WaitDelay = 30 * time.Second
		if out, err := stop.CombinedOutput(); err != nil && !strings.Contains(string(out), "not running") {
			t.Logf("daemon stop: %v\n%s", err, out)
		}
	})

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", script.String())
	cmd.Dir = work
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	out, err := cmd.CombinedOutput()
	logBlockTimes(t, out, time.Now())
	if err != nil {
		t.Fatalf("the README's commands failed: %v\nscript:\n%s\noutput:\n%s", err, script.String(), out)
	}
	for _, want := range []string{
		"adtest ", // --version
		"html report: .adtest/report/index.html",
		"--last-failed: no test failed in the last run",
		"Found text \"Hello Ada\"",
		"Saved script ",
		"1 passed, 0 failed",
		"failed, as it should",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the README's output lacks %q:\n%s", want, out)
		}
	}
	if b, err := os.ReadFile(filepath.Join(work, "flows", "login.ad")); err != nil || !bytes.Contains(b, []byte("Hello Ada")) {
		t.Errorf("flows/login.ad does not keep the wait for the greeting (%v):\n%s", err, b)
	}
}

// logBlockTimes logs how long each README block took, from the
// "readme-block LINE UNIXTIME" lines the script prints before each block:
// the test is among the gate's longest, and this says which block to blame.
func logBlockTimes(t *testing.T, out []byte, end time.Time) {
	t.Helper()
	type mark struct {
		line string
		at   float64
	}
	var marks []mark
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.Fields(l)
		if len(f) != 3 || f[0] != "readme-block" {
			continue
		}
		at, err := strconv.ParseFloat(f[2], 64)
		if err != nil {
			continue
		}
		marks = append(marks, mark{f[1], at})
	}
	for i, m := range marks {
		next := float64(end.UnixNano()) / 1e9
		if i+1 < len(marks) {
			next = marks[i+1].at
		}
		t.Logf("README.md:%s block took %.1fs", m.line, next-m.at)
	}
}

// copyTracked copies the files git tracks under root into dst: a fresh
// clone without the history.
func copyTracked(t *testing.T, root, dst string) {
	t.Helper()
	ls := exec.Command("git", "ls-files", "-z")
	ls.Dir = root
	out, err := ls.Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		b, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			if os.IsNotExist(err) {
				continue // deleted in the work tree
			}
			t.Fatal(err)
		}
		info, err := os.Stat(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dst, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, info.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
}

// make demo writes the HTML report where show-report looks without an
// argument.
func TestMakeDemoReportDir(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`--reporter html(=(\S+))?`).FindAllStringSubmatch(string(b), -1)
	if len(m) == 0 {
		t.Fatal("make demo writes no HTML report")
	}
	for _, x := range m {
		if x[2] != "" && filepath.Clean(x[2]) != filepath.Clean(html.DefaultDir) {
			t.Errorf("the Makefile writes the HTML report to %s; show-report looks in %s", x[2], html.DefaultDir)
		}
	}
}

func TestReadmeBlocksNeedMarkers(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"block without marker", "text\n```sh\nls\n```\n"},
		{"skip without reason", "<!-- readme-test: skip -->\n```sh\nls\n```\n"},
		{"marker without block", "<!-- readme-test: run -->\ntext\n"},
		{"marker at the end", "<!-- readme-test: run -->\n"},
	} {
		if _, err := readmeBlocks([]byte(tc.src)); err == nil {
			t.Errorf("%s: %q was accepted", tc.name, tc.src)
		}
	}
	b, err := readmeBlocks([]byte("<!-- readme-test: run -->\n```sh\nls\n```\n<!-- readme-test: skip: slow -->\n```sh\nmake\n```\n"))
	if err != nil || len(b) != 2 || !b[0].run || b[0].body != "ls\n" || b[1].run {
		t.Errorf("got %+v, %v", b, err)
	}
}
