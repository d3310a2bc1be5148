package lang

import (
	"encoding/json"
	"errors"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"
)

// prCorpusFiles returns every .ad file of the corpus, keyed by its path
// relative to the corpus directory.
func prCorpusFiles(t testing.TB) map[string][]byte {
	t.Helper()
	root := corpusDir(t)
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".ad") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		files[filepath.ToSlash(rel)] = b
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("the corpus has no .ad files")
	}
	return files
}

// prNonBlankIndex maps each line number to its index among the non-blank
// lines of src.
func prNonBlankIndex(s *Script) map[int]int {
	idx := map[int]int{}
	n := 0
	for _, ln := range s.Lines {
		if ln.Kind != LineBlank {
			idx[ln.Pos.Line] = n
			n++
		}
	}
	return idx
}

// prCheckRoundTrip asserts the printer's contract for one source: out is
// canonical text, parses to the same script (actions at the same non-blank
// line index: actionLines move only by removed blank lines), and formatting
// it again changes nothing.
func prCheckRoundTrip(t *testing.T, name string, src, out []byte) {
	t.Helper()
	text := string(out)
	if strings.Contains(text, "\r") && !strings.Contains(string(src), "\r") {
		t.Errorf("%s: CR appeared in the output", name)
	}
	if len(text) > 0 {
		if !strings.HasSuffix(text, "\n") || strings.HasSuffix(text, "\n\n") {
			t.Errorf("%s: output must end with exactly one newline: %q", name, text)
		}
		if strings.HasPrefix(text, "\n") {
			t.Errorf("%s: output starts with a blank line", name)
		}
	}
	if strings.Contains(text, "\n\n\n") {
		t.Errorf("%s: a run of blank lines survived", name)
	}
	for i, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if l != TrimSpace(l) {
			t.Errorf("%s: output line %d has leading or trailing whitespace: %q", name, i+1, l)
		}
	}
	a, err := Parse(name, src)
	if err != nil {
		t.Fatalf("%s: the input does not parse: %v", name, err)
	}
	b, err := Parse(name, out)
	if err != nil {
		t.Fatalf("%s: the output does not parse: %v\n%s", name, err, out)
	}
	if d, _ := prDiffScripts(a, b); d != "" {
		t.Errorf("%s: parse(fmt(x)) != parse(x): %s\n--- input\n%s\n--- output\n%s", name, d, src, out)
	}
	// The compat JSON (what `adtest parse --json` prints) must be the same
	// apart from actionLines.
	ca, cb := CompatOf(name, src), CompatOf(name, out)
	ca.ActionLines, cb.ActionLines = nil, nil
	ja, erra := json.Marshal(ca)
	jb, errb := json.Marshal(cb)
	if erra != nil || errb != nil || string(ja) != string(jb) {
		t.Errorf("%s: compat JSON changed (%v %v)\n%s\n%s", name, erra, errb, ja, jb)
	}
	ia, ib := prNonBlankIndex(a), prNonBlankIndex(b)
	for i := range a.Actions {
		if i < len(b.Actions) && ia[a.Actions[i].Line()] != ib[b.Actions[i].Line()] {
			t.Errorf("%s: step %d moved from line %d to %d by more than the removed blank lines", name, i+1, a.Actions[i].Line(), b.Actions[i].Line())
		}
	}
	again, err := FormatSource(name, out)
	if err != nil {
		t.Fatalf("%s: formatting the output failed: %v", name, err)
	}
	if string(again) != text {
		t.Errorf("%s: fmt is not idempotent\n--- fmt(x)\n%s\n--- fmt(fmt(x))\n%s", name, out, again)
	}
}

