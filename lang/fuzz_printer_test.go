package lang

import "testing"

// FuzzFormatRoundTrip: for any input that parses, fmt succeeds, its output
// parses to the same script, and fmt is idempotent; an input that does not
// parse makes fmt fail with the parse error. Seeded with the corpus and the
// parse-cases fixtures.
func FuzzFormatRoundTrip(f *testing.F) {
	for _, src := range prCorpusFiles(f) {
		f.Add(string(src))
	}
	for _, c := range loadParseCases(f) {
		f.Add(c.Script)
	}
	f.Fuzz(func(t *testing.T, src string) {
		in := []byte(src)
		if _, err := Parse("fuzz.ad", in); err != nil {
			if out, ferr := FormatSource("fuzz.ad", in); ferr == nil || out != nil {
				t.Fatalf("FormatSource = %q, %v for a script that does not parse (%v)", out, ferr, err)
			}
			return
		}
		out, err := FormatSource("fuzz.ad", in)
		if err != nil {
			t.Fatalf("FormatSource(%q): %v", src, err)
		}
		prCheckRoundTrip(t, "fuzz.ad", in, out)
	})
}
