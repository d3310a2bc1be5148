package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adtest/adtest/drivers"
)

// TestTCPUnauthenticatedLearnsNoBuild: whatever a TCP peer without the token
// sends, the answer names the protocol but not this adtest build; with the
// token it does (clients refuse a daemon of another build).
func TestTCPUnauthenticatedLearnsNoBuild(t *testing.T) {
	td := startDaemon(t, func(c *Config) { c.Listen = "127.0.0.1:0" })
	big := strings.Repeat("x", MaxRequestBytes+10)
	for _, tc := range []struct {
		name, line string
		reason     drivers.Reason
	}{
		{"no token", `{"v":1,"version":"test-build","op":"status"}`, drivers.ReasonUnauthorized},
		{"wrong token", `{"v":1,"version":"other","op":"status","token":"00"}`, drivers.ReasonUnauthorized},
		{"other protocol", `{"v":99,"op":"status"}`, drivers.ReasonUnauthorized},
		{"not json", `hello`, drivers.ReasonBadRequest},
		{"too large", big, drivers.ReasonRequestTooLarge},
	} {
		resp := rawRequest(t, "tcp", td.tcp, []byte(tc.line+"\n"))
		wantReason(t, resp, tc.reason)
		b, _ := json.Marshal(resp)
		if resp.Version != "" || strings.Contains(string(b), testVersion) {
			t.Errorf("%s: the answer names the build: %s", tc.name, b)
		}
		if resp.V != ProtocolVersion {
			t.Errorf("%s: protocol %d, want %d", tc.name, resp.V, ProtocolVersion)
		}
	}
	// The client reports the refusal as it is, not as a version mismatch.
	c := &Client{Addr: td.tcp, Token: "wrong", Version: testVersion}
	wantReason(t, do(t, c, &Request{Op: OpStatus}), drivers.ReasonUnauthorized)

	token, err := ReadToken(td.dir)
	if err != nil {
		t.Fatal(err)
	}
	c = &Client{Addr: td.tcp, Token: token, Version: testVersion}
	if resp := mustOK(t, do(t, c, &Request{Op: OpStatus})); resp.Version != testVersion {
		t.Errorf("authenticated answer: version %q, want %q", resp.Version, testVersion)
	}
	// The local socket's peers (the user's own processes) see the build.
	if resp := rawRequest(t, "unix", td.sock, []byte("hello\n")); resp.Version != testVersion {
		t.Errorf("unix socket answer: version %q, want %q", resp.Version, testVersion)
	}
}

func TestCheckListen(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		addr   string
		remote bool
		ok     bool
	}{
		{"127.0.0.1:7777", false, true},
		{"127.9.9.9:0", false, true},
		{"[::1]:7777", false, true},
		{"localhost:7777", false, true},
		{"LOCALHOST:7777", false, true},
		{":7777", false, false},
		{"0.0.0.0:7777", false, false},
		{"[::]:7777", false, false},
		{"192.168.1.5:7777", false, false},
		{"devbox.example:7777", false, false},
		{"0.0.0.0:7777", true, true},
		{"devbox.example:7777", true, true},
	} {
		err := checkListen(tc.addr, tc.remote)
		if (err == nil) != tc.ok {
			t.Errorf("checkListen(%q, remote=%v) = %v, want ok=%v", tc.addr, tc.remote, err, tc.ok)
		}
		var re *ErrRemoteListen
		if err != nil && errors.As(err, &re) && !strings.Contains(err.Error(), "ssh -L") {
			t.Errorf("checkListen(%q): the refusal names no SSH tunnel: %v", tc.addr, err)
		}
	}
	if err := checkListen("7777", false); err == nil || !strings.Contains(err.Error(), "want HOST:PORT") {
		t.Errorf("checkListen(7777) = %v", err)
	}
}

// TestServeRefusesRemoteListen: Serve stops before it binds anything or
// writes a token when --listen is not loopback.
func TestServeRefusesRemoteListen(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(shortTemp(t), "adtest")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	err := Serve(ctx, Config{
		Dir: dir, Listen: "0.0.0.0:0", Version: testVersion, IdleTimeout: -1,
		Providers: func(context.Context, string) (drivers.Provider, error) { return nil, errors.New("unused") },
		// Should it listen after all, the test stops it.
		Ready: func(sock, tcp string) { t.Errorf("listening on %s and %s", sock, tcp); cancel() },
	})
	var re *ErrRemoteListen
	if !errors.As(err, &re) {
		t.Fatalf("Serve(--listen 0.0.0.0:0) = %v, want the remote-listen refusal", err)
	}
	for _, name := range []string{tokenName, SocketName} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s exists after the refusal", name)
		}
	}
}