func TestFormatGolden(t *testing.T) {
	inputs, err := filepath.Glob("testdata/fmt/*.input")
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no golden inputs in testdata/fmt (%v)", err)
	}
	g := goldie.New(t, goldie.WithFixtureDir("testdata/fmt"), goldie.WithNameSuffix(".golden"))
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".input")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			out, err := FormatSource(name+".ad", src)
			if err != nil {
				t.Fatalf("FormatSource: %v", err)
			}
			g.Assert(t, name, out)
			prCheckRoundTrip(t, name+".ad", src, out)
		})
	}
}

func TestFormatLines(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"empty file stays empty", "", ""},
		{"only blank lines", "\n \n\t\n", ""},
		{"missing final newline is added", "close", "close\n"},
		{"blank runs collapse, ends trimmed", "\n\n# c\nopen a\n\n\n\nclose\n\n\n", "# c\nopen a\n\nclose\n"},
		{"CRLF becomes LF", "open a\r\n\r\nclose\r\n", "open a\n\nclose\n"},
		{"tokens one space apart", "wait\t\t500  ", "wait 500\n"},
		{"keywords are bare", "scroll \"down\" 0.6", "scroll down 0.6\n"},
		{"leading keywords are bare, text stays quoted", `wait "text" "Hello Ada" 5000`, `wait text "Hello Ada" 5000` + "\n"},
		{"is keyword bare", `is "visible" "id=x"`, `is visible "id=x"` + "\n"},
		{"settings keywords bare", `settings "animations" "off"`, "settings animations off\n"},
		{"a keyword-shaped word after the target keeps its quotes", `find text "Product 7" "click"`, `find text "Product 7" "click"` + "\n"},
		{"fill text is never a keyword", `fill "label=\"Country\"" "fr"`, `fill "label=\"Country\"" "fr"` + "\n"},
		{"a quoted word that is no keyword keeps its quotes", `open "a"`, `open "a"` + "\n"},
		{"a bare word stays bare", `open ${AD_BASE_URL}/login.html`, `open ${AD_BASE_URL}/login.html` + "\n"},
		{"a bare word with quotes inside stays bare", `fill id="name" "Ada"`, `fill id="name" "Ada"` + "\n"},
		{"a quoted flag-like keyword stays quoted", `scroll "--x"`, `scroll "--x"` + "\n"},
		{"quoted ref and number become bare", "wait \"@e7\" \"5000\"", "wait @e7 5000\n"},
		{"ref with quote stays quoted", `click "@e1\"x"`, `click "@e1\"x"` + "\n"},
		{"non-canonical numbers stay quoted", "wait 1e3 +5 .5", "wait 1e3 +5 .5\n"}, {"non-canonical numbers quoted stay quoted", `wait "1e3" "+5"`, `wait "1e3" "+5"` + "\n"},
		{"no HTML escaping", `type <a href="x">&</a>`, `type <a href="x">&</a>` + "\n"}, {"no HTML escaping when quoted", `type "<a>&"`, `type "<a>&"` + "\n"},
		{"fill ref label text keeps its three tokens", "fill @e2 hello world", "fill @e2 hello world\n"},
		{"empty string survives", `fill @e4 ""`, `fill @e4 ""` + "\n"},
		{"adjacent quoted tokens split", `type "a""b"`, `type "a" "b"` + "\n"},
		{"click flags go last in fixed order", "click --double-tap --count 2 @e1 --interval-ms 150", "click @e1 --count 2 --interval-ms 150 --double-tap\n"},
		{"click flag with a bad value stays positional", "click 10 20 --count abc", "click 10 20 \"--count\" abc\n"},
		{"type keeps a quoted flag name as text", `type "--delay-ms" "abc" --delay-ms 20`, `type "--delay-ms" "abc" --delay-ms 20` + "\n"},
		{"snapshot canonical spelling and order, ignored tokens kept", "snapshot --raw --scope Catalog -c --depth 3 -i --backend xctest", "snapshot -i -d 3 -s \"Catalog\" --raw -c --backend xctest\n"},
		{"open runtime hints bare when safe", `open --platform "ios" app --relaunch --launch-url "my app://x"`, `open app --relaunch --platform ios --launch-url "my app://x"` + "\n"},
		{"enumerated flag values bare", `swipe 1 2 3 4 --pattern "ping-pong"`, "swipe 1 2 3 4 --pattern ping-pong\n"},
		{"screenshot -f becomes --fullscreen", "screenshot -f out.png", "screenshot out.png --fullscreen\n"},
		{"unknown flags stay positionals", "back --system", "back \"--system\"\n"},
		{"quoted directive words stay quoted commands", "\"env\" A=1\n\"context\" platform=ios", "\"env\" A=1\n\"context\" platform=ios\n"},
		{"quoted command word becomes bare", "\"click\" @e1", "click @e1\n"},
		{"env value verbatim", "env   MSG=hello  big   world\nopen a", "env MSG=hello  big   world\nopen a\n"},
		{"env quoted value verbatim", `env G="Hi, ${X}"`, `env G="Hi, ${X}"` + "\n"},
		{"context values raw, one space apart", "context   platform=ios   device=\"iPhone 17\"\nopen a", "context platform=ios device=\"iPhone 17\"\nopen a\n"},
		{"context after an action is kept", "open a\ncontext  platform=ios", "open a\ncontext platform=ios\n"},
		{"comments as written", "#x  y\n  # z", "#x  y\n# z\n"},
		{"annotation keys in canonical order", "#agent-device:target-v1  {\"verification\":\"verified\", \"role\":\"button\"}\nclick @e1",
			"# agent-device:target-v1 {\"role\":\"button\",\"verification\":\"verified\"}\nclick @e1\n"},
		{"annotation nested order and unknown keys last", `# agent-device:target-v1 {"x":1,"rect":{"height":4,"width":3,"y":2,"x":1},"ancestry":[{"label":"L","role":"r"}],"role":"cell","verification":"verified"}` + "\nclick @e1",
			`# agent-device:target-v1 {"role":"cell","ancestry":[{"role":"r","label":"L"}],"rect":{"x":1,"y":2,"width":3,"height":4},"verification":"verified","x":1}` + "\nclick @e1\n"},
		{"annotation with duplicate keys kept as written", `# agent-device:target-v1 {"verification":"verified","role":"a","role":"b"}` + "\nclick @e1",
			`# agent-device:target-v1 {"verification":"verified","role":"a","role":"b"}` + "\nclick @e1\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := FormatSource("t.ad", []byte(tc.in))
			if err != nil {
				t.Fatalf("FormatSource(%q): %v", tc.in, err)
			}
			if string(out) != tc.want {
				t.Errorf("FormatSource(%q)\n got %q\nwant %q", tc.in, out, tc.want)
			}
			prCheckRoundTrip(t, "t.ad", []byte(tc.in), out)
		})
	}
}

