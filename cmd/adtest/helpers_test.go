package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// cliCall is the process state one test hands to Main: what is not set is
// empty (no stdin, no environment).
type cliCall struct {
	cwd     string
	stdin   string
	getenv  map[string]string
	environ []string
}

// runMainCall runs Main(ctx, args) with in-memory streams built from c and
// returns the exit code and what Main wrote to stdout and stderr.
func runMainCall(ctx context.Context, t *testing.T, c cliCall, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &Env{
		Stdin:   strings.NewReader(c.stdin),
		Stdout:  &out,
		Stderr:  &errb,
		Getenv:  func(k string) string { return c.getenv[k] },
		Environ: func() []string { return c.environ },
		Cwd:     c.cwd,
		FS:      osFS{},
		Now:     time.Now,
	}
	code = Main(ctx, args, env)
	return code, out.String(), errb.String()
}

// runMain runs `adtest args...` in cwd with no stdin and an empty environment.
func runMain(t *testing.T, cwd string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runMainCall(context.Background(), t, cliCall{cwd: cwd}, args...)
}

// writeFiles writes files (slash-separated relative path -> content) below a
// new temp dir and returns the dir.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
