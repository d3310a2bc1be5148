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
	V0215  json.RawMessage `json:"v0_21_5"`
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

// corpusDeviation is a corpus entry where adtest differs from one column on
// purpose (listed in doc.go's deviations table).
type corpusDeviation struct {
	reason string
	// legacy is the grammar under which adtest must reproduce the column
	// exactly, so the deviation is exactly the documented one; nil when adtest
	// keeps the other column's behaviour instead (keptFrom).
	legacy   *parseConfig
	keptFrom string
}

var (
	legacyConfig      = parseConfig{legacySingleQuote: true, legacyAnnotations: true}
	singleQuoteConfig = parseConfig{legacySingleQuote: true}
)

// deviationsV020 are the entries where adtest follows the newest grammar (or
// 0.21.5) instead of agent-device v0.20.3.
var deviationsV020 = map[string]corpusDeviation{
	"callstack-index-newest/examples/test-app/replays/drag.ad":         {"single-quoted tokens: 'id=\"drag-source\"' decodes to id=\"drag-source\"", &legacyConfig, ""},
	"callstack-index-newest/examples/test-app/replays/drag-android.ad": {"single-quoted tokens in gesture drag selectors", &legacyConfig, ""},
	"lex.single-quote-is-bare-in-v0.20":                                {"single-quoted tokens: 'id=\"x\"' decodes to id=\"x\"", &legacyConfig, ""},
	"lex.single-quote-with-space-v0.20":                                {"single-quoted tokens: a quoted run keeps its space", &legacyConfig, ""},
	"ann.targets-v1-drag":                                              {"targets-v1 (not in v0.20.3, a comment there) gives targetEvidences as in 0.21.5", &legacyConfig, ""},
}

