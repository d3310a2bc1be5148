package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fmtRun runs `adtest fmt args...` in dir with stdin.
func fmtRun(t *testing.T, dir, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runMainCall(context.Background(), t, cliCall{cwd: dir, stdin: stdin}, append([]string{"fmt"}, args...)...)
}

const (
	fmtMessy = "open   \"app\"\n\n\nclose"
	fmtClean = "open \"app\"\n\nclose\n"
	fmtBad   = "open a\ntype \"price \\$5\"\n"
)

func TestFmtCLI(t *testing.T) {
	t.Parallel()
	tree := map[string]string{
		"suite/a.ad":          fmtMessy,
		"suite/b.ad":          fmtClean,
		"suite/deep/c.ad":     "wait  500\n",
		"suite/notes.txt":     "not a script\n",
		"suite/.hidden/h.ad":  "wait  1\n",
		"broken/bad.ad":       fmtBad,
		"broken/good.ad":      "scroll \"down\"\n",
		"single/file.ad":      "scroll \"down\"\n",
		"single/formatted.ad": fmtClean,
	}
	tests := []struct {
		name       string
		stdin      string
		args       []string
		wantCode   int
		wantStdout string
		wantStderr string
	}{
		{"stdin to stdout", fmtMessy, nil, 0, fmtClean, ""},
		{"stdin with -l names standard input", fmtMessy, []string{"-l"}, 0, "<standard input>\n", ""},
		{"stdin with a parse error", fmtBad, nil, 2, "",
			"<standard input>:2:6: Invalid quoted value \"price \\$5\" in replay script line: type \"price \\$5\"\n"},
		{"stdin with -w is a usage error", fmtMessy, []string{"-w"}, 2, "", "adtest fmt: cannot use -w with standard input\n"},
		{"file printed formatted", "", []string{"single/file.ad"}, 0, "scroll down\n", ""},
		{"directory walk lists unformatted *.ad, skips hidden dirs", "", []string{"-l", "suite"}, 0, "suite/a.ad\nsuite/deep/c.ad\n", ""},
		{"glob", "", []string{"-l", "suite/*.ad"}, 0, "suite/a.ad\n", ""},
		{"--check exits 1 when a file differs", "", []string{"--check", "suite"}, 1, "suite/a.ad\nsuite/deep/c.ad\n", ""},
		{"--check exits 0 when all are formatted", "", []string{"--check", "single/formatted.ad"}, 0, "", ""},
		{"diff", "", []string{"-d", "single/file.ad"}, 0,
			"--- single/file.ad.orig\n+++ single/file.ad\n@@ -1 +1 @@\n-scroll \"down\"\n+scroll down\n", ""},
		{"diff of a file without a final newline", "open  a", []string{"-d"}, 0,
			"--- <standard input>.orig\n+++ <standard input>\n@@ -1 +1 @@\n-open  a\n\\ No newline at end of file\n+open a\n", ""},
		{"parse error exits 2, other files still processed", "", []string{"-l", "broken"}, 2, "broken/good.ad\n",
			"broken/bad.ad:2:6: Invalid quoted value \"price \\$5\" in replay script line: type \"price \\$5\"\n"},
		{"missing file", "", []string{"nope.ad"}, 2, "", "adtest fmt: nope.ad: no such file or directory\n"},
		{"glob without matches", "", []string{"none/*.ad"}, 2, "", "adtest fmt: none/*.ad: no files match\n"},
		{"unknown flag", "", []string{"-x"}, 2, "", ""},
	}
	dir := writeFiles(t, tree)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := fmtRun(t, dir, tc.stdin, tc.args...)
			if code != tc.wantCode {
				t.Errorf("exit %d, want %d (stderr %q)", code, tc.wantCode, stderr)
			}
			if stdout != tc.wantStdout {
				t.Errorf("stdout\n got %q\nwant %q", stdout, tc.wantStdout)
			}
			// The hint line of a parse error follows the diagnostic.
			if tc.wantStderr != "" && !strings.HasPrefix(stderr, tc.wantStderr) || tc.wantStderr == "" && tc.wantCode != 2 && stderr != "" {
				t.Errorf("stderr\n got %q\nwant prefix %q", stderr, tc.wantStderr)
			}
		})
	}
}

func TestFmtCLIWrite(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{"a.ad": fmtMessy, "b.ad": fmtClean})
	if err := os.Chmod(filepath.Join(dir, "a.ad"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := fmtRun(t, dir, "", "-w", "-l", ".")
	if code != 0 || stdout != "a.ad\n" || stderr != "" {
		t.Fatalf("fmt -w -l: exit %d stdout %q stderr %q", code, stdout, stderr)
	}
	got, err := os.ReadFile(filepath.Join(dir, "a.ad"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != fmtClean {
		t.Errorf("a.ad after -w: %q, want %q", got, fmtClean)
	}
	info, err := os.Stat(filepath.Join(dir, "a.ad"))
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("a.ad mode %v after -w, want 0600", info.Mode().Perm())
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "a.ad b.ad" {
		t.Errorf("directory after -w holds %v; want only a.ad b.ad (no temp files)", names)
	}
	// -w through a symlink rewrites its target and keeps the link.
	if err := os.WriteFile(filepath.Join(dir, "target.txt"), []byte(fmtMessy), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("target.txt", filepath.Join(dir, "link.ad")); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := fmtRun(t, dir, "", "-w", "link.ad"); code != 0 {
		t.Fatalf("fmt -w link.ad: exit %d %s", code, stderr)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "target.txt")); string(got) != fmtClean {
		t.Errorf("symlink target after -w: %q, want %q", got, fmtClean)
	}
	if fi, err := os.Lstat(filepath.Join(dir, "link.ad")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("link.ad is no longer a symlink after -w (%v)", err)
	}
	// A second run finds nothing to do.
	code, stdout, _ = fmtRun(t, dir, "", "--check", ".")
	if code != 0 || stdout != "" {
		t.Errorf("--check after -w: exit %d stdout %q, want 0 and nothing listed", code, stdout)
	}
}
