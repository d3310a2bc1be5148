package lang

import (
	"fmt"
	"sort"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The participle grammar over the line tokens of lexer.go: a script is a
// sequence of lines, each one blank, a comment, a target annotation, an env
// directive, a context directive (first token the bare word "context") or an
// action. The arguments of context and action lines are the Args production
// (argsEBNF): the lexer only counts them, and the body builder scans each line
// with the lexer's nextToken straight into its token pools. One grammar node
// per line, no capture and no per-token participle token keep a 10,000-line
// script and a 1 MiB line cheap.

// scriptNode is the whole script: one token per physical line, whose type
// says what kind of line it is (alternatives ordered by frequency, participle
// tries them in order) and whose Pos is the line's position.
type scriptNode struct {
	Pos lexer.Position
	// Tokens is filled by participle with the tokens the node matched: one
	// per line, in order. It is all the body builder needs, so the grammar
	// captures nothing: a capture per line would cost participle a deferred
	// reflect assignment per line (a third of its time on a 10,000-line script).
	Tokens []lexer.Token
	Lines  struct{} `parser:"(Action | Blank | Comment | Annotation | Context | Env)*"`
}

// argsEBNF is the token-level grammar of context and action lines.
const argsEBNF = `Context = "context" Args? .
Action = Args .
Args = (<word> | <dqstring> | <sqstring> | <badquote>)+ .`

// grammar is built once; parseWith feeds it the token stream directly (so the
// v0.20.3 quoting of the corpus test uses the same grammar).
var grammar = participle.MustBuild[scriptNode](participle.Lexer(adLexer{singleQuotes: true}))

// GrammarEBNF returns the EBNF of the script grammar (kept as a golden file).
func GrammarEBNF() string { return grammar.String() + "\n" + argsEBNF }

// parseConfig selects grammar variants (tests compare against v0.20.3).
type parseConfig struct {
	// legacySingleQuote: a leading ' is an ordinary bare-token character (v0.20.3).
	legacySingleQuote bool
	// legacyAnnotations: targets-v1 lines are plain comments and a second
	// annotation is reported as "another target-v1 annotation" (v0.20.3).
	legacyAnnotations bool
}

const quotedHint = `Quoted replay values are JSON strings: escape backslashes, quotes, tabs, and newlines (\\, \", \t, \n).`

// Parse parses one script with agent-device's semantics: it returns the first
// error in agent-device's order (a header error first, as *Error with
// Metadata=true; then the first body error in line order) together with the
// script as far as it could be built.
func Parse(filename string, src []byte) (*Script, error) {
	s, errs := parseWith(filename, src, parseConfig{})
	if len(errs) > 0 {
		return s, errs[0]
	}
	return s, nil
}

// ParseAll parses one script and keeps going after errors: it reports every
// header error and every line error (also set on Line.Err), sorted by position.
func ParseAll(filename string, src []byte) (*Script, []*Error) {
	s, errs := parseWith(filename, src, parseConfig{})
	sorted := append([]*Error(nil), errs...)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i].Pos, sorted[j].Pos
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
	return s, sorted
}

// parseWith returns the script and its errors in agent-device's order: header
// (metadata) errors first, then body errors in line order.
func parseWith(filename string, src []byte, cfg parseConfig) (*Script, []*Error) {
	text := string(src)
	lines := splitLines(text)
	s := &Script{File: filename, Lines: make([]*Line, 0, len(lines))}
	md, env, errs := readHeader(filename, lines)
	s.Metadata, s.Env = md, env

	ts := lexLines(filename, lines, !cfg.legacySingleQuote)
	peek, err := lexer.Upgrade(ts)
	if err != nil {
		return s, append(errs, &Error{Code: codeInvalidArgs, Message: err.Error()})
	}
	tree, err := grammar.ParseFromLexer(peek)
	if err != nil {
		// The grammar accepts every token sequence the lexer produces; this is
		// a programmer error, reported rather than panicking.
		return s, append(errs, &Error{Code: codeInvalidArgs, Message: "internal grammar error: " + err.Error()})
	}
	if len(tree.Tokens) != len(lines) {
		return s, append(errs, &Error{Code: codeInvalidArgs, Message: fmt.Sprintf("internal grammar error: %d line tokens for %d lines", len(tree.Tokens), len(lines))})
	}
	b := newBodyBuilder(s, filename, lines, ts, cfg)
	for i := range tree.Tokens {
		b.line(i, &tree.Tokens[i])
	}
	b.finish()
	return s, append(errs, b.errs...)
}

