package adbtest_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/adtest/adtest/internal/testsupport/adbtest"
)

// TestStartServerOnTakenPort: a second server asked for a port the first
// holds is refused. (Accepted, its adb could not bind, host:version was
// answered by the first server, and the second's Close killed the first.)
func TestStartServerOnTakenPort(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	a, err := adbtest.StartServer(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if b, err := adbtest.StartServerOn(ctx, a.Port); err == nil {
		b.Close()
		t.Fatalf("a second server on port %d was accepted; the first is alive after its Close: %v", a.Port, a.Alive())
	}
	if !a.Alive() {
		t.Fatal("the first server died")
	}
}

// TestStartServerWithoutHome: scripts run with HOME=/no-home (testscript),
// where adb cannot create ~/.android and aborts at start. The server gets a
// HOME of its own, so it starts whatever the caller's HOME is.
func TestStartServerWithoutHome(t *testing.T) {
	t.Setenv("HOME", filepath.Join(t.TempDir(), "missing"))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := adbtest.StartServer(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestStartServerExitKeepsLog: a server that exits at start is reported
// with its exit status and its own output, not just "exited".
func TestStartServerExitKeepsLog(t *testing.T) {
	bin := t.TempDir()
	script := "#!/bin/sh\necho 'adb F cannot bind: the reason' >&2\nexit 3\n"
	if err := os.WriteFile(filepath.Join(bin, "adb"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := adbtest.StartServer(ctx)
	if err == nil {
		s.Close()
		t.Fatal("a server that exited at start was accepted")
	}
	for _, want := range []string{"exited at start (exit status 3)", "adb F cannot bind: the reason"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}
