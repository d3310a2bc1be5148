package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// serveReport runs `adtest show-report args...` in dir until stop is
// called; it returns the URL the command printed.
func serveReport(t *testing.T, dir string, args ...string) (url string, stop func() int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	var errb bytes.Buffer
	env := &Env{Stdout: pw, Stderr: &errb, Cwd: dir, Getenv: func(string) string { return "" }, FS: osFS{}, Now: time.Now}
	done := make(chan int, 1)
	go func() {
		done <- Main(ctx, append([]string{"show-report"}, args...), env)
		pw.Close()
	}()
	lines := make(chan string, 4)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	deadline := time.NewTimer(10 * time.Second)
	defer deadline.Stop()
	select {
	case first, ok := <-lines:
		if !ok {
			cancel()
			t.Fatalf("show-report printed nothing: exit %d, stderr %q", <-done, errb.String())
		}
		m := regexp.MustCompile(`^Serving the HTML report \S+ at (http://127\.0\.0\.1:\d+/)$`).FindStringSubmatch(first)
		if m == nil {
			cancel()
			t.Fatalf("first line %q does not give a loopback URL", first)
		}
		url = m[1]
	case <-deadline.C:
		cancel()
		t.Fatal("show-report printed no URL within 10s")
	}
	return url, func() int {
		cancel()
		timer := time.NewTimer(5 * time.Second)
		defer timer.Stop()
		select {
		case code := <-done:
			return code
		case <-timer.C:
			t.Fatal("show-report did not stop within 5s of Ctrl-C")
			return -1
		}
	}
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	c := http.Client{Timeout: 5 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestShowReport(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		".adtest/report/index.html": "<h1>default report</h1>",
		"out/report/index.html":     "<h1>merged report</h1>",
		"out/report/data/0a1b.png":  "PNG",
		"out/report/../secret.txt":  "not served",
		"empty/.keep":               "",
	})

	// The default directory, on a free port.
	url, stop := serveReport(t, dir)
	if code, body := get(t, url); code != 200 || body != "<h1>default report</h1>" {
		t.Errorf("GET %s = %d %q", url, code, body)
	}
	if code := stop(); code != ExitOK {
		t.Errorf("exit %d after Ctrl-C, want 0", code)
	}

	// A directory and --port: only that directory is served.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	url, stop = serveReport(t, dir, "--port", strconv.Itoa(port), "out/report")
	defer stop()
	if want := "http://127.0.0.1:" + strconv.Itoa(port) + "/"; url != want {
		t.Errorf("url = %s, want %s", url, want)
	}
	if code, body := get(t, url+"data/0a1b.png"); code != 200 || body != "PNG" {
		t.Errorf("GET data/0a1b.png = %d %q", code, body)
	}
	if code, _ := get(t, url+"../secret.txt"); code == 200 {
		t.Error("a file outside the report directory was served")
	}
	if code, body := get(t, url); code != 200 || !strings.Contains(body, "merged report") {
		t.Errorf("GET / = %d %q", code, body)
	}
}

func TestShowReportErrors(t *testing.T) {
	dir := writeFiles(t, map[string]string{"empty/.keep": ""})
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no report", []string{"empty"}, "adtest show-report: no report in empty (no index.html)\nhint: write one with `adtest run --reporter html[=DIR] ...` or `adtest merge-reports --reporter html[=DIR] ...`\n"},
		{"default missing", nil, "adtest show-report: no report in .adtest/report (no index.html)\n"},
		{"two dirs", []string{"a", "b"}, "adtest show-report: give one report directory, got 2\n"},
		{"bad port", []string{"--port", "70000"}, "adtest show-report: --port must be between 0 and 65535, got 70000\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runMain(t, dir, append([]string{"show-report"}, tc.args...)...)
			if code != ExitUsage || !strings.HasPrefix(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr, tc.want)
			}
		})
	}
}
