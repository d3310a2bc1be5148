// Package scripts holds the set-up and comparison scripts; its test holds
// what make demo's set-up may and may not fetch.
package scripts

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// cacheDir is the per-user cache setup.sh fills, as it computes it.
func cacheDir() string {
	if d := os.Getenv("ADTEST_CACHE_DIR"); d != "" {
		return d
	}
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "adtest")
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "adtest")
}

// TestDemoSetupFetchesNoTestSubjects runs setup.sh with an npm that records
// each call, in a cache that holds only the Android helper: with --demo
// (make demo) nothing is fetched; without it the test subjects are.
func TestDemoSetupFetchesNoTestSubjects(t *testing.T) {
	helper := filepath.Join(cacheDir(), "android-helper")
	if _, err := os.Stat(helper); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the Android helper is not in the cache (%v): make test runs setup.sh first", err)
		}
		t.Skipf("run scripts/setup.sh first: %v", err)
	}
	run := func(args ...string) (calls string, err error) {
		dir := t.TempDir()
		cache := filepath.Join(dir, "cache")
		bin := filepath.Join(dir, "bin")
		for _, d := range []string{cache, bin} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Symlink(helper, filepath.Join(cache, "android-helper")); err != nil {
			t.Fatal(err)
		}
		log := filepath.Join(dir, "npm.log")
		stub := "#!/bin/sh\necho \"npm $*\" >> " + log + "\nexit 1\n"
		if err := os.WriteFile(filepath.Join(bin, "npm"), []byte(stub), 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("bash", append([]string{"setup.sh"}, args...)...)
		cmd.Env = append(os.Environ(), "ADTEST_CACHE_DIR="+cache, "PATH="+bin+":"+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		b, _ := os.ReadFile(log)
		t.Logf("setup.sh %s:\n%s", strings.Join(args, " "), out)
		return string(b), err
	}
	if calls, err := run("--demo"); err != nil || calls != "" {
		t.Fatalf("setup.sh --demo: err %v, npm calls:\n%s", err, calls)
	}
	if calls, err := run(); err == nil || !strings.Contains(calls, "npm pack") {
		t.Fatalf("setup.sh without --demo should fetch the test subjects (and fail on this npm): err %v, npm calls:\n%s", err, calls)
	}
}

// lib runs script in bash after sourcing lib.sh, with dir/bin first on PATH
// (where the tests put their stub npm), and returns its output.
func lib(t *testing.T, dir, script string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("bash", append([]string{"-c", "set -euo pipefail; . ./lib.sh; " + script, "lib"}, args...)...)
	cmd.Env = append(os.Environ(), "PATH="+filepath.Join(dir, "bin")+":"+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestLibNPMFetch fetches a package through lib.sh's npm_fetch with a stub
// npm that packs a fixed tarball: extracted and stamped when its sha256 is
// the pinned one (fetched then says so, and the tarball stays with keep),
// refused with both sums named when it is not.
func TestLibNPMFetch(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	if err := os.MkdirAll(filepath.Join(src, "package"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "package", "index.js"), []byte("ok\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tgz := filepath.Join(dir, "pkg-1.0.0.tgz")
	if out, err := exec.Command("tar", "-czf", tgz, "-C", src, "package").CombinedOutput(); err != nil {
		t.Fatalf("tar: %v\n%s", err, out)
	}
	data, err := os.ReadFile(tgz)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	sha := hex.EncodeToString(sum[:])
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	stub := "#!/bin/sh\n[ \"$1 $2 $3\" = \"pack --silent pkg@1.0.0\" ] || exit 1\ncp " + tgz + " .\necho pkg-1.0.0.tgz\n"
	if err := os.WriteFile(filepath.Join(dir, "bin", "npm"), []byte(stub), 0o755); err != nil {
		t.Fatal(err)
	}

	into := filepath.Join(dir, "cache", "pkg", "1.0.0")
	const fetch = `npm_fetch test pkg 1.0.0 "$1" "$2" pins.go keep && fetched "$1" "$2" && echo fetched`
	out, err := lib(t, dir, fetch, sha, into)
	if err != nil || !strings.HasSuffix(out, "fetched\n") {
		t.Fatalf("npm_fetch: %v\n%s", err, out)
	}
	for _, f := range []string{"package/index.js", "pkg-1.0.0.tgz"} {
		if _, err := os.Stat(filepath.Join(into, f)); err != nil {
			t.Errorf("after npm_fetch: %v", err)
		}
	}
	if out, err := lib(t, dir, `fetched "$1" "$2" || echo not`, strings.Repeat("0", 64), into); err != nil || out != "not\n" {
		t.Errorf("fetched with another sha256: %v %q", err, out)
	}

	other := filepath.Join(dir, "cache", "other")
	wrong := strings.Repeat("0", 64)
	out, err = lib(t, dir, fetch, wrong, other)
	if err == nil || !strings.Contains(out, "has sha256 "+sha+", want "+wrong+" (pinned in pins.go)") {
		t.Errorf("npm_fetch with a wrong sha256: err %v\n%s", err, out)
	}
	if _, err := os.Stat(other); !os.IsNotExist(err) {
		t.Errorf("a refused tarball was extracted: %v", err)
	}
}

// TestLibWaitURL waits for the URL a background server prints, and fails
// when the server exits without printing one.
func TestLibWaitURL(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tests := []struct {
		name, server, want string
		ok                 bool
	}{
		{"prints its URL", `echo http://127.0.0.1:1234; exec sleep 60`, "http://127.0.0.1:1234\n", true},
		{"exits first", `exit 3`, "test: the server did not start\n", false},
	}
	for i, tc := range tests {
		file := filepath.Join(dir, fmt.Sprint(i))
		// A server that prints its URL stays until the script's end kills it.
		script := `sh -c "$1" >"$2" 2>/dev/null & srv=$!; trap 'kill $srv 2>/dev/null || true' EXIT; wait_url test "$srv" "$2"`
		out, err := lib(t, dir, script, tc.server, file)
		if (err == nil) != tc.ok || out != tc.want {
			t.Errorf("%s: err %v, output %q, want %q", tc.name, err, out, tc.want)
		}
	}
}