type pendingAnnotation struct {
	line    int
	kind    string // "target-v1" or "targets-v1"
	ev      *TargetEvidence
	targets *TargetsEvidence
}

// bodyBuilder turns the classified lines into the Script. Everything a line
// needs comes from pools sized exactly by the lexer's counts (one allocation
// each per script, never regrown), so the cost is linear in the input and does
// not depend on how the tokens are spread over lines.
type bodyBuilder struct {
	s            *Script
	file         string
	lines        []physLine
	singleQuotes bool
	tokPool      []Token  // backing of every line's tokens
	ptrPool      []*Token // backing of every line's Tokens slice (parallel to tokPool)
	nextTok      int      // first unused entry of tokPool and ptrPool
	linePool     []Line   // one Line per physical line
	actPool      []Action // one Action per action line, consumed in order
	strPool      []string // backing of the actions' Positionals
	posPool      []Pos    // backing of the actions' ArgPos (parallel to strPool)
	nextArg      int      // first unused entry of strPool and posPool
	cfg          parseConfig
	pending      *pendingAnnotation
	seenAct      bool
	errs         []*Error
}

func newBodyBuilder(s *Script, file string, lines []physLine, ts *tokenStream, cfg parseConfig) *bodyBuilder {
	s.Actions = make([]*Action, 0, ts.nActs)
	return &bodyBuilder{s: s, file: file, lines: lines, singleQuotes: !cfg.legacySingleQuote, cfg: cfg,
		tokPool: make([]Token, ts.nArgs), ptrPool: make([]*Token, ts.nArgs),
		linePool: make([]Line, len(lines)), actPool: make([]Action, ts.nActs),
		strPool: make([]string, ts.nArgs), posPool: make([]Pos, ts.nArgs)}
}

func (b *bodyBuilder) fail(l *Line, p Pos, msg, hint string) {
	e := &Error{Pos: p, Code: codeInvalidArgs, Message: msg, Hint: hint}
	b.errs = append(b.errs, e)
	if l != nil && l.Err == nil {
		l.Err = e
	}
}

// unbound reports a pending annotation that is not followed by an action.
func (b *bodyBuilder) unbound(l *Line, why string) {
	p := b.pending
	b.pending = nil
	b.fail(l, l.Pos, fmt.Sprintf("%s annotation on line %d must be immediately followed by its action line (%s).", p.kind, p.line, why), "")
}

func (b *bodyBuilder) line(i int, n *lexer.Token) {
	pl := b.lines[i]
	l := &b.linePool[i]
	// The pools are zeroed: set only the fields that are not (a whole-struct
	// store would run the GC write barrier over every pointer field).
	l.Pos, l.Text = n.Pos, pl.text
	l.Pos.Column = pl.col
	l.Pos.Offset = pl.offset
	b.s.Lines = append(b.s.Lines, l)
	switch n.Type {
	case tokAnnotation:
		l.Kind = LineAnnotation
		b.annotation(l, pl)
	case tokComment:
		l.Kind = LineComment
		if b.pending != nil {
			b.unbound(l, fmt.Sprintf("line %d is a comment", pl.num))
		}
	case tokEnv:
		l.Kind = LineEnv
		if b.pending != nil {
			b.unbound(l, fmt.Sprintf("line %d is an env directive", pl.num))
		} else if b.seenAct {
			b.fail(l, l.Pos, fmt.Sprintf("env directives must precede all actions (line %d).", pl.num), "")
		}
	case tokContext:
		l.Kind = LineContext
		if b.decodeTokens(l) && b.pending != nil {
			b.unbound(l, fmt.Sprintf("line %d did not parse as an action", pl.num))
		}
	case tokAction:
		l.Kind = LineAction
		b.action(l)
	default:
		l.Kind = LineBlank
		if b.pending != nil {
			b.unbound(l, fmt.Sprintf("line %d is blank", pl.num))
		}
	}
}

