package lang

import (
	"bytes"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// Token types of the .ad lexer. The lexer is line based (spec §1): it splits
// the source on "\n" (a preceding CR is trimmed as whitespace, a lone CR is
// ordinary whitespace), trims each line with the JavaScript whitespace set and
// classifies it. The grammar sees exactly one token per physical line (blank,
// comment, annotation, env, context or action); the argument tokens of
// context and action lines (bare, "double-quoted", 'single-quoted', or an
// unclosed quote) are the parser's Args production: the lexer counts them
// beside the stream (nextToken, countTokens) and the body builder scans them
// again into exactly sized pools, so no participle token is made per argument.
const (
	tokBlank      lexer.TokenType = iota + 1 // an empty line
	tokComment                               // a whole-line # comment
	tokAnnotation                            // # agent-device:target-v1 / targets-v1 line
	tokEnv                                   // a whole env directive line
	tokContext                               // a line whose first token is the bare word context
	tokAction                                // any other line
	tokWord                                  // argument: bare token
	tokDQ                                    // argument: "double-quoted" (raw, quotes included)
	tokSQ                                    // argument: 'single-quoted' (raw; newest grammar)
	tokBadQuote                              // argument: an unclosed quote, the rest of the line
)

var tokenSymbols = map[string]lexer.TokenType{
	"EOF":        lexer.EOF,
	"Blank":      tokBlank,
	"Comment":    tokComment,
	"Annotation": tokAnnotation,
	"Env":        tokEnv,
	"Context":    tokContext,
	"Action":     tokAction,
	"Word":       tokWord,
	"DQString":   tokDQ,
	"SQString":   tokSQ,
	"BadQuote":   tokBadQuote,
}

// isJSSpace reports whether r is in JavaScript's whitespace set (String.prototype.trim,
// regexp \s): ASCII space, TAB, LF, VT, FF, CR, U+00A0, U+1680, U+2000–U+200A,
// U+2028, U+2029, U+202F, U+205F, U+3000 and U+FEFF. It differs from
// unicode.IsSpace (no U+0085, plus U+FEFF), spec §1.1.
func isJSSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\v', '\f', '\r', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// spaceAt returns the byte length of the JS whitespace rune at s[i], or 0.
func spaceAt(s string, i int) int {
	c := s[i]
	if c < utf8.RuneSelf {
		switch c {
		case ' ', '\t', '\n', '\v', '\f', '\r':
			return 1
		}
		return 0
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	if isJSSpace(r) {
		return n
	}
	return 0
}

// trimJSLeft returns s without leading JS whitespace and the number of bytes cut.
func trimJSLeft(s string) (string, int) {
	i := 0
	for i < len(s) {
		n := spaceAt(s, i)
		if n == 0 {
			break
		}
		i += n
	}
	return s[i:], i
}

// trimJSRight returns s without trailing JS whitespace.
func trimJSRight(s string) string {
	for len(s) > 0 {
		c := s[len(s)-1]
		if c < utf8.RuneSelf {
			switch c {
			case ' ', '\t', '\n', '\v', '\f', '\r':
				s = s[:len(s)-1]
				continue
			}
			return s
		}
		r, n := utf8.DecodeLastRuneInString(s)
		if !isJSSpace(r) {
			return s
		}
		s = s[:len(s)-n]
	}
	return s
}

// TrimSpace trims s with the JavaScript whitespace set (spec §1.1).
func TrimSpace(s string) string {
	s, _ = trimJSLeft(s)
	return trimJSRight(s)
}

// physLine is one physical line of the source.
type physLine struct {
	num    int    // 1-based
	offset int    // byte offset of the trimmed text in the source
	col    int    // 1-based byte column of the trimmed text
	text   string // trimmed text
}

// splitLines splits src into physical lines (on "\n") and trims each one.
func splitLines(src string) []physLine {
	n := strings.Count(src, "\n") + 1
	lines := make([]physLine, 0, n)
	off := 0
	for num := 1; ; num++ {
		end := strings.IndexByte(src[off:], '\n')
		raw := src[off:]
		if end >= 0 {
			raw = src[off : off+end]
		}
		t, cut := trimJSLeft(raw)
		t = trimJSRight(t)
		lines = append(lines, physLine{num: num, offset: off + cut, col: cut + 1, text: t})
		if end < 0 {
			break
		}
		off += end + 1
	}
	return lines
}

// isEnvLine reports whether a trimmed line is an env directive (spec §1.2):
// exactly "env", or "env" followed by a space or a TAB.
func isEnvLine(t string) bool {
	return t == "env" || strings.HasPrefix(t, "env ") || strings.HasPrefix(t, "env\t")
}

// annotationKind classifies a comment line: "" for an ordinary comment,
// "target-v1" or "targets-v1" for an annotation, following the regex
// ^#\s*agent-device:target-v(\d+)(?:\s+(\S.*))?$ (and its targets-v twin of the
// newest grammar). A version other than 1 is an ordinary comment. payload is the
// text after the tag ("" when absent).
func annotationKind(t string) (kind, payload string) {
	rest, _ := trimJSLeft(t[1:])
	var tag string
	switch {
	case strings.HasPrefix(rest, "agent-device:targets-v"):
		tag = "targets-v"
	case strings.HasPrefix(rest, "agent-device:target-v"):
		tag = "target-v"
	default:
		return "", ""
	}
	rest = rest[len("agent-device:")+len(tag):]
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	if i == 0 {
		return "", ""
	}
	version := rest[:i]
	rest = rest[i:]
	if rest != "" {
		// (?:\s+(\S.*))?$ : whitespace, then a non-space, then anything but a
		// line terminator up to the end.
		p, cut := trimJSLeft(rest)
		if cut == 0 || p == "" {
			return "", ""
		}
		if hasLineTerminator(p) {
			return "", ""
		}
		payload = p
	}
	if version != "1" {
		return "", ""
	}
	return tag + "1", payload
}

// hasLineTerminator reports whether s contains a CR, U+2028 or U+2029 (the
// line terminators JavaScript's . does not match; LF never occurs in a line).
// strings.ContainsAny decodes every rune for a non-ASCII set: this looks for
// the bytes instead (U+2028/U+2029 are E2 80 A8/A9 in UTF-8).
func hasLineTerminator(s string) bool {
	if strings.IndexByte(s, '\r') >= 0 {
		return true
	}
	for {
		i := strings.IndexByte(s, 0xE2)
		if i < 0 || i+2 >= len(s) {
			return false
		}
		if s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9) {
			return true
		}
		s = s[i+1:]
	}
}

// scanDQ returns the length of the double-quoted token at s[0] == '"'
// (closing quote included), or -1 when it is not closed. The closing quote is
// the next '"' not preceded by an odd run of backslashes (spec §1.3); the
// quotes are found with IndexByte and the backslash run before each is
// counted backwards (runs are disjoint, so the scan stays linear).
func scanDQ(s string) int {
	for from := 1; from < len(s); {
		j := strings.IndexByte(s[from:], '"')
		if j < 0 {
			return -1
		}
		j += from
		k := j
		for k > 1 && s[k-1] == '\\' {
			k--
		}
		if (j-k)%2 == 0 {
			return j + 1
		}
		from = j + 1
	}
	return -1
}

// scanSQ returns the length of the single-quoted token starting at s[0] (an apostrophe), or -1
// when it is not closed. Newest grammar: the only escape is \' (a backslash
// before any other character is literal, and \' never closes the token), so
// the closing quote is the next apostrophe not directly after a backslash.
func scanSQ(s string) int {
	for from := 1; from < len(s); {
		j := strings.IndexByte(s[from:], '\'')
		if j < 0 {
			return -1
		}
		j += from
		if j < 2 || s[j-1] != '\\' {
			return j + 1
		}
		from = j + 1
	}
	return -1
}

// nextToken finds the argument token at or after text[i] (skipping JS
// whitespace) and returns its type and its span [start, end) in text; typ is 0
// when only whitespace is left. An unclosed quote is a tokBadQuote token that
// runs to the end of the line. It allocates nothing: the lexer calls it to
// classify and count, the body builder to build the line's tokens in place.
func nextToken(text string, i int, singleQuotes bool) (typ lexer.TokenType, start, end int) {
	for i < len(text) {
		n := spaceAt(text, i)
		if n == 0 {
			break
		}
		i += n
	}
	if i >= len(text) {
		return 0, i, i
	}
	switch {
	case text[i] == '"':
		n := scanDQ(text[i:])
		if n < 0 {
			return tokBadQuote, i, len(text)
		}
		return tokDQ, i, i + n
	case text[i] == '\'' && singleQuotes:
		n := scanSQ(text[i:])
		if n < 0 {
			return tokBadQuote, i, len(text)
		}
		return tokSQ, i, i + n
	}
	j := i + 1
	for j < len(text) {
		if c := text[j]; c > ' ' && c < utf8.RuneSelf {
			j++ // the common case: a printable ASCII byte is never a separator
			continue
		}
		if spaceAt(text, j) > 0 {
			break
		}
		j++
	}
	return tokWord, i, j
}

// countTokens counts the argument tokens of a trimmed action or context line
// and reports whether the first one is the bare word context.
func countTokens(text string, singleQuotes bool) (n int, context bool) {
	for i := 0; ; n++ {
		typ, start, end := nextToken(text, i, singleQuotes)
		if typ == 0 {
			return n, context
		}
		if n == 0 {
			context = typ == tokWord && text[start:end] == "context"
		}
		i = end
	}
}

// adLexer is the participle lexer.Definition of the .ad language.
type adLexer struct {
	singleQuotes bool
}

func (d adLexer) Symbols() map[string]lexer.TokenType { return tokenSymbols }

func (d adLexer) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(r); err != nil {
		return nil, err
	}
	return d.LexString(filename, buf.String())
}

