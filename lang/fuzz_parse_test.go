package lang

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParse checks that the parser never panics and keeps its invariants on
// any input: one Line per physical line, ArgPos parallel to Positionals,
// Parse's error is ParseAll's first in agent-device order, and the compat
// JSON always encodes.
func FuzzParse(f *testing.F) {
	root, files := corpusFiles(f)
	for _, rel := range files {
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, c := range loadParseCases(f) {
		f.Add([]byte(c.Script))
	}
	f.Add([]byte("click 'a\\'b' \"c\\u00e9\"\r\n# agent-device:targets-v1 {}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		s, err := Parse("f.ad", src)
		all, errs := parseWith("f.ad", src, parseConfig{})
		if want := strings.Count(string(src), "\n") + 1; len(s.Lines) != want {
			t.Fatalf("%d lines, want %d", len(s.Lines), want)
		}
		if (err == nil) != (len(errs) == 0) {
			t.Fatalf("Parse error %v but parseWith errors %v", err, errs)
		}
		if err != nil {
			e, ok := AsError(err)
			if !ok || e != errs[0] && e.Error() != errs[0].Error() {
				t.Fatalf("Parse error %v is not the first error %v", err, errs[0])
			}
		}
		if len(all.Actions) != len(s.Actions) {
			t.Fatalf("action counts differ")
		}
		for _, a := range s.Actions {
			if a.Positionals == nil || len(a.ArgPos) != len(a.Positionals) {
				t.Fatalf("line %d: %d positionals, %d positions", a.Pos.Line, len(a.Positionals), len(a.ArgPos))
			}
			if a.Pos.Line < 1 || a.Pos.Line > len(s.Lines) || s.Lines[a.Pos.Line-1].Action != a {
				t.Fatalf("action at line %d not on its line", a.Pos.Line)
			}
		}
		if _, err := json.Marshal(CompatJSON("f.ad", all, errs)); err != nil {
			t.Fatalf("compat JSON: %v", err)
		}
	})
}
