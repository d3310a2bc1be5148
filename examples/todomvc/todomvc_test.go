package todomvc_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/examples/todomvc"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner"
)

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestDiscoverKeepsOnlyCompleteApps(t *testing.T) {
	root := writeTree(t, map[string]string{
		"examples/plain/index.html":         `<link rel="stylesheet" href="../../common/base.css"><script src="js/app.js?v=1"></script><script>inline()</script>`,
		"examples/plain/js/app.js":          ``,
		"common/base.css":                   ``,
		"examples/commented/index.html":     `<!-- <script src="http://localhost:9810/compile"></script> --><script src="app.js"></script>`,
		"examples/commented/app.js":         ``,
		"examples/brunch/public/index.html": `<script src="app.js"></script>`,
		"examples/brunch/public/app.js":     ``,
		"examples/cdn/index.html":           `<script src="//cdn.example/jquery.js"></script>`,
		"examples/missing/index.html":       `<script src="bower_components/lib.js"></script>`,
		"examples/server/server.js":         ``,
		"examples/dart/web/index.html":      `<script type="application/dart" src="main.dart"></script>`,
		"examples/dart/web/main.dart":       ``,
		"examples/dart2js/index.html":       `<script type="application/dart" src="main.dart"></script>`,
		"examples/dart2js/main.dart.js":     ``,
		"examples/requirejs/index.html":     `<script data-main="js/main" src="require.js"></script>`,
		"examples/requirejs/require.js":     ``,
		"examples/requirejs/js/main.js":     ``,
		"examples/requirenomain/index.html": `<script data-main="js/main" src="require.js"></script>`,
		"examples/requirenomain/require.js": ``,
		"examples/polymerish/index.html":    `<link rel="import" href="elements/td.html">`,
	})
	fws, excluded, err := todomvc.Discover(root)
	if err != nil {
		t.Fatal(err)
	}
	want := []todomvc.Framework{
		{Name: "brunch", Entry: "/examples/brunch/public/index.html"},
		{Name: "commented", Entry: "/examples/commented/index.html"},
		{Name: "dart2js", Entry: "/examples/dart2js/index.html"},
		{Name: "plain", Entry: "/examples/plain/index.html"},
		{Name: "requirejs", Entry: "/examples/requirejs/index.html"},
	}
	if !slices.Equal(fws, want) {
		t.Errorf("complete:\n got %v\nwant %v", fws, want)
	}
	wantOut := []todomvc.Excluded{
		{Name: "cdn", Reason: "examples/cdn/index.html: script //cdn.example/jquery.js is fetched from the network"},
		{Name: "dart", Reason: "examples/dart/web/index.html: Dart script main.dart is not compiled (main.dart.js is missing from the package)"},
		{Name: "missing", Reason: "examples/missing/index.html: script bower_components/lib.js is missing from the package"},
		{Name: "polymerish", Reason: "examples/polymerish/index.html: link elements/td.html is missing from the package"},
		{Name: "requirenomain", Reason: "examples/requirenomain/index.html: require.js data-main js/main is missing from the package"},
		{Name: "server", Reason: "no static page (index.html in the app, public/, www/, build/web/ or web/): a server renders it"},
	}
	if !slices.Equal(excluded, wantOut) {
		t.Errorf("excluded:\n got %q\nwant %q", excluded, wantOut)
	}
}

func TestRootSaysHowToSetUp(t *testing.T) {
	dir := t.TempDir()
	env := func(k string) string {
		if k == "ADTEST_CACHE_DIR" {
			return dir
		}
		return ""
	}
	_, err := todomvc.Root(env)
	if err == nil || !strings.Contains(err.Error(), "run `make setup`") || !strings.Contains(err.Error(), filepath.Join(dir, "todomvc", todomvc.NPMVersion)) {
		t.Fatalf("got %v, want an error naming the cache dir and `make setup`", err)
	}
}