func TestFormatParseErrorIsReturned(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		line     int
		message  string
	}{
		{"bad escape", "open a\ntype \"price \\$5\"\n", 2, `Invalid quoted value "price \$5" in replay script line: type "price \$5"`},
		{"unclosed quote", "click \"label=A\n", 1, `Invalid replay script line: click "label=A`},
		{"annotation before a blank line", "# agent-device:target-v1 {\"role\":\"button\",\"verification\":\"verified\"}\n\nclick @e1\n", 2,
			"target-v1 annotation on line 1 must be immediately followed by its action line (line 2 is blank)."},
		{"env after an action", "open a\nenv A=1\n", 2, "env directives must precede all actions (line 2)."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := FormatSource("bad.ad", []byte(tc.in))
			if out != nil {
				t.Errorf("output %q for a script that does not parse", out)
			}
			var le *Error
			if !errors.As(err, &le) {
				t.Fatalf("error %v (%T), want *Error", err, err)
			}
			if le.Message != tc.message || le.Pos.Line != tc.line {
				t.Errorf("error line %d %q, want line %d %q", le.Pos.Line, le.Message, tc.line, tc.message)
			}
		})
	}
}

func TestFormatReturnsLineError(t *testing.T) {
	t.Parallel()
	s, errs := ParseAll("t.ad", []byte("open a\nclick \"x\n"))
	if len(errs) != 1 {
		t.Fatalf("ParseAll errors %v, want one", errs)
	}
	out, err := Format(s)
	if out != nil || err != errs[0] {
		t.Errorf("Format = %q, %v; want no output and the line's error %v", out, err, errs[0])
	}
}

