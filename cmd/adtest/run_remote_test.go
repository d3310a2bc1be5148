package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestRunRemoteAuthFailedExit3: a pool that refuses the token in --cdp-url
// fails the run as infrastructure (exit 3), saying authentication failed,
// for the websocket and the http form of the URL, without printing the token.
func TestRunRemoteAuthFailedExit3(t *testing.T) {
	pool := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "Unauthorized", http.StatusUnauthorized)
	}))
	defer pool.Close()
	host := strings.TrimPrefix(pool.URL, "http://")
	dir := writeFiles(t, map[string]string{"a.ad": "context platform=web\nopen about:blank\n"})
	for _, u := range []string{"ws://" + host + "/chromium?token=wrong-token", "http://" + host + "/?token=wrong-token"} {
		code, stdout, stderr := runMain(t, dir, "run", "--cdp-url", u, "--artifacts-dir", "art", "a.ad")
		if code != ExitInfra || !strings.Contains(stdout+stderr, "authentication failed") || strings.Contains(stdout+stderr, "wrong-token") {
			t.Errorf("%s: exit %d, want %d with \"authentication failed\" and no token\nstdout:\n%s\nstderr:\n%s", u, code, ExitInfra, stdout, stderr)
		}
	}
}
