package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestShowTrace: a run keeps the failed attempt's trace (--trace
// retain-on-failure) and show-trace writes a report of it,
// from the attempt's directory or the trace's own: the page holds the
// trace with its pictures copied under data/.
func TestShowTrace(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"screens.txt": "open demo -> home\nscreen home\n  heading \"Home\"\n  button \"Ok\" id=ok\n",
		"fail.ad":     "context platform=web\nopen demo\nclick id=ok\nclick @e9\n",
	})
	if code, out, errb := runMain(t, dir, "run", "--fake-device", "screens.txt", "--trace", "retain-on-failure", "--artifacts-dir", "art", "fail.ad"); code != ExitFailed {
		t.Fatalf("run: exit %d\n%s%s", code, out, errb)
	}
	attempts, _ := filepath.Glob(filepath.Join(dir, "art", "*", "fail.ad", "attempt-1"))
	if len(attempts) != 1 {
		t.Fatalf("attempt dirs %v", attempts)
	}
	rel, _ := filepath.Rel(dir, attempts[0])
	for _, arg := range []string{rel, filepath.Join(rel, "trace")} {
		code, out, errb := runMain(t, dir, "show-trace", "--no-serve", "--out", "rep", arg)
		if code != ExitOK || out != "Wrote the trace report rep/index.html (the test's page: index.html#t=t1)\n" {
			t.Fatalf("show-trace %s: exit %d, %q %q", arg, code, out, errb)
		}
		page, err := os.ReadFile(filepath.Join(dir, "rep", "index.html"))
		if err != nil {
			t.Fatal(err)
		}
		pics := regexp.MustCompile(`"after":"(data/[0-9a-f]{16}\.jpg)"`).FindAllStringSubmatch(string(page), -1)
		if len(pics) != 3 || !strings.Contains(string(page), `"status":"failed"`) {
			t.Fatalf("show-trace %s: %d step pictures in the page, want 3 and the failed status", arg, len(pics))
		}
		for _, p := range pics {
			if _, err := os.Stat(filepath.Join(dir, "rep", p[1])); err != nil {
				t.Errorf("show-trace %s: %v", arg, err)
			}
		}
	}
	code, _, errb := runMain(t, dir, "show-trace", "--no-serve", "screens.txt")
	if code != ExitUsage || !strings.HasPrefix(errb, "adtest show-trace: no trace in screens.txt (no screens.txt/trace.json, nor screens.txt/trace/trace.json)\nhint: ") {
		t.Errorf("not a trace: exit %d, %q", code, errb)
	}
}