// deviationsV0215 are the entries where adtest differs from agent-device
// 0.21.5: the newest grammar's single-quoted tokens, and screenshot
// --max-size, which adtest keeps with v0.20.3's meaning (check warns).
var deviationsV0215 = map[string]corpusDeviation{
	"callstack-index-newest/examples/test-app/replays/drag.ad":         {"single-quoted tokens (newest source; 0.21.5 has none)", &singleQuoteConfig, ""},
	"callstack-index-newest/examples/test-app/replays/drag-android.ad": {"single-quoted tokens (newest source; 0.21.5 has none)", &singleQuoteConfig, ""},
	"lex.single-quote-is-bare-in-v0.20":                                {"single-quoted tokens (newest source; 0.21.5 has none)", &singleQuoteConfig, ""},
	"lex.single-quote-with-space-v0.20":                                {"single-quoted tokens (newest source; 0.21.5 has none)", &singleQuoteConfig, ""},
	"cmd.screenshot-max-size-invalid":                                  {"screenshot --max-size keeps its v0.20.3 meaning; 0.21.5 rejects it", nil, "v0_20_3"},
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

// corpusColumns are the golden columns of one corpus entry: v0_20_3 and
// v0_21_5 ("same" in the corpus resolved to v0_20_3's value).
type corpusColumns struct {
	v020, v0215 json.RawMessage
}

func resolveColumns(t *testing.T, id string, v020, v0215 json.RawMessage) corpusColumns {
	t.Helper()
	if len(v020) == 0 || len(v0215) == 0 {
		t.Fatalf("%s: a golden column is missing (v0_20_3 %d bytes, v0_21_5 %d bytes)", id, len(v020), len(v0215))
	}
	if string(v0215) == `"same"` {
		v0215 = v020
	}
	return corpusColumns{v020, v0215}
}

// checkCorpusEntry compares adtest's compat JSON of one entry with both
// columns; it returns which columns the entry deviates from on purpose.
func checkCorpusEntry(t *testing.T, id string, src []byte, cols corpusColumns) (devV020, devV0215 bool) {
	t.Helper()
	got := compatFor(t, id, src, parseConfig{})
	devV020 = checkColumn(t, id, src, got, "v0_20_3", cols.v020, cols, deviationsV020)
	devV0215 = checkColumn(t, id, src, got, "v0_21_5", cols.v0215, cols, deviationsV0215)
	return devV020, devV0215
}

func checkColumn(t *testing.T, id string, src []byte, got any, column string, expect json.RawMessage, cols corpusColumns, deviations map[string]corpusDeviation) bool {
	t.Helper()
	var want any
	if err := json.Unmarshal(expect, &want); err != nil {
		t.Fatalf("%s %s: %v", id, column, err)
	}
	dev, allowed := deviations[id]
	if !allowed {
		if !reflect.DeepEqual(got, want) {
			gb, _ := json.MarshalIndent(got, "", " ")
			t.Errorf("%s: mismatch with %s\ngot:\n%s\nwant:\n%s", id, column, gb, expect)
		}
		return false
	}
	if reflect.DeepEqual(got, want) {
		t.Errorf("%s: listed as a deviation from %s (%s) but matches it; remove it", id, column, dev.reason)
	}
	if dev.legacy != nil {
		if legacy := compatFor(t, id, src, *dev.legacy); !reflect.DeepEqual(legacy, want) {
			gb, _ := json.MarshalIndent(legacy, "", " ")
			t.Errorf("%s: the documented grammar difference does not reproduce %s:\n%s\nwant:\n%s", id, column, gb, expect)
		}
		return true
	}
	var kept any
	if err := json.Unmarshal(cols.v020, &kept); err != nil || dev.keptFrom != "v0_20_3" {
		t.Fatalf("%s: deviation keeps %q", id, dev.keptFrom)
	}
	if !reflect.DeepEqual(got, kept) {
		gb, _ := json.MarshalIndent(got, "", " ")
		t.Errorf("%s: said to keep %s's behaviour but differs from it:\n%s", id, dev.keptFrom, gb)
	}
	return true
}

func TestCorpus(t *testing.T) {
	root, files := corpusFiles(t)
	if len(files) < 70 {
		t.Fatalf("found only %d corpus files", len(files))
	}
	entries, devV020, devV0215 := 0, 0, 0
	seen := map[string]bool{}
	count := func(d020, d0215 bool) {
		entries++
		if d020 {
			devV020++
		}
		if d0215 {
			devV0215++
		}
	}
	for _, rel := range files {
		seen[rel] = true
		src, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(root, "expected", rel+".parse.json"))
		if err != nil {
			t.Fatalf("%s: no golden: %v", rel, err)
		}
		var golden struct {
			File  string          `json:"file"`
			V020  json.RawMessage `json:"v0_20_3"`
			V0215 json.RawMessage `json:"v0_21_5"`
		}
		if err := json.Unmarshal(b, &golden); err != nil {
			t.Fatal(err)
		}
		if golden.File != rel {
			t.Errorf("%s: golden names %s", rel, golden.File)
		}
		count(checkCorpusEntry(t, rel, src, resolveColumns(t, rel, golden.V020, golden.V0215)))
	}
	cases := loadParseCases(t)
	for _, c := range cases {
		seen[c.ID] = true
		count(checkCorpusEntry(t, c.ID, []byte(c.Script), resolveColumns(t, c.ID, c.Expect, c.V0215)))
	}
	for id := range deviationsV020 {
		if !seen[id] {
			t.Errorf("deviation %s (v0_20_3) names no corpus entry", id)
		}
	}
	for id := range deviationsV0215 {
		if !seen[id] {
			t.Errorf("deviation %s (v0_21_5) names no corpus entry", id)
		}
	}
	t.Logf("corpus: %d files + %d parse cases = %d entries, each compared with v0_20_3 and v0_21_5 (mismatches fail the test); documented deviations: %d from v0_20_3, %d from v0_21_5",
		len(files), len(cases), entries, devV020, devV0215)
}
