package main

import (
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunGridBadInput: what is wrong with --grid is one line that names the
// cause and the fix, exit 3 when the Grid is at fault (no test result: no
// test ran, none failed) and 2 when the flags are; the password never shows.
func TestRunGridBadInput(t *testing.T) {
	notGrid := httptest.NewServer(http.NotFoundHandler())
	defer notGrid.Close()
	refuses := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
	}))
	defer refuses.Close()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String()
	l.Close()
	dir := writeFiles(t, map[string]string{"a.ad": "context platform=web\nopen about:blank\n", "caps.json": `{"browserName":`})
	tests := []struct {
		name   string
		args   []string
		getenv map[string]string
		code   int
		want   string
	}{
		{"unreachable", []string{"--grid", closed}, nil, ExitInfra,
			"adtest run: infrastructure failure: could not reach the Selenium Grid at " + closed + " (connection refused); check --grid and that the hub runs"},
		{"not a grid, from ADTEST_GRID", nil, map[string]string{"ADTEST_GRID": notGrid.URL}, ExitInfra,
			"adtest run: infrastructure failure: " + notGrid.URL + " is not a Selenium Grid (GET /status answered 404 Not Found); give the URL of the Grid's hub or router, e.g. http://host:4444"},
		{"wrong credentials", []string{"--grid", strings.Replace(refuses.URL, "http://", "http://ci:hunter22@", 1)}, nil, ExitInfra,
			"adtest run: infrastructure failure: authentication failed: the Selenium Grid at " + strings.Replace(refuses.URL, "http://", "http://ci@", 1) + " refused the credentials (401 Unauthorized); check the user and password (or the token) in --grid"},
		{"capabilities not JSON", []string{"--grid", closed, "--grid-capabilities", "@caps.json"}, nil, ExitUsage,
			"adtest run: --grid-capabilities: want a JSON object such as {\"browserName\":\"chrome\"}: unexpected end of JSON input"},
		{"with --cdp-url", []string{"--grid", closed, "--cdp-url", "ws://127.0.0.1:1/x"}, nil, ExitUsage,
			"adtest run: --grid goes without --cdp-url, --browser and --browser-per-worker: the Grid's nodes run the browsers, one per worker"},
		{"timeout without grid", []string{"--grid-timeout", "5m"}, nil, ExitUsage,
			"adtest run: --grid-capabilities and --grid-timeout go with --grid (or ADTEST_GRID)"},
		{"bad timeout", []string{"--grid", closed, "--grid-timeout", "soon"}, nil, ExitUsage,
			"adtest run: --grid-timeout \"soon\": want a duration such as 5m or 90s"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			art := filepath.Join(t.TempDir(), "art")
			args := append([]string{"run", "--artifacts-dir", art}, tc.args...)
			code, stdout, stderr := runMainCall(t.Context(), t, cliCall{cwd: dir, getenv: tc.getenv}, append(args, "a.ad")...)
			if code != tc.code || strings.TrimSpace(stderr) != tc.want || strings.Contains(stdout+stderr, "hunter22") {
				t.Errorf("exit %d, want %d\nstderr: %q\n  want: %q\nstdout: %s", code, tc.code, stderr, tc.want, stdout)
			}
			if _, err := os.Stat(art); err == nil {
				if m, _ := filepath.Glob(filepath.Join(art, "*", "result.json")); len(m) > 0 {
					t.Errorf("a result was written (%v): no test should have run", m)
				}
			}
		})
	}
}

// TestGridFromProjectConfig: the project file may name the Grid, never its
// credentials; the flag wins over the file.
func TestGridFromProjectConfig(t *testing.T) {
	notGrid := httptest.NewServer(http.NotFoundHandler())
	defer notGrid.Close()
	dir := writeFiles(t, map[string]string{
		"a.ad":              "context platform=web\nopen about:blank\n",
		"agent-device.json": `{"grid":"` + notGrid.URL + `"}`,
	})
	code, _, stderr := runMain(t, dir, "run", "--artifacts-dir", filepath.Join(t.TempDir(), "art"), "a.ad")
	if code != ExitInfra || !strings.Contains(stderr, notGrid.URL+" is not a Selenium Grid") {
		t.Errorf("grid from agent-device.json: exit %d, %s", code, stderr)
	}
	secret := writeFiles(t, map[string]string{
		"a.ad":              "context platform=web\nopen about:blank\n",
		"agent-device.json": `{"grid":"http://ci:hunter22@grid:4444"}`,
	})
	code, stdout, stderr := runMain(t, secret, "run", "a.ad")
	if code != ExitUsage || !strings.Contains(stderr, `carries credentials`) || strings.Contains(stdout+stderr, "hunter22") {
		t.Errorf("credentials in agent-device.json: exit %d, %s", code, stderr)
	}
}
