package components_test

import (
	"bytes"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/examples/components"
	"github.com/adtest/adtest/examples/todomvc"
	"github.com/adtest/adtest/lang"
)

func TestRootsSaysHowToSetUp(t *testing.T) {
	dir := t.TempDir()
	env := func(k string) string {
		if k == "ADTEST_CACHE_DIR" {
			return dir
		}
		return ""
	}
	// One package set up, the others not: the error names the others.
	p := components.Packages[0]
	root := components.CacheDir(env, p)
	if err := os.MkdirAll(filepath.Join(root, "package"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "extracted.sha256"), []byte(p.SHA256+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := components.Roots(env)
	if err == nil || !strings.Contains(err.Error(), "run `make setup`") || strings.Contains(err.Error(), p.Name+"@") ||
		!strings.Contains(err.Error(), filepath.Join(dir, "components", components.Packages[1].Key, components.Packages[1].Version)) {
		t.Fatalf("got %v, want an error naming the missing packages' cache dirs (not %s) and `make setup`", err, p.Name)
	}
}

// TestPinsAreReadableBySetup: scripts/setup-components.sh reads the table
// line by line with one pattern; a package written another way would be
// silently skipped by the set-up.
func TestPinsAreReadableBySetup(t *testing.T) {
	src, err := os.ReadFile("components.go")
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`(?m)^\s*\{"([^"]*)", "([^"]*)", "([^"]*)", "([0-9a-f]{64})"\},$`)
	var keys []string
	for _, m := range line.FindAllStringSubmatch(string(src), -1) {
		keys = append(keys, m[1])
	}
	var want []string
	for _, p := range components.Packages {
		want = append(want, p.Key)
	}
	if !slices.Equal(keys, want) {
		t.Errorf("setup reads packages %v, the table has %v", keys, want)
	}
}

func TestHandlerServesPagesAndPackages(t *testing.T) {
	pkg := t.TempDir()
	if err := os.WriteFile(filepath.Join(pkg, "lib.js"), []byte("// lib"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(components.Handler(map[string]string{"tinymce": pkg}))
	defer srv.Close()
	for path, want := range map[string]string{"/pkg/tinymce/lib.js": "// lib", "/tinymce.html": "<title>New post (TinyMCE)</title>"} {
		res, err := srv.Client().Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || !strings.Contains(string(b), want) {
			t.Errorf("GET %s: %d %.80q, want %q", path, res.StatusCode, b, want)
		}
	}
}

// TestFlowsAreWellFormed: at least 25 flows over the six libraries, each
// checks clean for the web, opens one of the host pages first, and has a
// Playwright twin of the same name (and every twin a flow).
func TestFlowsAreWellFormed(t *testing.T) {
	names, src, err := components.Flows()
	if err != nil {
		t.Fatal(err)
	}
	if len(names) < 25 {
		t.Errorf("%d flows, want at least 25", len(names))
	}
	spec, err := os.ReadFile("playwright/components.spec.js")
	if err != nil {
		t.Fatal(err)
	}
	libs := map[string]bool{}
	open := regexp.MustCompile(`^\$\{AD_BASE_URL\}/([a-z]+\.html)(\?.*)?$`)
	for _, n := range names {
		file := "flows/" + n + ".ad"
		libs[strings.Split(n, "/")[0]] = true
		s, diags := lang.CheckSource(file, src[n], lang.CheckOptions{Platform: drivers.PlatformWeb})
		for _, d := range diags {
			if d.Severity == lang.SeverityError {
				t.Errorf("%s", d.Format(file))
			}
		}
		if s == nil || len(s.Actions) == 0 || s.Actions[0].Command != "open" {
			t.Errorf("%s: the first step must open a host page", file)
			continue
		}
		m := open.FindStringSubmatch(s.Actions[0].Positionals[0])
		if m == nil {
			t.Errorf("%s: opens %q, want ${AD_BASE_URL}/PAGE.html", file, s.Actions[0].Positionals[0])
		} else if _, err := os.Stat(filepath.Join("pages", m[1])); err != nil {
			t.Errorf("%s: opens %s, which is not in pages/", file, m[1])
		}
		if !bytes.Contains(spec, []byte("'"+n+"': async")) {
			t.Errorf("playwright/components.spec.js has no twin for flow %s", n)
		}
	}
	for _, m := range regexp.MustCompile(`(?m)^  '([a-z]+/[^']+)': async`).FindAllSubmatch(spec, -1) {
		if !slices.Contains(names, string(m[1])) {
			t.Errorf("playwright/components.spec.js has a twin %s of no flow", m[1])
		}
	}
	if len(libs) < 5 {
		t.Errorf("flows of %d libraries, want at least 5", len(libs))
	}
}

func cells(cs ...todomvc.Cell) components.Matrix {
	m := components.Matrix{}
	for _, c := range cs {
		m[c.Key()] = c
	}
	return m
}

func TestExpectationsAndCompare(t *testing.T) {
	names := []string{"grid/1-sort", "grid/2-filter", "tinymce/1-type"}
	old := cells(
		todomvc.Cell{Framework: "grid", Flow: "1-sort", Pass: true},
		todomvc.Cell{Framework: "grid", Flow: "2-filter", Flaky: true, Cause: "the grid's debounce"},
	)
	got := cells(
		todomvc.Cell{Framework: "grid", Flow: "1-sort", Cause: "line 5 click: [target_covered] covered"},
		todomvc.Cell{Framework: "grid", Flow: "2-filter", Pass: true},
	)
	next := components.Next(old, got, names)
	var buf bytes.Buffer
	if err := components.WriteExpectations(&buf, next); err != nil {
		t.Fatal(err)
	}
	back, _, err := todomvc.ReadExpectations("matrix.txt", &buf)
	if err != nil {
		t.Fatal(err)
	}
	if back["grid/1-sort"] != got["grid/1-sort"] || back["grid/2-filter"] != old["grid/2-filter"] || !back["tinymce/1-type"].Unknown {
		t.Errorf("next expectations:\n%v", back)
	}

	pw := cells(
		todomvc.Cell{Framework: "grid", Flow: "1-sort", Pass: true},
		todomvc.Cell{Framework: "grid", Flow: "2-filter", Cause: "failed: Error: timeout"},
	)
	var out bytes.Buffer
	components.Compare(&out, pw, got, names)
	want := `flow            Playwright  adtest  adtest's cause
grid/1-sort     pass        FAIL    line 5 click: [target_covered] covered
grid/2-filter   FAIL        pass    
tinymce/1-type  -           -       

TOTAL 3 flows: Playwright passed 1, adtest passed 1; Playwright passed and adtest failed 1, the other way 1
  Playwright failed grid/2-filter: failed: Error: timeout
`
	if out.String() != want {
		t.Errorf("compare:\n%s\nwant:\n%s", out.String(), want)
	}
}
