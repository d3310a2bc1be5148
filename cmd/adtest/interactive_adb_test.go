package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/adtest/adtest/daemon"
)

// TestInteractiveAndroidRoundTrip: the same interactive commands and
// recorder on Android — the example app on the fake device behind the real
// adb server, a daemon from `adtest daemon serve` (in this process), and
// the CLI's Main — then the recording replays with adtest run.
func TestInteractiveAndroidRoundTrip(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	srv := startADBServer(ctx, t)
	connectExampleDevice(ctx, t, srv)

	tmp, err := os.MkdirTemp("", "adti")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	dir := filepath.Join(tmp, "adtest")
	env := map[string]string{"ADTEST_DAEMON_DIR": dir, "NO_COLOR": "1"}
	call := cliCall{cwd: tmp, getenv: env}
	dctx, stop := context.WithCancel(ctx)
	served := make(chan int, 1)
	go func() {
		code, _, stderr := runMainCall(dctx, t, call, "daemon", "serve", "--dir", dir, "--adb-server", srv.Addr(), "--idle-timeout", "0")
		if code != ExitOK {
			t.Errorf("daemon serve: exit %d\n%s", code, stderr)
		}
		served <- code
	}()
	defer func() {
		stop()
		<-served
		if _, err := os.Stat(filepath.Join(dir, daemon.SocketName)); err == nil {
			t.Error("socket left behind")
		}
	}()
	// Wait until the daemon listens (it runs in this process, so no command
	// starts one): daemon.json is written once the socket accepts.
	deadline := time.Now().Add(20 * time.Second)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		if daemonPID(dir) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the daemon did not start")
		}
		<-tick.C
	}

	adt := func(args ...string) string {
		t.Helper()
		code, stdout, stderr := runMainCall(ctx, t, call, args...)
		if code != ExitOK {
			t.Fatalf("adtest %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, stdout, stderr)
		}
		return stdout
	}
	adt("open", "com.adtest.demo", "--platform", "android", "--save-script=rec.ad")
	if out := adt("snapshot", "-i"); !strings.Contains(out, `@e1 [edittext] "Email" id="com.adtest.demo:id/email"`) {
		t.Fatalf("snapshot -i:\n%s", out)
	}
	adt("fill", "@e1", "ada@example.com")
	adt("snapshot", "-i")
	adt("fill", "@e2", "secret", "--record-as", "PASSWORD")
	adt("snapshot", "-i")
	adt("click", "@e3")
	adt("wait", `text="Signed in"`, "3000")
	adt("close")
	b, err := os.ReadFile(filepath.Join(tmp, "rec.ad"))
	if err != nil {
		t.Fatal(err)
	}
	rec := string(b)
	t.Logf("recording:\n%s", rec)
	if regexp.MustCompile(`@e\d|~s\d|secret`).MatchString(rec) || !strings.HasPrefix(rec, "context platform=android ") ||
		!strings.Contains(rec, "\nclick \"id=\\\"com.adtest.demo:id/signin\\\"") || !strings.Contains(rec, `"${PASSWORD}"`) {
		t.Fatalf("recording:\n%s", rec)
	}
	code, stdout, stderr := runMainCall(ctx, t, cliCall{cwd: tmp}, "run", "--adb-server", srv.Addr(), "-e", "PASSWORD=secret", "--artifacts-dir", "art", "rec.ad")
	if code != ExitOK || !strings.Contains(stdout, "1 passed") {
		t.Fatalf("replay: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}
