package lang

import (
	"testing"
	"unicode/utf8"
)

// FuzzFormatAction: every action of a script that parses prints through
// FormatAction (the recorder's writer) to text that parses back to the same
// action, evidence included. Seeded with the corpus and the parse cases.
func FuzzFormatAction(f *testing.F) {
	for _, src := range prCorpusFiles(f) {
		f.Add(string(src))
	}
	for _, c := range loadParseCases(f) {
		f.Add(c.Script)
	}
	f.Fuzz(func(t *testing.T, src string) {
		s, err := Parse("fuzz.ad", []byte(src))
		if err != nil {
			return
		}
		for _, a := range s.Actions {
			if !validUTF8Action(a) {
				continue // FormatAction writes JSON strings: see rawBareSafe
			}
			text := FormatAction(a)
			again, err := Parse("fuzz.ad", []byte(text+"\n"))
			if err != nil {
				t.Fatalf("FormatAction of line %d = %q, which does not parse: %v", a.Line(), text, err)
			}
			if len(again.Actions) != 1 {
				t.Fatalf("FormatAction of line %d = %q, %d actions", a.Line(), text, len(again.Actions))
			}
			if d := prDiffAction(a, again.Actions[0], true); d != "" {
				t.Fatalf("FormatAction of line %d = %q: %s", a.Line(), text, d)
			}
		}
	})
}

func validUTF8Action(a *Action) bool {
	ok := utf8.ValidString(a.Command)
	for _, p := range a.Positionals {
		ok = ok && utf8.ValidString(p)
	}
	for _, f := range []Flags{a.Flags, a.Runtime} {
		for _, v := range f {
			if s, isStr := v.(string); isStr {
				ok = ok && utf8.ValidString(s)
			}
		}
	}
	return ok && (a.RefLabel == nil || utf8.ValidString(*a.RefLabel))
}
