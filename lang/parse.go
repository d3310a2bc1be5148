package lang

import (
	"fmt"
	"sort"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The participle grammar over the line tokens of lexer.go. Every physical
// line is one lineNode ending in EOL; a line is blank, a comment, a target
// annotation, an env directive, a context directive (first token the bare word
// "context") or an action (any other token sequence).

type scriptNode struct {
	Pos   lexer.Position
	Lines []*lineNode `parser:"@@*"`
}

type lineNode struct {
	Pos        lexer.Position
	Annotation *string      `parser:"(  @Annotation"`
	Comment    *string      `parser:" | @Comment"`
	Env        *string      `parser:" | @Env"`
	Context    *contextNode `parser:" | @@"`
	Action     *actionNode  `parser:" | @@ )?"`
	EOL        string       `parser:"@EOL"`
}

type contextNode struct {
	Pos     lexer.Position
	Keyword string     `parser:"@\"context\":Word"`
	Args    []*argNode `parser:"@@*"`
}

type actionNode struct {
	Pos     lexer.Position
	Command *argNode   `parser:"@@"`
	Args    []*argNode `parser:"@@*"`
}

type argNode struct {
	Pos    lexer.Position
	Bare   *string `parser:"(  @Word"`
	Double *string `parser:" | @DQString"`
	Single *string `parser:" | @SQString"`
	Bad    *string `parser:" | @BadQuote )"`
}

var (
	grammar       = participle.MustBuild[scriptNode](participle.Lexer(adLexer{singleQuotes: true}), participle.UseLookahead(2))
	legacyGrammar = participle.MustBuild[scriptNode](participle.Lexer(adLexer{singleQuotes: false}), participle.UseLookahead(2))
)

// GrammarEBNF returns the EBNF of the script grammar (kept as a golden file).
func GrammarEBNF() string { return grammar.String() }

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
	s := &Script{File: filename}
	md, env, errs := readHeader(filename, lines)
	s.Metadata, s.Env = md, env

	g := grammar
	if cfg.legacySingleQuote {
		g = legacyGrammar
	}
	ts := newTokenStream(filename, lines, !cfg.legacySingleQuote)
	peek, err := lexer.Upgrade(ts)
	if err != nil {
		return s, append(errs, &Error{Code: codeInvalidArgs, Message: err.Error()})
	}
	tree, err := g.ParseFromLexer(peek)
	if err != nil {
		// The grammar accepts every token sequence the lexer produces; this is
		// a programmer error, reported rather than panicking.
		return s, append(errs, &Error{Code: codeInvalidArgs, Message: "internal grammar error: " + err.Error()})
	}
	b := &bodyBuilder{s: s, file: filename, lines: lines, cfg: cfg}
	for i, ln := range tree.Lines {
		b.line(i, ln)
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

type bodyBuilder struct {
	s         *Script
	file      string
	lines     []physLine
	cfg       parseConfig
	pending   *pendingAnnotation
	seenAct   bool
	errs      []*Error
	lastLine  *Line
	physIndex int
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

func (b *bodyBuilder) line(i int, n *lineNode) {
	pl := b.lines[i]
	l := &Line{Pos: n.Pos, Text: pl.text}
	l.Pos.Column = pl.col
	l.Pos.Offset = pl.offset
	b.s.Lines = append(b.s.Lines, l)
	switch {
	case n.Annotation != nil:
		l.Kind = LineAnnotation
		b.annotation(l, pl)
	case n.Comment != nil:
		l.Kind = LineComment
		if b.pending != nil {
			b.unbound(l, fmt.Sprintf("line %d is a comment", pl.num))
		}
	case n.Env != nil:
		l.Kind = LineEnv
		if b.pending != nil {
			b.unbound(l, fmt.Sprintf("line %d is an env directive", pl.num))
		} else if b.seenAct {
			b.fail(l, l.Pos, fmt.Sprintf("env directives must precede all actions (line %d).", pl.num), "")
		}
	case n.Context != nil:
		l.Kind = LineContext
		l.Tokens = make([]*Token, 0, len(n.Context.Args)+1)
		l.Tokens = append(l.Tokens, &Token{Pos: n.Context.Pos, Raw: "context", Value: "context"})
		ok := true
		for _, a := range n.Context.Args {
			t, e := b.token(l, a)
			if e {
				ok = false
				break
			}
			l.Tokens = append(l.Tokens, t)
		}
		if ok && b.pending != nil {
			b.unbound(l, fmt.Sprintf("line %d did not parse as an action", pl.num))
		}
	case n.Action != nil:
		l.Kind = LineAction
		b.action(l, n.Action)
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

// token decodes one argument node; it reports a lexical error on the line.
func (b *bodyBuilder) token(l *Line, a *argNode) (*Token, bool) {
	switch {
	case a.Bare != nil:
		return &Token{Pos: a.Pos, Raw: *a.Bare, Value: *a.Bare}, false
	case a.Double != nil:
		v, ok := decodeJSONString(*a.Double)
		if !ok {
			b.fail(l, a.Pos, fmt.Sprintf("Invalid quoted value %s in replay script line: %s", *a.Double, l.Text), quotedHint)
			return nil, true
		}
		return &Token{Pos: a.Pos, Raw: *a.Double, Value: v, Quoted: '"'}, false
	case a.Single != nil:
		return &Token{Pos: a.Pos, Raw: *a.Single, Value: decodeSingleQuoted(*a.Single), Quoted: '\''}, false
	default:
		b.fail(l, l.Pos, "Invalid replay script line: "+l.Text, "")
		return nil, true
	}
}

func (b *bodyBuilder) action(l *Line, n *actionNode) {
	b.seenAct = true
	l.Tokens = make([]*Token, 0, len(n.Args)+1)
	cmd, bad := b.token(l, n.Command)
	if bad {
		b.dropPending()
		return
	}
	l.Tokens = append(l.Tokens, cmd)
	for _, a := range n.Args {
		t, bad := b.token(l, a)
		if bad {
			b.dropPending()
			return
		}
		l.Tokens = append(l.Tokens, t)
	}
	act := &Action{Pos: l.Pos, Command: cmd.Value, Tokens: l.Tokens[1:]}
	if e := decodeArgs(act); e != nil {
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
