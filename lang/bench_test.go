package lang

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"
)

// The tests of this file guard the parser's performance properties (pooled
// slices that must not alias, allocations independent of the token count);
// the benchmarks below measure it.

func TestHasLineTerminator(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want bool
	}{
		{"empty", "", false},
		{"ascii", `{"a":1}`, false},
		{"CR", "{}\r{}", true},
		{"line separator", "{}\u2028", true},
		{"paragraph separator", "\u2029{}", true},
		{"U+2027 shares the lead bytes", "a\u2027b", false},
		{"euro sign shares the lead byte", "€ \u20AC", false},
		{"separator after a false start", "€\u2028", true},
		{"truncated sequence at the end", "a\xe2\x80", false},
	}
	for _, tt := range tests {
		if got := hasLineTerminator(tt.in); got != tt.want {
			t.Errorf("%s: hasLineTerminator(%q) = %v, want %v", tt.name, tt.in, got, tt.want)
		}
	}
}

// decoderJSON is the reference validJSON must match: encoding/json's Decoder
// with UseNumber, then only JSON whitespace after the value.
func decoderJSON(payload string) (any, bool) {
	var v any
	dec := json.NewDecoder(strings.NewReader(payload))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return nil, false
	}
	return v, strings.TrimLeft(payload[dec.InputOffset():], " \t\r\n") == ""
}

var jsonSeeds = []string{
	``, ` `, `{}`, `[]`, `{"a":1}`, ` {"a" : [1, -2.5e+3, true, false, null, "x"]} `,
	`{"id":"add","role":"button","label":"Add to cart","ancestry":[{"role":"list"}],"sibling":1,"viewportOrder":0,"verification":"verified"}`,
	`{"a":1,"a":2}`, `{"a":1,}`, `[1,]`, `01`, `-`, `-0`, `1.`, `.5`, `1e`, `1E+9`, `+1`, `1 2`, `{}}`, `{} x`,
	`"\u00e9\ud83d\ude00"`, `"\ud83d"`, `"\ud83dx"`, `"\ude00\ud83d"`, `"\ud83d\u12"`, `"\ud83d\u0041"`,
	`"\x"`, "\"a\tb\"", "\"\xff\xfe\"", "\"\xed\xa0\x80\"", `"\/\b\f\n\r\t\"\\"`, `truex`, `[true1]`, `nul`,
	`{"a"}`, `{1:2}`, `[[[[]]]]`, "{\"k\":\"v\"}\u2028", "\"\x7f\"",
}

func TestValidJSONMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, in := range jsonSeeds {
		var got any
		ok := validJSON(in, &got)
		want, wantOK := decoderJSON(in)
		if ok != wantOK || ok && !reflect.DeepEqual(got, want) {
			t.Errorf("validJSON(%q) = %#v, %v; encoding/json gives %#v, %v", in, got, ok, want, wantOK)
		}
	}
}

// FuzzJSONMatchesEncodingJSON holds the annotation JSON parser to
// encoding/json on any input.
func FuzzJSONMatchesEncodingJSON(f *testing.F) {
	for _, s := range jsonSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var got any
		ok := validJSON(in, &got)
		want, wantOK := decoderJSON(in)
		if ok != wantOK || ok && !reflect.DeepEqual(got, want) {
			t.Fatalf("validJSON(%q) = %#v, %v; encoding/json gives %#v, %v", in, got, ok, want, wantOK)
		}
	})
}

// TestFlagShortcutActive: decodeArgs looks a token up in the command's
// flags only when it starts with '-', which is exact while every flag of the
// table is spelt that way (otherwise the shortcut turns itself off).
func TestFlagShortcutActive(t *testing.T) {
	t.Parallel()
	if !flagsAllDashed() {
		t.Fatal("a flag spelling does not start with '-': mayBeFlag no longer spares any lookup")
	}
	for _, tc := range []struct {
		tok  string
		want bool
	}{{"-i", true}, {"--count", true}, {"count", false}, {"@e1", false}, {"", false}} {
		if got := mayBeFlag(tc.tok); got != tc.want {
			t.Errorf("mayBeFlag(%q) = %v, want %v", tc.tok, got, tc.want)
		}
	}
}