func (d adLexer) LexBytes(filename string, b []byte) (lexer.Lexer, error) {
	return d.LexString(filename, string(b))
}

func (d adLexer) LexString(filename string, s string) (lexer.Lexer, error) {
	return lexLines(filename, splitLines(s), d.singleQuotes), nil
}

// tokenStream yields one token per pre-split line. The argument tokens of
// context and action lines are not materialised here: lexLines only counts
// them (nArgs, so the body builder allocates its token pools once, exactly)
// and the builder re-scans each line with nextToken. args is filled only by
// newTokenStream, for tests and debugging.
type tokenStream struct {
	toks  []lexer.Token
	args  [][]lexer.Token // args[i]: the argument tokens of line i+1 (newTokenStream only)
	nArgs int             // argument tokens of all context and action lines
	nActs int             // action lines
	i     int
	eof   lexer.Position
}

// lexLines classifies every line into one token and counts argument tokens.
func lexLines(filename string, lines []physLine, singleQuotes bool) *tokenStream {
	ts := &tokenStream{toks: make([]lexer.Token, len(lines))}
	for i, l := range lines {
		pos := lexer.Position{Filename: filename, Offset: l.offset, Line: l.num, Column: l.col}
		t := l.text
		typ := tokAction
		switch {
		case t == "":
			typ = tokBlank
		case t[0] == '#':
			typ = tokComment
			if k, _ := annotationKind(t); k != "" {
				typ = tokAnnotation
			}
		case isEnvLine(t):
			typ = tokEnv
		default:
			n, context := countTokens(t, singleQuotes)
			ts.nArgs += n
			if context {
				typ = tokContext
			} else {
				ts.nActs++
			}
		}
		ts.toks[i] = lexer.Token{Type: typ, Value: t, Pos: pos}
		ts.eof = pos
		ts.eof.Offset += len(t)
		ts.eof.Column += len(t)
	}
	return ts
}