// TestFormatRefusesToChangeMeaning feeds Format a script whose action no
// longer matches its line: the printer's own re-parse must catch it.
func TestFormatRefusesToChangeMeaning(t *testing.T) {
	t.Parallel()
	s, err := Parse("t.ad", []byte("open a\n"))
	if err != nil {
		t.Fatal(err)
	}
	s.Actions[0].Positionals = []string{"b"}
	out, err := Format(s)
	var le *Error
	if !errors.As(err, &le) || out != nil {
		t.Fatalf("Format = %q, %v; want an *Error and no output", out, err)
	}
	want := `fmt: formatting would change the script's meaning (step 1: {"Command":"open","Positionals":["b"],"Flags":null,"Runtime":null,"RefLabel":null,"TargetEvidence":null,"Targets":null} became {"Command":"open","Positionals":["a"],"Flags":null,"Runtime":null,"RefLabel":null,"TargetEvidence":null,"Targets":null}); the file was left unchanged`
	if le.Message != want || le.Code != prCodeInternal || le.Pos.Line != 1 || le.Pos.Column != 1 {
		t.Errorf("error %s at %d:%d %q\nwant %s at 1:1 %q", le.Code, le.Pos.Line, le.Pos.Column, le.Message, prCodeInternal, want)
	}
}

func TestFormatCorpusRoundTrip(t *testing.T) {
	t.Parallel()
	parsed := 0
	for name, src := range prCorpusFiles(t) {
		if _, err := Parse(name, src); err != nil {
			// A file that does not parse must make fmt fail with that error.
			if out, ferr := FormatSource(name, src); ferr == nil || ferr.Error() != err.Error() || out != nil {
				t.Errorf("%s: FormatSource = %q, %v; want the parse error %v", name, out, ferr, err)
			}
			continue
		}
		parsed++
		out, err := FormatSource(name, src)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		prCheckRoundTrip(t, name, src, out)
	}
	if parsed < 60 {
		t.Errorf("only %d corpus files parsed; expected at least 60 of them", parsed)
	}
}

func TestFormatParseCasesRoundTrip(t *testing.T) {
	t.Parallel()
	parsed := 0
	for _, c := range loadParseCases(t) {
		src := []byte(c.Script)
		if _, err := Parse(c.ID, src); err != nil {
			if out, ferr := FormatSource(c.ID, src); ferr == nil || ferr.Error() != err.Error() || out != nil {
				t.Errorf("%s: FormatSource = %q, %v; want the parse error %v", c.ID, out, ferr, err)
			}
			continue
		}
		parsed++
		out, err := FormatSource(c.ID, src)
		if err != nil {
			t.Errorf("%s: %v", c.ID, err)
			continue
		}
		prCheckRoundTrip(t, c.ID, src, out)
	}
	if parsed < 50 {
		t.Errorf("only %d parse cases parsed; expected at least 50", parsed)
	}
}

func BenchmarkFormatSource(b *testing.B) {
	src, err := os.ReadFile("testdata/fmt/recorded.input")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := FormatSource("recorded.ad", src); err != nil {
			b.Fatal(err)
		}
	}
}