// seqScanDQ and seqScanSQ are the byte-at-a-time definitions of the quoted
// token scanners (spec §1.3): scanDQ and scanSQ find the quotes with
// IndexByte and must agree with them.
func seqScanDQ(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

func seqScanSQ(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if i+1 < len(s) && s[i+1] == '\'' {
				i++
			}
		case '\'':
			return i + 1
		}
	}
	return -1
}

var quotedSeeds = []string{
	`"`, `""`, `"abc"`, `"a\"b" c`, `"a\\" c`, `"\\\"x"`, `"\"\\"`, `"\`, `"abc`, `"\\\\"`, `"a\\\\\"b"c"`,
	`'`, `''`, `'abc'`, `'it\'s' x`, `'a\\'b'`, `'\'`, `'\''`, `'a\b'`, `'abc`,
	`"ab\n ab\n "`, `"\u00e9\ud83d\ude00"`, `"\ud83d"`, `"\$"`, "\"a\tb\"", `"a"b"`, `"\u12g4"`, `"q\"\\\/\b\f\n\r\t"`,
}

// checkQuoted compares the scanners with their definitions and
// decodeJSONString with encoding/json (which agrees with JSON.parse on valid
// UTF-8; on invalid UTF-8 the parser keeps the bytes as written).
func checkQuoted(t *testing.T, in string) {
	t.Helper()
	if in == "" {
		return
	}
	if in[0] == '"' {
		if got, want := scanDQ(in), seqScanDQ(in); got != want {
			t.Errorf("scanDQ(%q) = %d, want %d", in, got, want)
		}
	}
	if in[0] == '\'' {
		if got, want := scanSQ(in), seqScanSQ(in); got != want {
			t.Errorf("scanSQ(%q) = %d, want %d", in, got, want)
		}
	}
	if !utf8.ValidString(in) {
		return
	}
	got, ok := decodeJSONString(in)
	var want string
	wantOK := len(in) >= 2 && in[0] == '"' && in[len(in)-1] == '"' && json.Unmarshal([]byte(in), &want) == nil
	if ok != wantOK || ok && got != want {
		t.Errorf("decodeJSONString(%q) = %q, %v; encoding/json gives %q, %v", in, got, ok, want, wantOK)
	}
}

func TestQuotedScannersMatchDefinitions(t *testing.T) {
	t.Parallel()
	for _, in := range quotedSeeds {
		checkQuoted(t, in)
	}
}

func FuzzQuotedScanners(f *testing.F) {
	for _, in := range quotedSeeds {
		f.Add(in)
	}
	f.Fuzz(checkQuoted)
}

// TestPooledSlicesDoNotAlias: the parser hands out Positionals, ArgPos and
// Tokens as slices of one pool per script; appending to one action's slices
// must never overwrite the next action's (press fills its whole share of the
// pools, so an uncapped slice would write into click's).
func TestPooledSlicesDoNotAlias(t *testing.T) {
	t.Parallel()
	s, err := Parse("p.ad", []byte("press 10 20\nclick a b\nfill @e1 Email ada@example.com\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Actions) != 3 {
		t.Fatalf("%d actions", len(s.Actions))
	}
	for _, a := range s.Actions {
		a.Positionals = append(a.Positionals, "X")
		a.ArgPos = append(a.ArgPos, Pos{Line: 99})
		a.Tokens = append(a.Tokens, &Token{Value: "X"})
	}
	var got []string
	for i, a := range s.Actions {
		var toks, line []string
		for _, tk := range a.Tokens {
			toks = append(toks, tk.Value)
		}
		for _, tk := range s.Lines[i].Tokens {
			line = append(line, tk.Value)
		}
		got = append(got, fmt.Sprintf("%s %q %d %q %q", a.Command, a.Positionals, a.ArgPos[0].Line, toks, line))
	}
	want := []string{
		`press ["10" "20" "X"] 1 ["10" "20" "X"] ["press" "10" "20"]`,
		`click ["a b" "X"] 2 ["a" "b" "X"] ["click" "a" "b"]`,
		`fill ["@e1" "ada@example.com" "X"] 3 ["@e1" "Email" "ada@example.com" "X"] ["fill" "@e1" "Email" "ada@example.com"]`,
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("action %d:\n got %s\nwant %s", i+1, got[i], want[i])
		}
	}
}

