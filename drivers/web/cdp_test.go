package web

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/adtest/adtest/drivers"
)

func TestResolveCDP(t *testing.T) {
	var got []string
	pool := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.URL.String())
		switch {
		case r.URL.Query().Get("token") != "T":
			http.Error(w, "no", http.StatusUnauthorized)
		case r.URL.Path == "/json/version", r.URL.Path == "/pool/json/version":
			w.Write([]byte(`{"Browser":"Chrome","webSocketDebuggerUrl":"ws://127.0.0.1:9222/devtools/browser/abc"}`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer pool.Close()
	host := strings.TrimPrefix(pool.URL, "http://")
	ctx := context.Background()
	for _, tc := range []struct{ in, want string }{
		{"ws://h:3000/chromium?token=T&launch=%7B%7D", "ws://h:3000/chromium?token=T&launch=%7B%7D"},
		{"wss://grid.example/session/42/se/cdp", "wss://grid.example/session/42/se/cdp"},
		{pool.URL + "/?token=T", "ws://" + host + "/devtools/browser/abc?token=T"},
		{pool.URL + "/pool?token=T", "ws://" + host + "/devtools/browser/abc?token=T"},
	} {
		ws, err := resolveCDP(ctx, tc.in)
		if err != nil || ws != tc.want {
			t.Errorf("resolveCDP(%s) = %q, %v; want %q", tc.in, ws, err, tc.want)
		}
	}
	if got[0] != "/json/version?token=T" || got[1] != "/pool/json/version?token=T" {
		t.Errorf("requests %q", got)
	}
	_, err := resolveCDP(ctx, pool.URL+"/?token=bad")
	if !errors.Is(err, ErrAuth) || !errors.Is(err, drivers.ErrInfrastructure) || strings.Contains(err.Error(), "bad") {
		t.Errorf("wrong token: %v", err)
	}
	if _, err := resolveCDP(ctx, "ftp://h/"); err == nil || !strings.Contains(err.Error(), "must start with ws://") {
		t.Errorf("ftp: %v", err)
	}
}

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"ws://h:3000/chromium?token=T": "ws://h:3000/chromium?token=***",
		"wss://u:pw@h/x":               "wss://u@h/x",
		"http://h:9222":                "http://h:9222",
	} {
		if got := redactURL(in); got != want {
			t.Errorf("redactURL(%s) = %s, want %s", in, got, want)
		}
	}
}