// newTokenStream is lexLines plus the argument tokens of every context and
// action line as participle tokens (args), the way the body builder sees them.
func newTokenStream(filename string, lines []physLine, singleQuotes bool) *tokenStream {
	ts := lexLines(filename, lines, singleQuotes)
	ts.args = make([][]lexer.Token, len(lines))
	pool := make([]lexer.Token, 0, ts.nArgs)
	for i, lt := range ts.toks {
		if lt.Type != tokAction && lt.Type != tokContext {
			continue
		}
		from := len(pool)
		for at := 0; ; {
			typ, start, end := nextToken(lt.Value, at, singleQuotes)
			if typ == 0 {
				break
			}
			p := lt.Pos
			p.Offset += start
			p.Column += start
			pool = append(pool, lexer.Token{Type: typ, Value: lt.Value[start:end], Pos: p})
			at = end
		}
		ts.args[i] = pool[from:len(pool):len(pool)]
	}
	return ts
}

func (ts *tokenStream) Next() (lexer.Token, error) {
	if ts.i >= len(ts.toks) {
		return lexer.EOFToken(ts.eof), nil
	}
	t := ts.toks[ts.i]
	ts.i++
	return t, nil
}

// decodeJSONString decodes a JSON string literal (quotes included) the way
// JavaScript's JSON.parse does: escapes \" \\ \/ \b \f \n \r \t \uXXXX
// (surrogate pairs combine), no raw control characters. ok is false on any
// violation.
func decodeJSONString(lit string) (string, bool) {
	if len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' {
		return "", false
	}
	body := lit[1 : len(lit)-1]
	if !strings.ContainsAny(body, "\\\"") {
		for i := 0; i < len(body); i++ {
			if body[i] < 0x20 {
				return "", false
			}
		}
		return body, true
	}
	var b strings.Builder
	b.Grow(len(body))
	for i := 0; i < len(body); i++ {
		// Copy the run of plain bytes up to the next backslash at once.
		j := i
		for j < len(body) && body[j] >= 0x20 && body[j] != '"' && body[j] != '\\' {
			j++
		}
		if j > i {
			b.WriteString(body[i:j])
			i = j
			if i >= len(body) {
				break
			}
		}
		if c := body[i]; c < 0x20 || c == '"' {
			return "", false
		}
		r, n, ok := decodeEscape(body[i:])
		if !ok {
			return "", false
		}
		b.WriteRune(r)
		i += n - 1 // the loop's i++ moves past the escape
	}
	return b.String(), true
}

