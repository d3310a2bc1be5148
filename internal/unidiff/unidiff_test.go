package unidiff

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const letters = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n"

var cases = []struct {
	name     string
	old, new string
	context  int
	want     string
}{
	{name: "two hunks", old: letters, new: strings.Replace(strings.Replace(letters, "b\n", "B\n", 1), "k\n", "K\n", 1), context: 2,
		want: "--- f.ad\n+++ f.ad\n@@ -1,4 +1,4 @@\n a\n-b\n+B\n c\n d\n@@ -9,4 +9,4 @@\n i\n j\n-k\n+K\n l\n"},
	{name: "hunks within twice the context merge", old: letters, new: strings.Replace(strings.Replace(letters, "b\n", "B\n", 1), "f\n", "F\n", 1), context: 2,
		want: "--- f.ad\n+++ f.ad\n@@ -1,8 +1,8 @@\n a\n-b\n+B\n c\n d\n e\n-f\n+F\n g\n h\n"},
	{name: "no context", old: letters, new: strings.Replace(letters, "e\n", "E\n", 1), context: 0,
		want: "--- f.ad\n+++ f.ad\n@@ -5 +5 @@\n-e\n+E\n"},
	{name: "an insertion without context", old: letters, new: strings.Replace(letters, "e\n", "# note\ne\n", 1), context: 0,
		want: "--- f.ad\n+++ f.ad\n@@ -4,0 +5 @@\n+# note\n"},
	{name: "an insertion", old: "a\nb\n", new: "a\n# note\nb\n", context: 3,
		want: "--- f.ad\n+++ f.ad\n@@ -1,2 +1,3 @@\n a\n+# note\n b\n"},
	{name: "the last line changes, neither ends in a newline", old: "a\nb", new: "a\nc", context: 3,
		want: "--- f.ad\n+++ f.ad\n@@ -1,2 +1,2 @@\n a\n-b\n" + noNewline + "+c\n" + noNewline},
	{name: "a context line without a newline", old: "a\nb\nc", new: "A\nb\nc", context: 3,
		want: "--- f.ad\n+++ f.ad\n@@ -1,3 +1,3 @@\n-a\n+A\n b\n c\n" + noNewline},
	{name: "a newline added at the end", old: "a\nb", new: "a\nb\n", context: 3,
		want: "--- f.ad\n+++ f.ad\n@@ -1,2 +1,2 @@\n a\n-b\n" + noNewline + "+b\n"},
	{name: "the newline at the end removed", old: "a\nb\n", new: "a\nb", context: 1,
		want: "--- f.ad\n+++ f.ad\n@@ -1,2 +1,2 @@\n a\n-b\n+b\n" + noNewline},
	{name: "from an empty file", old: "", new: "a\n", context: 3,
		want: "--- f.ad\n+++ f.ad\n@@ -0,0 +1 @@\n+a\n"},
	{name: "same", old: letters, new: letters, context: 3, want: ""},
	{name: "same without a final newline", old: "a\nb", new: "a\nb", context: 3, want: ""},
}

func TestDiff(t *testing.T) {
	t.Parallel()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := Diff("f.ad", "f.ad", []byte(tc.old), []byte(tc.new), tc.context); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestDiffHeader(t *testing.T) {
	t.Parallel()
	got := Diff("a.ad.orig", "a.ad", []byte("x\n"), []byte("y\n"), 3)
	if want := "--- a.ad.orig\n+++ a.ad\n@@ -1 +1 @@\n-x\n+y\n"; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestDiffApplies applies every case's diff with `patch -p0` and checks it
// with `git apply -p0 --check`: the tools the repair's patches are for.
func TestDiffApplies(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"git", "patch"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed to apply the patches: %v", tool, err)
		}
	}
	for _, tc := range cases {
		if tc.want == "" {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			file := filepath.Join(dir, "f.ad")
			if err := os.WriteFile(file, []byte(tc.old), 0o644); err != nil {
				t.Fatal(err)
			}
			diff := Diff("f.ad", "f.ad", []byte(tc.old), []byte(tc.new), tc.context)
			if err := os.WriteFile(filepath.Join(dir, "fix.patch"), []byte(diff), 0o644); err != nil {
				t.Fatal(err)
			}
			// git needs --unidiff-zero for a hunk without context.
			check := exec.Command("git", "apply", "-p0", "--check", "--unidiff-zero", "fix.patch")
			check.Dir = dir
			if out, err := check.CombinedOutput(); err != nil {
				t.Fatalf("git apply --check: %v\n%s\n%s", err, out, diff)
			}
			apply := exec.Command("patch", "-p0", "--batch", "-i", "fix.patch")
			apply.Dir = dir
			if out, err := apply.CombinedOutput(); err != nil {
				t.Fatalf("patch -p0: %v\n%s\n%s", err, out, diff)
			}
			got, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.new {
				t.Errorf("patched file is %q, want %q\n%s", got, tc.new, diff)
			}
		})
	}
}
