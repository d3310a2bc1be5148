package lang

import (
	"strings"
	"testing"
	"unicode"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/sebdah/goldie/v2"
)

func TestIsJSSpaceDiffersFromUnicode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		r    rune
		want bool
	}{
		{"space", ' ', true},
		{"tab", '\t', true},
		{"vertical tab", '\v', true},
		{"carriage return", '\r', true},
		{"nbsp", 0xA0, true},
		{"ogham space", 0x1680, true},
		{"en quad", 0x2000, true},
		{"hair space", 0x200A, true},
		{"zero width space is not", 0x200B, false},
		{"line separator", 0x2028, true},
		{"narrow nbsp", 0x202F, true},
		{"ideographic space", 0x3000, true},
		{"BOM is JS whitespace (not unicode.IsSpace)", 0xFEFF, true},
		{"NEL is not JS whitespace (unicode.IsSpace says yes)", 0x85, false},
		{"letter", 'a', false},
	}
	for _, tt := range tests {
		if got := isJSSpace(tt.r); got != tt.want {
			t.Errorf("%s: isJSSpace(%U) = %v, want %v", tt.name, tt.r, got, tt.want)
		}
	}
	if unicode.IsSpace(0xFEFF) || !unicode.IsSpace(0x85) {
		t.Fatal("the premise of this test changed")
	}
}

func TestTrimSpace(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"ascii", "  open x \t", "open x"},
		{"bom and nbsp", "\uFEFF\u00A0open\u3000", "open"},
		{"NEL kept", "\u0085open\u0085", "\u0085open\u0085"},
		{"all space", " \u2028 ", ""},
	}
	for _, tt := range tests {
		if got := TrimSpace(tt.in); got != tt.want {
			t.Errorf("%s: TrimSpace(%q) = %q, want %q", tt.name, tt.in, got, tt.want)
		}
	}
}

func typeName(typ lexer.TokenType) string {
	for n, v := range tokenSymbols {
		if v == typ {
			return n
		}
	}
	return "?"
}

// lexString renders the token stream as "Type(value)@line:col" words, the
// argument tokens of action lines in place of their line token, and EOL after
// every line.
func lexString(src string, singleQuotes bool) string {
	ts := newTokenStream("", splitLines(src), singleQuotes)
	var out []string
	for i := 0; ; i++ {
		tok, _ := ts.Next()
		if tok.EOF() {
			break
		}
		switch tok.Type {
		case tokBlank:
		case tokAction, tokContext:
			if tok.Type == tokContext {
				out = append(out, "Context:")
			}
			for _, a := range ts.args[i] {
				out = append(out, typeName(a.Type)+"("+a.Value+")@"+a.Pos.String())
			}
		default:
			out = append(out, typeName(tok.Type)+"("+tok.Value+")@"+tok.Pos.String())
		}
		out = append(out, "EOL")
	}
	return strings.Join(out, " ")
}

