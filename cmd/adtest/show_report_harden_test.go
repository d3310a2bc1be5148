package main

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// getHost is GET url with the Host header host ("" keeps the URL's).
func getHost(t *testing.T, url, host string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	c := http.Client{Timeout: 5 * time.Second}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestShowReportServesOnlyTheReport: a report directory from elsewhere (a
// downloaded CI artifact) may carry symlinks and odd files; show-report
// serves its regular files only, lists no directory, and answers only
// requests addressed to itself by a loopback name (DNS rebinding).
func TestShowReportServesOnlyTheReport(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"rep/index.html":     "<h1>report</h1>",
		"rep/data/0a1b.png":  "PNG",
		"outside/secret.txt": "TOP SECRET",
		"outside/sub/x.png":  "OUTSIDE",
	})
	rep := filepath.Join(dir, "rep")
	for link, target := range map[string]string{
		"data/pw":    filepath.Join(dir, "outside", "secret.txt"),
		"data/rel":   "../../outside/secret.txt",
		"linkdir":    filepath.Join(dir, "outside", "sub"),
		"data/inner": "0a1b.png", // even a link that stays inside
	} {
		if err := os.Symlink(target, filepath.Join(rep, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(rep, "data", "pipe.png"), 0o644); err != nil {
		t.Fatal(err)
	}
	url, stop := serveReport(t, dir, "rep")
	defer stop()
	host := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/")
	port := host[strings.LastIndex(host, ":")+1:]

	for _, tc := range []struct {
		path, host string
		code       int
		body       string // the body contains it
	}{
		{"", "", 200, "<h1>report</h1>"},
		{"data/0a1b.png", "", 200, "PNG"},
		{"data/0a1b.png", "localhost:" + port, 200, "PNG"},
		{"data/0a1b.png", "[::1]:" + port, 200, "PNG"},
		{"data/pw", "", 403, "symlinks are not served"},
		{"data/rel", "", 403, "symlinks are not served"},
		{"linkdir/x.png", "", 403, "symlinks are not served"},
		{"data/inner", "", 403, "symlinks are not served"},
		{"data/", "", 404, "404 page not found"},
		{"data", "", 404, "404 page not found"},
		{"data/pipe.png", "", 404, "404 page not found"},
		{"index.html", "rebound.attacker.example:" + port, 421, "answers only to 127.0.0.1"},
		{"index.html", "127.0.0.1:1", 421, "answers only to 127.0.0.1"},
	} {
		code, body := getHost(t, url+tc.path, tc.host)
		if code != tc.code || !strings.Contains(body, tc.body) {
			t.Errorf("GET /%s (Host %q) = %d %q; want %d with %q", tc.path, tc.host, code, body, tc.code, tc.body)
		}
		if strings.Contains(body, "TOP SECRET") || strings.Contains(body, "OUTSIDE") || strings.Contains(body, "0a1b.png\"") {
			t.Errorf("GET /%s served what it must not: %q", tc.path, body)
		}
	}
}
