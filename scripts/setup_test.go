// Package scripts holds the set-up and comparison scripts; its test holds
// what make demo's set-up may and may not fetch.
package scripts

import (
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
