package lang

// The printer's action lines: flags from the command table, quoting, the
// printings from canonical to literal.

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// ---- action lines ----

type prKind int

const (
	prBool   prKind = iota // no value
	prInt                  // consumes the next token only when it is a number >= 0
	prEnum                 // consumes the next token; written bare when safe
	prHint                 // runtime hint: consumes the next token; bare when safe
	prText                 // consumes the next token; free text (positional rule)
	prIgnore               // snapshot --backend X: consumed and ignored, kept as written
)

type prFlagSpec struct {
	name    string // canonical spelling
	aliases []string
	kind    prKind
}

// prFlags returns the flags a script line of command may carry, in the
// recorder's fixed output order (spec §5.3 item 7), as the printer sees them:
// derived from the command table, the one flag table.
func prFlags(command string) []prFlagSpec { return prFlagTable()[command] }

var prFlagTable = sync.OnceValue(func() map[string][]prFlagSpec {
	m := map[string][]prFlagSpec{}
	for _, c := range commandTable {
		for i := range c.Flags {
			f := &c.Flags[i]
			if k, ok := prKindOf(f); ok {
				m[c.Name] = append(m[c.Name], prFlagSpec{name: f.Names[0], aliases: f.Names[1:], kind: k})
			}
		}
	}
	return m
})

// prKindOf is how the printer writes a flag of the command table; false for
// one that is no flag to the printer: a flag that takes no value and sets
// nothing (snapshot's -c) and a retired flag (a parse error).
func prKindOf(f *FlagSpec) (prKind, bool) {
	switch f.Kind {
	case FlagRetired:
		return 0, false
	case FlagIgnored:
		if f.Value == "" {
			return 0, false
		}
		return prIgnore, true
	case FlagBool, FlagBoolFalse:
		return prBool, true
	}
	switch {
	case f.Runtime:
		return prHint, true
	case f.Kind == FlagInt, f.Kind == FlagPositiveInt:
		return prInt, true
	case f.Kind == FlagSelector, f.Kind == FlagString && f.FreeText:
		return prText, true
	}
	return prEnum, true // enums, numbers, one-word strings
}

// prIgnoresPositionals lists commands whose parser ignores every token that
// is not a flag (spec §2.2: snapshot's positionals are always empty).
var prIgnoresPositionals = map[string]bool{"snapshot": true}

func prLookupFlag(command string, t *Token) (int, *prFlagSpec) {
	specs := prFlags(command)
	for i := range specs {
		if specs[i].name == t.Value {
			return i, &specs[i]
		}
		for _, a := range specs[i].aliases {
			if a == t.Value {
				return i, &specs[i]
			}
		}
	}
	return -1, nil
}

// prNumberish approximates JavaScript Number(v) >= 0 and finite, the test
// the parser applies to integer flag values. The re-parse check covers any
// difference.
func prNumberish(v string) bool {
	v = strings.TrimFunc(v, isJSSpace)
	if v == "" {
		return true
	}
	lv := strings.ToLower(v)
	for _, p := range []struct {
		prefix string
		base   int
	}{{"0x", 16}, {"0o", 8}, {"0b", 2}} {
		if strings.HasPrefix(lv, p.prefix) {
			_, err := strconv.ParseUint(lv[2:], p.base, 64)
			return err == nil
		}
	}
	if strings.ContainsAny(lv, "_pxn") || strings.Contains(lv, "inf") {
		return false
	}
	f, err := strconv.ParseFloat(v, 64)
	return err == nil && f >= 0
}

type prItem struct {
	tok   *Token
	spec  *prFlagSpec // nil for a positional or an ignored token
	order int
	value *Token // the flag's value token, if it takes one
}