// TestLongLineAllocations: parsing a line costs a fixed number of allocations
// whatever its number of tokens (the pools are sized by the lexer's count, so
// nothing is regrown), and a bounded number of bytes per input byte.
func TestLongLineAllocations(t *testing.T) {
	line := func(words int) []byte { return []byte("click " + strings.Repeat("x ", words) + "\n") }
	small, big := line(1<<10), line(1<<17)
	parse := func(src []byte) func() {
		return func() {
			if _, err := Parse("long.ad", src); err != nil {
				t.Fatal(err)
			}
		}
	}
	a1 := testing.AllocsPerRun(3, parse(small))
	a2 := testing.AllocsPerRun(3, parse(big))
	if a1 != a2 {
		t.Errorf("allocations grow with the tokens: %v for 1Ki words, %v for 128Ki words", a1, a2)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	parse(big)()
	runtime.ReadMemStats(&after)
	// Per 2-byte word: Token 80 + *Token 8 + positional 16 + Pos 40 bytes.
	if perByte := float64(after.TotalAlloc-before.TotalAlloc) / float64(len(big)); perByte > 90 {
		t.Errorf("%.1f bytes allocated per input byte, want at most 90", perByte)
	}
}

// BenchmarkParseCorpus parses every corpus file once per iteration.
func BenchmarkParseCorpus(b *testing.B) {
	root, files := corpusFiles(b)
	srcs := make([][]byte, len(files))
	for i, rel := range files {
		src, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			b.Fatal(err)
		}
		srcs[i] = src
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for i, src := range srcs {
			_, _ = Parse(files[i], src)
		}
	}
}

// realisticScript generates n lines in the shape of recorded scripts.
func realisticScript(n int) []byte {
	var sb strings.Builder
	sb.WriteString("context platform=android timeout=60000 retries=1 device=\"Pixel 9\"\nenv APP=com.example.shop\n")
	body := []string{
		"open ${APP} --relaunch",
		"snapshot -i",
		"# agent-device:target-v1 {\"id\":\"add\",\"role\":\"button\",\"label\":\"Add to cart\",\"ancestry\":[{\"role\":\"list\"}],\"sibling\":1,\"viewportOrder\":0,\"verification\":\"verified\"}",
		"click \"role=button label=\\\"Add to cart\\\" || label=\\\"Add to cart\\\"\" --count 2",
		"fill \"id=email\" \"ada@example.com\" --delay-ms 20",
		"wait \"label=\\\"Order summary\\\"\" 5000",
		"scroll down 0.6",
		"",
		"# step comment",
		"swipe 200 700 200 250 --count 2 --pattern ping-pong",
		"gesture pan 206 700 0 -450 300",
		"press @e12 \"Continue\"",
		"type \"hello world\"",
		"screenshot ./shots/step.png --fullscreen",
	}
	for i := 2; i < n; i++ {
		sb.WriteString(body[i%len(body)])
		sb.WriteByte('\n')
	}
	return []byte(sb.String())
}

// BenchmarkParse10kLines parses a generated 10,000-line realistic script.
func BenchmarkParse10kLines(b *testing.B) {
	src := realisticScript(10000)
	if _, err := Parse("big.ad", src); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		_, _ = Parse("big.ad", src)
	}
}

// BenchmarkParseLongLine parses one action line of the given size; compare
// the sizes to see linear growth.
func BenchmarkParseLongLine(b *testing.B) {
	for _, size := range []int{64 << 10, 1 << 20} {
		quoted := "type \"" + strings.Repeat("ab\\n ", size/5) + "\"\n"
		bare := "click " + strings.Repeat("x ", size/2) + "\n"
		for name, src := range map[string]string{"quoted": quoted, "bare": bare} {
			b.Run(fmt.Sprintf("%s-%dKiB", name, size>>10), func(b *testing.B) {
				if _, err := Parse("long.ad", []byte(src)); err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(len(src)))
				for b.Loop() {
					_, _ = Parse("long.ad", []byte(src))
				}
			})
		}
	}
}
