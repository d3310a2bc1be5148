package lang

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzSelector checks that no input panics ParseSelectorChain, the target and
// wait decoders or interpolation, and that a parsed chain is well formed: at
// least one segment, every segment with at least one term, every key known.
func FuzzSelector(f *testing.F) {
	var cases []struct {
		Input string `json:"input"`
	}
	if err := json.Unmarshal(parseCaseSections(f)["selectors"], &cases); err == nil {
		for _, c := range cases {
			f.Add(c.Input)
		}
	}
	for _, s := range []string{`label="a\"b" || id='x'`, `visible=TRUE editable`, `'`, `"\u12`, `a=b||`, "\u00a0||\ufeff", `${A:-\}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		chain, err := ParseSelectorChain(expr)
		if err == nil {
			if len(chain.Segments) == 0 {
				t.Fatalf("%q: chain without segments", expr)
			}
			for _, seg := range chain.Segments {
				if len(seg.Terms) == 0 {
					t.Fatalf("%q: segment %q without terms", expr, seg.Raw)
				}
				for _, term := range seg.Terms {
					if !IsSelectorKey(term.Key) || term.Key != strings.ToLower(term.Key) {
						t.Fatalf("%q: bad key %q", expr, term.Key)
					}
				}
			}
		} else if _, ok := err.(*Error); !ok {
			t.Fatalf("%q: error %T is not *Error", expr, err)
		}
		fields := strings.Fields(expr)
		_, _ = DecodeInteractionTarget(fields)
		_, _ = DecodeTarget(fields, TargetOptions{Trailing: 1})
		_, _ = DecodeWait(fields)
		_, _ = (&Scope{}).Interpolate(expr, "f.ad", 1)
		_ = VarRefs(expr)
		_, _ = JSNumber(expr)
	})
}

// FuzzCheck checks that parsing and checking any text never panics and that
// every diagnostic carries a line and a known severity.
func FuzzCheck(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "check", "*.ad"))
	for _, p := range files {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(src)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		_, ds := CheckSource("f.ad", src, CheckOptions{Vars: map[string]string{"A": "1"}})
		for _, d := range ds {
			if d.Pos.Line < 1 || (d.Severity != SeverityError && d.Severity != SeverityWarning) || d.Message == "" {
				t.Fatalf("bad diagnostic %+v", d)
			}
		}
	})
}