// prClassify splits an action's argument tokens into positionals and flags
// the way the script parser does (spec §1.6), as far as the printer needs.
func prClassify(command string, args []*Token) []prItem {
	var items []prItem
	// open reads its boolean flags first, wherever they stand, so they are
	// never the value of another flag: next skips them.
	openBool := func(j int) bool {
		_, spec := prLookupFlag(command, args[j])
		return command == "open" && spec != nil && spec.kind == prBool
	}
	var consumed map[int]bool
	next := func(i int) int {
		j := i + 1
		for j < len(args) && openBool(j) {
			j++
		}
		return j
	}
	for i := 0; i < len(args); i++ {
		if consumed[i] {
			continue
		}
		t := args[i]
		order, spec := prLookupFlag(command, t)
		if spec == nil {
			items = append(items, prItem{tok: t, order: -1})
			continue
		}
		switch spec.kind {
		case prBool:
			items = append(items, prItem{tok: t, spec: spec, order: order})
			continue
		case prInt:
			if i+1 < len(args) && prNumberish(args[i+1].Value) {
				items = append(items, prItem{tok: t, spec: spec, order: order, value: args[i+1]})
				i++
				continue
			}
		default:
			if j := next(i); j < len(args) {
				items = append(items, prItem{tok: t, spec: spec, order: order, value: args[j]})
				if consumed == nil {
					consumed = map[int]bool{}
				}
				consumed[j] = true
				continue
			}
		}
		items = append(items, prItem{tok: t, order: -1})
	}
	return items
}

// prKeywordRe is the shape of a keyword: a sub-command or mode word such as
// `text`, `visible`, `down` or `animations`.
var prKeywordRe = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)

// prTextCommands take free text first: their words are never keywords.
var prTextCommands = map[string]bool{"fill": true, "type": true, "open": true}

// prLeadingKeywords marks the leading run of keyword-shaped positionals of an
// action line (`wait text …`, `is visible …`, `settings animations off`):
// the words that pick a sub-command or a mode.
func prLeadingKeywords(command string, items []prItem) map[*Token]bool {
	m := map[*Token]bool{}
	if prTextCommands[command] {
		return m
	}
	for _, it := range items {
		if it.spec != nil {
			continue
		}
		if !prKeywordRe.MatchString(it.tok.Value) {
			break
		}
		m[it.tok] = true
	}
	return m
}

// prWordBare reports a positional fmt writes bare although the recorder
// would quote it: a keyword (people write `wait text "Hi" 5000`, not
// `wait "text" …`), and any other one-word value the author wrote bare
// (`open ${AD_BASE_URL}/login.html`, `fill id="name" …`). A quoted value
// that is not a keyword keeps its quotes: fmt does not choose between two
// spellings people use. Format's re-parse check still guards the meaning.
func prWordBare(t *Token, keyword bool) bool {
	v := t.Value
	if !prBareSafe(v) || v[0] == '-' || v[0] == '#' {
		return false
	}
	return keyword || t.Raw == v
}

func prFlagValue(it prItem) string {
	switch it.spec.kind {
	case prInt:
		return prQuote(it.value, prNumberRe.MatchString)
	case prEnum, prHint:
		return prQuote(it.value, prHintBare)
	case prIgnore:
		return it.value.Raw
	}
	return prQuote(it.value, prPositionalBare)
}

func prCommandWord(ln *Line, a *Action) string {
	c := a.Command
	if !utf8.ValidString(c) {
		if len(ln.Tokens) > 0 {
			return ln.Tokens[0].Raw
		}
		return c
	}
	// Bare, these words would make the line a comment or a directive.
	if prBareSafe(c) && c[0] != '#' && c != "env" && c != "context" {
		return c
	}
	return prJSON(c)
}