// TestFormatGeneratedScripts checks the round-trip contract on scripts built
// from the tokens that stress the printer: flag names quoted and bare, flag
// values that are and are not numbers, refs, quotes of both kinds, '#',
// directive words, odd whitespace, annotations, env and context lines. The
// generator is seeded, so a failure reproduces.
func TestFormatGeneratedScripts(t *testing.T) {
	t.Parallel()
	cmds := []string{"click", "press", "fill", "type", "snapshot", "open", "swipe", "gesture", "record", "screenshot", "wait",
		"scroll", "get", "longpress", "fold", `"click"`, `"env"`, `"context"`, "'click'", "back", "is", "find"}
	toks := []string{"--count", "--interval-ms", "--double-tap", "--button", "--pause-ms", "--pattern", "--pointer-count",
		"--delay-ms", "-i", "-c", "-d", "--depth", "-s", "--scope", "--raw", "--force-full", "--backend", "--relaunch",
		"--platform", "--metro-host", "--metro-port", "--launch-url", "--fps", "--quality", "--hide-touches", "--max-size",
		"--pixel-density", "--fullscreen", "--full", "-f", "--crop-on", "--scale", "--until", "--keyframes",
		`"--count"`, `"--delay-ms"`, "'--count'", "1", "0", "-3", "2.5", "1e3", "0x10", `""`, `"5"`, "@e1", "@e2~s3",
		`"@e4"`, "@", "abc", `"a b"`, "'a b'", "label=x", `"label=\"y z\""`, "${X}", "ios", "secondary", "ping-pong",
		"pan", "fling", "up", "start", "text", "#", "#x", `"#"`, `\`, `"\\"`, `x"y`, "'q'", "é", `"\u2028"`, `"\t"`,
		"primary", "web", "stable", `"-i"`, "''", `'\''`, "\r", "\u00a0", `"\ud800"`, "<&>"}
	others := []string{"", "", "  ", "# c", `#agent-device:target-v1 {"verification":"verified", "role":"b"}`,
		`# agent-device:targets-v1 {"destination":{"role":"a","verification":"verified"},"source":{"verification":"verified","role":"b"}}`,
		"env A=1", `env  B="x y"`, `context  platform=ios  x="a  b"`, "context\tplatform=android", "context retries=2 timeout=5ms",
		"\r", "\ufeff", "env C=  sp  "}
	r := rand.New(rand.NewSource(2))
	parsed := 0
	for i := 0; i < 3000; i++ {
		var lines []string
		for l := 0; l < 1+r.Intn(6); l++ {
			if r.Intn(3) == 0 {
				lines = append(lines, others[r.Intn(len(others))])
				continue
			}
			w := []string{cmds[r.Intn(len(cmds))]}
			for k := 0; k < r.Intn(7); k++ {
				w = append(w, toks[r.Intn(len(toks))])
			}
			lines = append(lines, strings.Join(w, " "))
		}
		src := []byte(strings.Join(lines, "\n") + "\n")
		if _, err := Parse("gen.ad", src); err != nil {
			continue
		}
		parsed++
		out, err := FormatSource("gen.ad", src)
		if err != nil {
			t.Fatalf("FormatSource(%q): %v", src, err)
		}
		prCheckRoundTrip(t, "gen.ad", src, out)
		if t.Failed() {
			t.Fatalf("input %q", src)
		}
	}
	if parsed < 1000 {
		t.Errorf("only %d of 3000 generated scripts parsed", parsed)
	}
}

// BenchmarkFormatCorpus formats every corpus file that parses, once per op.
func BenchmarkFormatCorpus(b *testing.B) {
	var srcs [][]byte
	size := 0
	for _, src := range prCorpusFiles(b) {
		if _, err := Parse("c.ad", src); err == nil {
			srcs = append(srcs, src)
			size += len(src)
		}
	}
	b.SetBytes(int64(size))
	for b.Loop() {
		for _, src := range srcs {
			if _, err := FormatSource("c.ad", src); err != nil {
				b.Fatal(err)
			}
		}
	}
}