func (b *bodyBuilder) annotation(l *Line, pl physLine) {
	kind, payload := annotationKind(pl.text)
	if kind == "targets-v1" && b.cfg.legacyAnnotations {
		l.Kind = LineComment
		if b.pending != nil {
			b.unbound(l, fmt.Sprintf("line %d is a comment", pl.num))
		}
		return
	}
	if b.pending != nil {
		what := "another target annotation"
		if b.cfg.legacyAnnotations {
			what = "another target-v1 annotation"
		}
		b.unbound(l, fmt.Sprintf("line %d is %s", pl.num, what))
	}
	p := &pendingAnnotation{line: pl.num, kind: kind}
	var msg string
	if kind == "targets-v1" {
		p.targets, msg = decodeTargetsV1(payload)
	} else {
		p.ev, msg = decodeTargetV1(payload)
	}
	if msg != "" {
		b.fail(l, l.Pos, msg, "")
	}
	b.pending = p
}

// token decodes the argument token raw at p into dst; it reports a lexical
// error on the line and returns false.
func (b *bodyBuilder) token(l *Line, typ lexer.TokenType, raw string, p Pos, dst *Token) bool {
	switch typ {
	case tokWord:
		*dst = Token{Pos: p, Raw: raw, Value: raw}
	case tokDQ:
		v, ok := decodeJSONString(raw)
		if !ok {
			b.fail(l, p, fmt.Sprintf("Invalid quoted value %s in replay script line: %s", raw, l.Text), quotedHint)
			return false
		}
		*dst = Token{Pos: p, Raw: raw, Value: v, Quoted: '"'}
	case tokSQ:
		*dst = Token{Pos: p, Raw: raw, Value: decodeSingleQuoted(raw), Quoted: '\''}
	default:
		b.fail(l, l.Pos, "Invalid replay script line: "+l.Text, "")
		return false
	}
	return true
}

// decodeTokens scans the line's argument tokens (the Args production) and
// decodes them into the builder's pools; on a lexical error l.Tokens keeps the
// tokens before the bad one and it returns false.
func (b *bodyBuilder) decodeTokens(l *Line) bool {
	from := b.nextTok
	ok := true
	for at := 0; ; {
		typ, start, end := nextToken(l.Text, at, b.singleQuotes)
		if typ == 0 {
			break
		}
		at = end
		p := l.Pos
		p.Offset += start
		p.Column += start
		dst := &b.tokPool[b.nextTok]
		if !b.token(l, typ, l.Text[start:end], p, dst) {
			ok = false
			break
		}
		b.ptrPool[b.nextTok] = dst
		b.nextTok++
	}
	l.Tokens = b.ptrPool[from:b.nextTok:b.nextTok]
	return ok
}

func (b *bodyBuilder) action(l *Line) {
	b.seenAct = true
	if !b.decodeTokens(l) {
		b.dropPending()
		return
	}
	act := &b.actPool[0]
	b.actPool = b.actPool[1:]
	act.Pos, act.Command, act.Tokens = l.Pos, l.Tokens[0].Value, l.Tokens[1:]
	n, at := len(act.Tokens), b.nextArg
	b.nextArg += n
	if e := decodeArgs(act, b.strPool[at:at:at+n], b.posPool[at:at:at+n]); e != nil {
		b.fail(l, e.Pos, e.Message, e.Hint)
		b.dropPending()
		return
	}
	if p := b.pending; p != nil {
		act.TargetEvidence = p.ev
		act.Targets = p.targets
		b.pending = nil
	}
	l.Action = act
	b.s.Actions = append(b.s.Actions, act)
}

// dropPending forgets an annotation whose action line failed: the line's own
// error is reported instead of a binding error.
func (b *bodyBuilder) dropPending() { b.pending = nil }

func (b *bodyBuilder) finish() {
	if b.pending == nil {
		return
	}
	p := b.pending
	b.pending = nil
	last := b.s.Lines[len(b.s.Lines)-1]
	b.fail(nil, last.Pos, fmt.Sprintf("%s annotation on line %d must be immediately followed by its action line (end of script reached).", p.kind, p.line), "")
}
