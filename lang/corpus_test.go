package lang

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// corpusDir finds ../shared/corpus/agent-device relative to the module root.
func corpusDir(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("runtime.Caller failed")
	}
	dir := filepath.Dir(file)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above " + file)
		}
		dir = parent
	}
	c := filepath.Join(dir, "..", "shared", "corpus", "agent-device")
	if _, err := os.Stat(c); err != nil {
		t.Fatalf("corpus not found: %v", err)
	}
	return c
}

// corpusFiles lists every .ad file of the corpus (relative paths, sorted).
func corpusFiles(t testing.TB) (string, []string) {
	t.Helper()
	root := corpusDir(t)
	var files []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "expected" || d.Name() == "fixtures") && filepath.Dir(p) == root {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".ad") {
			rel, _ := filepath.Rel(root, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	return root, files
}

type parseCase struct {
	ID     string          `json:"id"`
	Script string          `json:"script"`
	Expect json.RawMessage `json:"expect_v0_20_3"`
}

// parseCaseSections loads fixtures/parse-cases.json of the corpus as its
// top-level sections ("scripts", "selectors", "vars", ...).
func parseCaseSections(t testing.TB) map[string]json.RawMessage {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corpusDir(t), "fixtures", "parse-cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		t.Fatal(err)
	}
	return all
}

// loadParseCases is the "scripts" section of parse-cases.json (never empty).
func loadParseCases(t testing.TB) []parseCase {
	t.Helper()
	var scripts []parseCase
	if err := json.Unmarshal(parseCaseSections(t)["scripts"], &scripts); err != nil {
		t.Fatal(err)
	}
	if len(scripts) == 0 {
		t.Fatal("parse-cases.json has no scripts")
	}
	return scripts
}

// newestDeviations are the corpus entries where adtest deliberately follows
// the newest grammar instead of agent-device v0.20.3 (listed in doc.go). Each
// one must match the v0.20.3 golden when parsed with the legacy grammar, so
// the deviation is exactly the documented one.
var newestDeviations = map[string]string{
	"callstack-index-newest/examples/test-app/replays/drag.ad":         "single-quoted tokens: 'id=\"drag-source\"' decodes to id=\"drag-source\"",
	"callstack-index-newest/examples/test-app/replays/drag-android.ad": "single-quoted tokens in gesture drag selectors",
	"lex.single-quote-is-bare-in-v0.20":                                "single-quoted tokens: 'id=\"x\"' decodes to id=\"x\"",
	"lex.single-quote-with-space-v0.20":                                "single-quoted tokens: a quoted run keeps its space",
}

// normalise round-trips v through JSON so numbers and maps compare equal.
func normalise(t testing.TB, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if m, ok := out.(map[string]any); ok {
		delete(m, "file")
	}
	return out
}

func compatFor(t testing.TB, file string, src []byte, cfg parseConfig) any {
	s, errs := parseWith(file, src, cfg)
	return normalise(t, CompatJSON(file, s, errs))
}

var legacyConfig = parseConfig{legacySingleQuote: true, legacyAnnotations: true}

func checkCorpusEntry(t *testing.T, id string, src []byte, expect json.RawMessage) (deviation bool) {
	t.Helper()
	var want any
	if err := json.Unmarshal(expect, &want); err != nil {
		t.Fatal(err)
	}
	got := compatFor(t, id, src, parseConfig{})
	reason, allowed := newestDeviations[id]
	if allowed {
		if reflect.DeepEqual(got, want) {
			t.Errorf("%s: listed as a deviation (%s) but matches v0.20.3; remove it from newestDeviations", id, reason)
		}
		legacy := compatFor(t, id, src, legacyConfig)
		if !reflect.DeepEqual(legacy, want) {
			gb, _ := json.MarshalIndent(legacy, "", " ")
			t.Errorf("%s: the legacy grammar does not reproduce v0.20.3:\n%s\nwant:\n%s", id, gb, expect)
		}
		return true
	}
	if !reflect.DeepEqual(got, want) {
		gb, _ := json.MarshalIndent(got, "", " ")
		t.Errorf("%s: mismatch\ngot:\n%s\nwant:\n%s", id, gb, expect)
	}
	return false
}

func TestCorpus(t *testing.T) {
	root, files := corpusFiles(t)
	if len(files) < 70 {
		t.Fatalf("found only %d corpus files", len(files))
	}
	matched, deviations := 0, 0
	for _, rel := range files {
		src, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(root, "expected", rel+".parse.json"))
		if err != nil {
			t.Fatalf("%s: no golden: %v", rel, err)
		}
		var golden struct {
			File string          `json:"file"`
			V020 json.RawMessage `json:"v0_20_3"`
		}
		if err := json.Unmarshal(b, &golden); err != nil {
			t.Fatal(err)
		}
		if golden.File != rel {
			t.Errorf("%s: golden names %s", rel, golden.File)
		}
		if checkCorpusEntry(t, rel, src, golden.V020) {
			deviations++
		} else {
			matched++
		}
	}
	cases := loadParseCases(t)
	for _, c := range cases {
		if checkCorpusEntry(t, c.ID, []byte(c.Script), c.Expect) {
			deviations++
		} else {
			matched++
		}
	}
	t.Logf("corpus: %d files + %d parse cases: %d compared (mismatches fail the test), %d newest-grammar deviations", len(files), len(cases), matched, deviations)
}