func TestLexer(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		src          string
		legacyQuotes bool
		want         string
	}{
		{"words and positions", "open  settings\n", false, "Word(open)@1:1 Word(settings)@1:7 EOL EOL"},
		{"indented line columns count bytes", "\t  wait 500", false, "Word(wait)@1:4 Word(500)@1:9 EOL"},
		{"BOM is stripped from line 1", "\uFEFFopen x", false, "Word(open)@1:4 Word(x)@1:9 EOL"},
		{"crlf", "open x\r\nwait 1\r\n", false, "Word(open)@1:1 Word(x)@1:6 EOL Word(wait)@2:1 Word(1)@2:6 EOL EOL"},
		{"lone CR separates tokens", "open a\rwait", false, "Word(open)@1:1 Word(a)@1:6 Word(wait)@1:8 EOL"},
		{"comment only at line start", "# hi\nclick \"a\" # no", false, `Comment(# hi)@1:1 EOL Word(click)@2:1 DQString("a")@2:7 Word(#)@2:11 Word(no)@2:13 EOL`},
		{"annotation", "# agent-device:target-v1 {}\n", false, "Annotation(# agent-device:target-v1 {})@1:1 EOL EOL"},
		{"future annotation version is a comment", "# agent-device:target-v2 {}", false, "Comment(# agent-device:target-v2 {})@1:1 EOL"},
		{"env line is one token", "env A=hello big world", false, "Env(env A=hello big world)@1:1 EOL"},
		{"envelope is a word", "envelope x", false, "Word(envelope)@1:1 Word(x)@1:10 EOL"},
		{"adjacent quoted tokens", `type "a""b"`, false, `Word(type)@1:1 DQString("a")@1:6 DQString("b")@1:9 EOL`},
		{"quoted then bare glued", `type "abc"def`, false, `Word(type)@1:1 DQString("abc")@1:6 Word(def)@1:11 EOL`},
		{"escaped quote does not close", `type "a\"b" c`, false, `Word(type)@1:1 DQString("a\"b")@1:6 Word(c)@1:13 EOL`},
		{"even backslashes close", `type "a\\" c`, false, `Word(type)@1:1 DQString("a\\")@1:6 Word(c)@1:12 EOL`},
		{"unclosed double quote", `type "abc`, false, `Word(type)@1:1 BadQuote("abc)@1:6 EOL`},
		{"inner quotes of a bare token are kept", `click id="x y"`, false, `Word(click)@1:1 Word(id="x)@1:7 Word(y")@1:13 EOL`},
		{"single quotes (newest)", `click 'label=A B'`, false, `Word(click)@1:1 SQString('label=A B')@1:7 EOL`},
		{"single quote escape", `type 'it\'s' x`, false, `Word(type)@1:1 SQString('it\'s')@1:6 Word(x)@1:14 EOL`},
		{"single quoted then bare glued", `type 'abc'def`, false, `Word(type)@1:1 SQString('abc')@1:6 Word(def)@1:11 EOL`},
		{"unclosed single quote", `type 'abc`, false, `Word(type)@1:1 BadQuote('abc)@1:6 EOL`},
		{"single quote is bare in v0.20", `click 'label=A B'`, true, `Word(click)@1:1 Word('label=A)@1:7 Word(B')@1:16 EOL`},
		{"apostrophe inside a bare token", `type don't`, false, `Word(type)@1:1 Word(don't)@1:6 EOL`},
		{"context line", "context platform=ios\ncontext\u00a0x\ncontextual", false, `Context: Word(context)@1:1 Word(platform=ios)@1:9 EOL Context: Word(context)@2:1 Word(x)@2:10 EOL Word(contextual)@3:1 EOL`},
		{"quoted context word is an action", `"context" x`, false, `DQString("context")@1:1 Word(x)@1:11 EOL`},
	}
	for _, tt := range tests {
		if got := lexString(tt.src, !tt.legacyQuotes); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.want)
		}
	}
}

func TestDecodeJSONString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, lit, want string
		ok              bool
	}{
		{"plain", `"abc"`, "abc", true},
		{"empty", `""`, "", true},
		{"escapes", `"q\"\\\/\b\f\n\r\t"`, "q\"\\/\b\f\n\r\t", true},
		{"unicode", `"\u00e9"`, "é", true},
		{"surrogate pair", `"\ud83d\ude00"`, "😀", true},
		{"lone surrogate", `"\ud83d"`, "\uFFFD", true},
		{"invalid escape", `"\$"`, "", false},
		{"invalid hex", `"\u12g4"`, "", false},
		{"short hex", `"\u12"`, "", false},
		{"raw tab", "\"a\tb\"", "", false},
		{"raw newline", "\"a\nb\"", "", false},
		{"trailing backslash", `"a\"`, "", false},
		{"inner quote", `"a"b"`, "", false},
	}
	for _, tt := range tests {
		got, ok := decodeJSONString(tt.lit)
		if ok != tt.ok || got != tt.want {
			t.Errorf("%s: decodeJSONString(%s) = %q, %v; want %q, %v", tt.name, tt.lit, got, ok, tt.want, tt.ok)
		}
	}
}

func TestAnnotationKind(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, line, kind, payload string }{
		{"target-v1", `# agent-device:target-v1 {"a":1}`, "target-v1", `{"a":1}`},
		{"no space after hash", `#agent-device:target-v1 {}`, "target-v1", `{}`},
		{"no payload", `# agent-device:target-v1`, "target-v1", ``},
		{"targets-v1", `# agent-device:targets-v1 {}`, "targets-v1", `{}`},
		{"version 2", `# agent-device:target-v2 {}`, "", ``},
		{"version 10", `# agent-device:target-v10 {}`, "", ``},
		{"glued payload", `# agent-device:target-v1{}`, "", ``},
		{"prose", `# see agent-device:target-v1 docs`, "", ``},
		{"CR inside payload", "# agent-device:target-v1 {}\r{}", "", ``},
	}
	for _, tt := range tests {
		k, p := annotationKind(tt.line)
		if k != tt.kind || p != tt.payload {
			t.Errorf("%s: annotationKind(%q) = %q, %q; want %q, %q", tt.name, tt.line, k, p, tt.kind, tt.payload)
		}
	}
}

func TestGrammarEBNFGolden(t *testing.T) {
	g := goldie.New(t, goldie.WithFixtureDir("testdata"), goldie.WithNameSuffix(".golden"))
	g.Assert(t, "grammar.ebnf", []byte(GrammarEBNF()+"\n"))
}