// decodeEscape decodes the escape sequence at the start of s (s[0] == '\\')
// the way JSON does: \" \\ \/ \b \f \n \r \t and \uXXXX, a high surrogate
// followed by a \uXXXX low one combining into one rune and any other
// surrogate decoding to U+FFFD. It returns the rune and the length of the
// sequence; ok is false for any other sequence (unknown, or a truncated or
// non-hex \u), which JSON strings reject and selector values keep literally.
func decodeEscape(s string) (r rune, n int, ok bool) {
	if len(s) < 2 {
		return 0, 0, false
	}
	switch s[1] {
	case '"', '\\', '/':
		return rune(s[1]), 2, true
	case 'b':
		return '\b', 2, true
	case 'f':
		return '\f', 2, true
	case 'n':
		return '\n', 2, true
	case 'r':
		return '\r', 2, true
	case 't':
		return '\t', 2, true
	case 'u':
		r, ok := hex4(s[2:])
		if !ok {
			return 0, 0, false
		}
		if r >= 0xD800 && r < 0xDC00 && len(s) >= 12 && s[6] == '\\' && s[7] == 'u' {
			if lo, ok := hex4(s[8:]); ok && lo >= 0xDC00 && lo < 0xE000 {
				return 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00), 12, true
			}
		}
		if r >= 0xD800 && r < 0xE000 {
			r = utf8.RuneError // a lone surrogate
		}
		return r, 6, true
	}
	return 0, 0, false
}

func hex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var r rune
	for i := 0; i < 4; i++ {
		c := s[i]
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(v)
	}
	return r, true
}

// decodeSingleQuoted decodes a 'single-quoted' token (quotes included): the
// content is literal except that \' stands for an apostrophe.
func decodeSingleQuoted(lit string) string {
	body := lit[1 : len(lit)-1]
	if !strings.Contains(body, `\'`) {
		return body
	}
	return strings.ReplaceAll(body, `\'`, `'`)
}
