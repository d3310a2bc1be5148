package main

import (
	"context"
	"testing"
)

// TestDropInExit: replay and test map adtest's exit codes the one way:
// agent-device's 0 and 1, and 130 for a command whose context was
// interrupted before it succeeded, on whatever path it failed.
func TestDropInExit(t *testing.T) {
	t.Parallel()
	live := context.Background()
	interrupted, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		code int
		want int
	}{
		{"passed", live, ExitOK, ExitOK},
		{"failed", live, ExitFailed, ExitFailed},
		{"usage is agent-device's 1", live, ExitUsage, ExitFailed},
		{"infrastructure is agent-device's 1", live, ExitInfra, ExitFailed},
		{"interrupted run", live, ExitInterrupted, ExitInterrupted},
		{"passed as the interrupt came", interrupted, ExitOK, ExitOK},
		{"an error after an interrupt", interrupted, ExitFailed, ExitInterrupted},
		{"infrastructure after an interrupt", interrupted, ExitInfra, ExitInterrupted},
	} {
		if got := dropInExit(tc.ctx, tc.code); got != tc.want {
			t.Errorf("%s: dropInExit(%d) = %d, want %d", tc.name, tc.code, got, tc.want)
		}
	}
}

// TestDropInsInterruptedExit130: an interrupted replay exits 130 on every
// path, like test: here the script is gone by the time it is read, an
// error replay answered with 1 before the one mapping.
func TestDropInsInterruptedExit130(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, args := range [][]string{
		{"replay", "gone.ad"},
		{"test", "gone/"},
	} {
		code, stdout, stderr := runMainCall(ctx, t, cliCall{cwd: dir, getenv: map[string]string{"HOME": dir}}, args...)
		if code != ExitInterrupted {
			t.Errorf("%v: exit = %d, want 130\nstdout:\n%s\nstderr:\n%s", args, code, stdout, stderr)
		}
	}
}