// prCandidates returns the printings of an action line from the most
// canonical to the most literal.
func prCandidates(ln *Line, a *Action) []string {
	args := prArgs(ln, a)
	cmd := prCommandWord(ln, a)
	items := prClassify(a.Command, args)
	ignoring := prIgnoresPositionals[a.Command]
	keyword := prLeadingKeywords(a.Command, items)

	positional := func(it prItem) string {
		if ignoring {
			return it.tok.Raw
		}
		if plain := plainRefOf(it.tok.Value); plain != it.tok.Value {
			// The writer never emits a generation pin (spec §5.3 item 9,
			// ADR 0014): where the parser strips it the plain ref parses the
			// same; where it does not, the round-trip check falls back to the
			// tokens as written.
			return plain
		}
		return prQuote(it.tok, func(v string) bool { return prPositionalBare(v) || prWordBare(it.tok, keyword[it.tok]) })
	}

	// 1. canonical: positionals, flags in fixed order, ignored tokens.
	canon := []string{cmd}
	var flags, ignored []prItem
	for _, it := range items {
		switch {
		case it.spec == nil && ignoring:
			ignored = append(ignored, it)
		case it.spec == nil:
			canon = append(canon, positional(it))
		case it.spec.kind == prIgnore:
			ignored = append(ignored, it)
		default:
			flags = append(flags, it)
		}
	}
	// stable insertion sort by the fixed order (duplicates keep their order)
	for i := 1; i < len(flags); i++ {
		for j := i; j > 0 && flags[j-1].order > flags[j].order; j-- {
			flags[j-1], flags[j] = flags[j], flags[j-1]
		}
	}
	for _, it := range flags {
		canon = append(canon, it.spec.name)
		if it.value != nil {
			canon = append(canon, prFlagValue(it))
		}
	}
	for _, it := range ignored {
		canon = append(canon, it.tok.Raw)
		if it.value != nil {
			canon = append(canon, it.value.Raw)
		}
	}

	// 2. canonical quoting in the original order and spelling.
	ordered := []string{cmd}
	for _, it := range items {
		switch {
		case it.spec == nil:
			ordered = append(ordered, positional(it))
		case it.spec.kind == prIgnore:
			ordered = append(ordered, it.tok.Raw, it.value.Raw)
		default:
			ordered = append(ordered, it.tok.Value)
			if it.value != nil {
				ordered = append(ordered, prFlagValue(it))
			}
		}
	}

	// 3. the tokens as written, one space apart.
	literal := []string{cmd}
	if len(ln.Tokens) > 0 {
		literal[0] = ln.Tokens[0].Raw
	}
	for _, t := range args {
		literal = append(literal, t.Raw)
	}
	return []string{strings.Join(canon, " "), strings.Join(ordered, " "), strings.Join(literal, " ")}
}

// prArgs is an action line's argument tokens, as written.
func prArgs(ln *Line, a *Action) []*Token {
	if a.Tokens == nil && ln != nil && len(ln.Tokens) > 0 {
		return ln.Tokens[1:]
	}
	return a.Tokens
}

// prShape is how the script parser splits an action's tokens (spec §1.6):
// its positionals in order, then its flags with their values in the fixed
// order. A printing is kept only when its shape is the source's: two lines
// can mean the same (click x y drops the rest of its positionals) and still
// split differently, and fmt would then print the second one otherwise than
// the first (fmt must be idempotent).
func prShape(command string, args []*Token) string {
	var b strings.Builder
	var flags []prItem
	for _, it := range prClassify(command, args) {
		if it.spec == nil {
			// the printings drop a ref's generation pin (see prCandidates)
			b.WriteString("p\x00" + plainRefOf(it.tok.Value) + "\x00")
			continue
		}
		flags = append(flags, it)
	}
	for i := 1; i < len(flags); i++ {
		for j := i; j > 0 && flags[j-1].order > flags[j].order; j-- {
			flags[j-1], flags[j] = flags[j], flags[j-1]
		}
	}
	for _, it := range flags {
		b.WriteString("f\x00" + it.spec.name + "\x00")
		if it.value != nil {
			b.WriteString(it.value.Value)
		}
		b.WriteString("\x00")
	}
	return b.String()
}

// prSamePrinting reports whether got, the re-parse of a printing of src's
// line, means the same and splits the same.
func prSamePrinting(ln *Line, got *Action) bool {
	a := ln.Action
	return prDiffAction(a, got, false) == "" && prShape(a.Command, prArgs(ln, a)) == prShape(got.Command, got.Tokens)
}

func prActionLine(file string, ln *Line) string {
	a := ln.Action
	if a == nil {
		return ln.Text
	}
	tried := map[string]bool{}
	for _, cand := range prCandidates(ln, a) {
		if tried[cand] {
			continue
		}
		tried[cand] = true
		if cand == ln.Text {
			return cand
		}
		s, err := Parse(file, []byte(cand))
		if err != nil || len(s.Actions) != 1 || len(s.Lines) != 1 {
			continue
		}
		if prSamePrinting(ln, s.Actions[0]) {
			return cand
		}
	}
	return ln.Text
}