// TestFlowsAreWellFormed: nine flows, each checks clean for the web, opens
// the app named by its one TODO_PATH line first, and has a Playwright spec
// of the same name.
func TestFlowsAreWellFormed(t *testing.T) {
	names, src, err := todomvc.Flows()
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != 9 {
		t.Errorf("%d flows, want 9: %v", len(names), names)
	}
	spec, err := os.ReadFile("playwright/todomvc.spec.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		file := "flows/" + n + ".ad"
		s, diags := lang.CheckSource(file, src[n], lang.CheckOptions{Platform: drivers.PlatformWeb})
		for _, d := range diags {
			if d.Severity == lang.SeverityError {
				t.Errorf("%s", d.Format(file))
			}
		}
		if s != nil && (len(s.Actions) == 0 || s.Actions[0].Command != "open" || s.Actions[0].Positionals[0] != "${AD_BASE_URL}${TODO_PATH}") {
			t.Errorf("%s: the first step must be open ${AD_BASE_URL}${TODO_PATH}", file)
		}
		if !bytes.Contains(spec, []byte("'"+n+"': async")) {
			t.Errorf("playwright/todomvc.spec.js has no spec for flow %s", n)
		}
	}
}

func TestWriteSuiteSetsEachAppsPath(t *testing.T) {
	dir := t.TempDir()
	fws := []todomvc.Framework{{Name: "a", Entry: "/examples/a/index.html"}, {Name: "b", Entry: "/examples/b/public/index.html"}}
	if err := todomvc.WriteSuite(dir, fws, nil); err != nil {
		t.Fatal(err)
	}
	names, src, _ := todomvc.Flows()
	for _, fw := range fws {
		for _, n := range names {
			b, err := os.ReadFile(filepath.Join(dir, fw.Name, n+".ad"))
			if err != nil {
				t.Fatal(err)
			}
			lines, orig := strings.Split(string(b), "\n"), strings.Split(string(src[n]), "\n")
			if len(lines) != len(orig) || lines[1] != "env TODO_PATH="+fw.Entry {
				t.Errorf("%s/%s: line 2 %q, %d lines (flow: %d)", fw.Name, n, lines[1], len(lines), len(orig))
			}
		}
	}
	j, _ := os.ReadFile(filepath.Join(dir, "frameworks.json"))
	if !regexp.MustCompile(`"name": "b",\s+"entry": "/examples/b/public/index.html"`).Match(j) {
		t.Errorf("frameworks.json:\n%s", j)
	}
}

