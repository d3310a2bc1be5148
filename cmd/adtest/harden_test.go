package main

import (
	"context"
	"io"
	"syscall"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// mkfifo PATH: makes a named pipe (nobody ever writes to it: a reader that
// opens it blocks forever).
func cmdMkfifo(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: mkfifo PATH")
	}
	if err := syscall.Mkfifo(ts.MkAbs(args[0]), 0o644); err != nil {
		ts.Fatalf("mkfifo: %v", err)
	}
}

// TestFmtStdinInterrupted: `adtest fmt` reading a standard input nobody
// writes to returns when the context ends (Ctrl-C) instead of waiting.
func TestFmtStdinInterrupted(t *testing.T) {
	t.Parallel()
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	env := &Env{Stdin: pr, Stdout: io.Discard, Stderr: io.Discard, Cwd: t.TempDir(), FS: osFS{}}
	if code := Main(ctx, []string{"fmt"}, env); code != ExitInterrupted {
		t.Fatalf("exit %d, want %d", code, ExitInterrupted)
	}
}