func TestExpectationsRoundTripAndDiff(t *testing.T) {
	got := todomvc.Matrix{}
	for _, c := range []todomvc.Cell{
		{Framework: "a", Flow: "1-add", Pass: true},
		{Framework: "a", Flow: "2-counter", Cause: "line 10 is: [selector_not_found] Selector did not match (id=todo-count -> 0)"},
		{Framework: "b", Flow: "1-add", Pass: true},
		{Framework: "b", Flow: "5-filters", Flaky: true, Cause: "the app's 10 ms debounce"},
	} {
		got[c.Key()] = c
	}
	excl := []todomvc.Excluded{{Name: "z", Reason: "no static page"}}
	var buf bytes.Buffer
	if err := todomvc.WriteExpectations(&buf, got, excl); err != nil {
		t.Fatal(err)
	}
	back, backExcl, err := todomvc.ReadExpectations("m.txt", &buf)
	if err != nil {
		t.Fatal(err)
	}
	if d := todomvc.Diff(back, got); len(d) != 0 || !slices.Equal(backExcl, excl) || back["a/2-counter"].Cause != got["a/2-counter"].Cause {
		t.Fatalf("round trip: diff %v, excluded %v", d, backExcl)
	}
	if back["b/5-filters"] != got["b/5-filters"] || back.Passed() != 2 || back.Flaky() != 1 {
		t.Fatalf("round trip of a flaky cell: %+v, %d passed, %d flaky", back["b/5-filters"], back.Passed(), back.Flaky())
	}

	now := todomvc.Matrix{
		"a/1-add":     {Framework: "a", Flow: "1-add", Cause: "line 7 fill: [fill_mismatch] boom"},
		"a/2-counter": {Framework: "a", Flow: "2-counter", Pass: true},
		"c/1-add":     {Framework: "c", Flow: "1-add", Pass: true},
		"b/5-filters": {Framework: "b", Flow: "5-filters", Pass: true},
	}
	want := []string{
		"a/1-add: expected to pass, fails: line 7 fill: [fill_mismatch] boom",
		"a/2-counter: expected to fail (line 10 is: [selector_not_found] Selector did not match (id=todo-count -> 0)), passes now",
		"c/1-add: new cell (pass), not in the expectations",
		"b/1-add: expected (pass), did not run",
	}
	if d := todomvc.Diff(got, now); !slices.Equal(d, want) {
		t.Errorf("diff:\n got %q\nwant %q", d, want)
	}
	// A regeneration keeps the flaky mark whatever the run gave.
	fws := []todomvc.Framework{{Name: "a"}, {Name: "b"}}
	if next := todomvc.Merge(got, now, fws, []string{"5-filters"}); next["b/5-filters"] != got["b/5-filters"] || !next["a/5-filters"].Unknown {
		t.Errorf("merge: %+v", next)
	}

	_, _, err = todomvc.ReadExpectations("m.txt", strings.NewReader("# c\na\t1-add\tmaybe\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "m.txt:2:1: ") {
		t.Errorf("bad line: %v", err)
	}
}

func TestFromPlaywrightAndCompare(t *testing.T) {
	report := `{"suites":[{"title":"todomvc.spec.js","specs":[],"suites":[
	 {"title":"a","specs":[
	  {"title":"1-add","ok":true,"tests":[{"status":"expected","results":[{"status":"passed"}]}]},
	  {"title":"2-counter","ok":false,"tests":[{"status":"unexpected","results":[{"status":"failed","error":{"message":"\u001b[31mError: expect(locator).toHaveText(expected)\u001b[39m\n\nmore"}}]}]}]}]}]}`
	pw, err := todomvc.FromPlaywright(strings.NewReader(report))
	if err != nil {
		t.Fatal(err)
	}
	if !pw["a/1-add"].Pass || pw["a/2-counter"].Pass || pw["a/2-counter"].Cause != "failed: Error: expect(locator).toHaveText(expected)" {
		t.Fatalf("got %+v", pw)
	}
	ad := todomvc.Matrix{
		"a/1-add":     {Framework: "a", Flow: "1-add", Cause: "line 7 fill: [fill_mismatch] fill_mismatch (0 characters, expected 8)"},
		"a/2-counter": {Framework: "a", Flow: "2-counter", Pass: true},
	}
	var out bytes.Buffer
	todomvc.Compare(&out, pw, ad, []string{"1-add", "2-counter"})
	want := `framework     1  2   (each cell: Playwright, adtest; + passed, - failed, . not run)
a            +- -+

TOTAL 1 frameworks x 2 flows = 2 cells: Playwright passed 1, adtest passed 1; Playwright passed and adtest failed 1, the other way 1

Cells where Playwright passes and adtest fails, by adtest's failing command and reason:
  fill [fill_mismatch] (1):
    a/1-add: line 7 fill: [fill_mismatch] fill_mismatch (0 characters, expected 8)

Cells where adtest passes and Playwright fails (Playwright's cause):
  a/2-counter: failed: Error: expect(locator).toHaveText(expected)
`
	if out.String() != want {
		t.Errorf("compare:\n%s\nwant:\n%s", out.String(), want)
	}
}

func TestWriteSuiteKeepsOnlyTheFlowsNamed(t *testing.T) {
	dir := t.TempDir()
	fws := []todomvc.Framework{{Name: "a", Entry: "/examples/a/index.html"}}
	if err := todomvc.WriteSuite(dir, fws, []string{"9-persist", "1-add"}); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(filepath.Join(dir, "a"))
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if strings.Join(got, " ") != "1-add.ad 9-persist.ad" {
		t.Errorf("files: %v, want 1-add.ad 9-persist.ad", got)
	}
	j, _ := os.ReadFile(filepath.Join(dir, "frameworks.json"))
	if !regexp.MustCompile(`"flows": \[\s+"1-add",\s+"9-persist"\s+\]`).Match(j) {
		t.Errorf("frameworks.json lists other flows:\n%s", j)
	}
	err := todomvc.WriteSuite(t.TempDir(), fws, []string{"10-undo"})
	if err == nil || !strings.Contains(err.Error(), `no flow "10-undo" (flows: 1-add,`) {
		t.Errorf("an unknown flow: %v", err)
	}
}

func TestTimingSaysHowTheWorkersWereLoaded(t *testing.T) {
	t0 := time.Date(2026, 12, 6, 7, 0, 0, 0, time.UTC)
	at := func(worker int, startMs, durMs int64) runner.AttemptResult {
		return runner.AttemptResult{Worker: worker, StartedAt: t0.Add(time.Duration(startMs) * time.Millisecond), DurationMs: durMs,
			Steps: []runner.StepResult{{Command: "open", DurationMs: durMs}}}
	}
	res := &runner.Result{StartedAt: t0, DurationMs: 1500, Tests: []runner.TestResult{
		{File: "a.ad", Attempts: []runner.AttemptResult{at(0, 0, 1400)}},
		{File: "b.ad", Attempts: []runner.AttemptResult{at(1, 0, 300)}},
		{File: "c.ad", Attempts: []runner.AttemptResult{at(1, 310, 400), at(1, 720, 100)}},
	}}
	var b strings.Builder
	todomvc.Timing(&b, res)
	if want := "  workers: 0 busy 1400 ms, done at 1400 ms; 1 busy 800 ms, done at 820 ms\n"; !strings.HasSuffix(b.String(), want) {
		t.Errorf("Timing:\n%s\nwant it to end with\n%s", b.String(), want)
	}
}

// The floor of a flow keeps its page loads (each open and the wait for the
// app after it) and its written pauses on their lines, and nothing else.
func TestFloorKeepsTheLoadsAndPausesOnly(t *testing.T) {
	names, src, err := todomvc.Flows()
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		orig, err := lang.Parse(n+".ad", src[n])
		if err != nil {
			t.Fatal(err)
		}
		b, err := todomvc.Floor(n+".ad", src[n])
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		floor, err := lang.Parse(n+".ad", b)
		if err != nil {
			t.Fatalf("%s: the floor does not parse: %v\n%s", n, err, b)
		}
		var want []string
		for _, a := range orig.Actions {
			switch {
			case a.Command == "open":
				want = append(want, fmt.Sprintf("%d open %s", a.Line(), a.Positionals[0]), fmt.Sprintf("%d wait id=new-todo 10000", a.Line()+1))
			case a.Command == "wait" && len(a.Positionals) == 1 && regexp.MustCompile(`^\d+$`).MatchString(a.Positionals[0]):
				want = append(want, fmt.Sprintf("%d wait %s", a.Line(), a.Positionals[0]))
			}
		}
		var got []string
		for _, a := range floor.Actions {
			got = append(got, fmt.Sprintf("%d %s %s", a.Line(), a.Command, strings.Join(a.Positionals, " ")))
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: the floor's steps\n%s\nwant\n%s", n, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if *orig.Metadata.TimeoutMs != *floor.Metadata.TimeoutMs || len(floor.Env) != len(orig.Env) {
			t.Errorf("%s: the floor lost the context or env lines:\n%s", n, b)
		}
	}
	if b, _ := todomvc.Floor("9-persist.ad", src["9-persist"]); !bytes.Contains(b, []byte("wait 1000\nopen ")) {
		t.Errorf("9-persist's floor has no pause before its reload:\n%s", b)
	}
	_, err = todomvc.Floor("x.ad", []byte("context platform=web\nopen https://example.test/\nwait 500\n"))
	if err == nil || !strings.Contains(err.Error(), "x.ad:3: the line after an open") {
		t.Errorf("an open followed by a step the floor keeps: %v", err)
	}
}

func TestWriteFloorSuiteWritesEachAppsFloor(t *testing.T) {
	dir := t.TempDir()
	fws := []todomvc.Framework{{Name: "a", Entry: "/examples/a/index.html"}}
	if err := todomvc.WriteFloorSuite(dir, fws, []string{"9-persist"}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "a", "9-persist.ad"))
	if err != nil {
		t.Fatal(err)
	}
	_, src, _ := todomvc.Flows()
	want, _ := todomvc.Floor("9-persist.ad", src["9-persist"])
	want = regexp.MustCompile(`(?m)^env TODO_PATH=.*$`).ReplaceAll(want, []byte("env TODO_PATH=/examples/a/index.html"))
	if !bytes.Equal(b, want) {
		t.Errorf("a/9-persist.ad:\n%s\nwant\n%s", b, want)
	}
}
