package lang

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The canonical printer (adtest fmt).
//
// Format prints a parsed script in one canonical form, like gofmt:
//
//   - every line keeps its kind and its place; runs of blank lines collapse to
//     one, leading and trailing blank lines go, the file ends with exactly one
//     LF, lines carry no leading or trailing whitespace;
//   - comments are kept as written; target-v1/targets-v1 annotations are
//     re-emitted as `# agent-device:target-v1 {…}` with the payload compacted
//     and its keys in the writers' canonical order (id, role, label, ancestry,
//     sibling, viewportOrder, scrollRegion, rect, verification; unknown keys
//     after them) unless the payload has duplicate keys or is not an object,
//     in which case it is kept as written;
//   - `env` lines become `env KEY=VALUE` with the value verbatim (§1.4.2);
//   - `context` lines keep their values raw, one space between key=value
//     pairs;
//   - action lines are quoted the way the recorder writes them (§5.3 items 6
//     and 7): the command word bare, a positional bare only when it is a plain
//     ref or a number (-?\d+(\.\d+)?), everything else a JSON string without
//     HTML escaping; recognised flags after the positionals in the
//     recorder's fixed order and canonical spelling (snapshot --depth -> -d,
//     --scope -> -s; screenshot --full/-f -> --fullscreen). Numeric flag
//     values are bare; runtime hints and enumerated values (--button,
//     --pattern, --quality, --scale) are bare when they contain no whitespace,
//     '"' or '\' and do not start with '\''; free-text flag values (-s,
//     --until, --crop-on, --keyframes) follow the positional rule. Tokens the
//     parser ignores (snapshot's -c, --backend X, stray words) are kept as
//     written, after the flags.
//
// The invariant is that Parse(Format(s)) equals s in everything the compat
// JSON reports — metadata, env, and each action's command, positionals,
// flags, runtime hints, ref label and target evidence — except actionLines,
// which may only move up by the blank lines that were removed. Format checks
// this itself: every action and context line is re-parsed on its own, and
// when the canonical form would change the line's meaning the printer falls
// back to a more literal form (original token order, then the tokens as
// written, then the line as written). The whole output is finally parsed
// again and compared; if that ever differs Format returns an error rather
// than a changed file.

// Format prints s canonically. s must come from Parse without error (Format
// prints from s.Lines); a line that carries a parse error makes Format return
// that error. FormatSource parses and formats in one step.
func Format(s *Script) ([]byte, error) {
	if s == nil {
		return nil, &Error{Code: prCodeInternal, Message: "fmt: no script to format"}
	}
	if len(s.Lines) == 0 && len(s.Actions) > 0 {
		return nil, &Error{Code: prCodeInternal, Message: "fmt: the script has actions but no lines; Format prints scripts returned by Parse",
			Hint: "parse the source with lang.Parse (or call FormatSource)"}
	}
	for _, ln := range s.Lines {
		if ln != nil && ln.Err != nil {
			return nil, ln.Err
		}
	}
	// Lay out the non-blank lines, each with its printings from the most
	// canonical to the most literal (the last one is always the line as
	// written, or as safe as that).
	var outs []*prOut
	blank := false
	for _, ln := range s.Lines {
		if ln == nil {
			continue
		}
		if ln.Kind == LineBlank {
			if len(outs) > 0 {
				blank = true
			}
			continue
		}
		o := &prOut{src: ln, blankBefore: blank}
		blank = false
		if ln.Kind == LineAction && ln.Action != nil {
			o.cands = prDedupe(append(prCandidates(ln, ln.Action), ln.Text))
		} else {
			o.cands = []string{prLine(s.File, ln)}
		}
		outs = append(outs, o)
	}
	// Parse the whole output once and step back, line by line, wherever an
	// action came out different (at most one round per kind of printing).
	var res []byte
	var again *Script
	var err error
	for round := 0; ; round++ {
		res = prRender(outs)
		again, err = Parse(s.File, res)
		if err != nil {
			if round == 0 {
				// A line changed kind and upset its neighbours: choose
				// every action line's printing on its own instead.
				for _, o := range outs {
					if len(o.cands) > 1 {
						if i := prIndex(o.cands, prActionLine(s.File, o.src)); i >= 0 {
							o.choice = i
						} else {
							o.choice = len(o.cands) - 1
						}
					}
				}
				continue
			}
			return nil, &Error{Code: prCodeInternal,
				Message: fmt.Sprintf("fmt: the formatted script no longer parses (%v); the file was left unchanged", err),
				Hint:    "this is a bug in adtest fmt: please report it with the script"}
		}
		retry := false
		for _, o := range outs {
			if len(o.cands) < 2 || o.choice == len(o.cands)-1 {
				continue
			}
			var got *Action
			if o.outLine-1 < len(again.Lines) && again.Lines[o.outLine-1].Pos.Line == o.outLine {
				got = again.Lines[o.outLine-1].Action
			}
			if got == nil || prDiffAction(o.src.Action, got, false) != "" {
				o.choice++
				retry = true
			}
		}
		if !retry {
			break
		}
	}
	if diff, at := prDiffScripts(s, again); diff != "" {
		return nil, &Error{Pos: at, Code: prCodeInternal,
			Message: "fmt: formatting would change the script's meaning (" + diff + "); the file was left unchanged",
			Hint:    "this is a bug in adtest fmt: please report it with the script"}
	}
	return res, nil
}

// prOut is one non-blank output line.
type prOut struct {
	src         *Line
	blankBefore bool
	cands       []string
	choice      int
	outLine     int // 1-based line in the rendered output
}

func prRender(outs []*prOut) []byte {
	var buf bytes.Buffer
	n := 0
	for _, o := range outs {
		if o.blankBefore {
			buf.WriteByte('\n')
			n++
		}
		n++
		o.outLine = n
		buf.WriteString(o.cands[o.choice])
		buf.WriteByte('\n')
	}
	return buf.Bytes()
}

func prDedupe(list []string) []string {
	var out []string
	for _, x := range list {
		if prIndex(out, x) < 0 {
			out = append(out, x)
		}
	}
	return out
}

func prIndex(list []string, x string) int {
	for i, y := range list {
		if y == x {
			return i
		}
	}
	return -1
}

// FormatSource parses src and prints it canonically. A script that does not
// parse returns the parse error (and no output).
func FormatSource(filename string, src []byte) ([]byte, error) {
	s, err := Parse(filename, src)
	if err != nil {
		return nil, err
	}
	return Format(s)
}

const prCodeInternal = "INTERNAL_ERROR"

func prLine(file string, ln *Line) string {
	switch ln.Kind {
	case LineAnnotation:
		return prAnnotation(ln.Text)
	case LineEnv:
		return prEnv(ln.Text)
	case LineContext:
		return prContext(file, ln)
	case LineAction:
		return prActionLine(file, ln)
	}
	return ln.Text
}

// ---- whitespace and quoting ----

func prHasSpace(s string) bool { return strings.IndexFunc(s, isJSSpace) >= 0 }

// prBareSafe reports whether v, written bare, lexes back to one token with
// value v.
func prBareSafe(v string) bool {
	return v != "" && utf8.ValidString(v) && !prHasSpace(v) && v[0] != '"' && v[0] != '\''
}

var prNumberRe = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?$`)

// prPinnedRefRe matches a pinned ref @eN~sG; group 1 is the plain ref.
var prPinnedRefRe = regexp.MustCompile(`^(@e[0-9]+)~s[0-9]+$`)

// prPlainRef is the recorder's test for a ref it writes bare.
func prPlainRef(v string) bool {
	return strings.HasPrefix(v, "@") && prBareSafe(v) && !strings.ContainsAny(v, "\"'\\")
}

// prJSON returns v as a JSON string literal without HTML escaping.
func prJSON(v string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return strconv.Quote(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// prQuote renders a token: bare when bare(value) says so, else a JSON
// string. A value that is not valid UTF-8 cannot round-trip through JSON and
// keeps its original spelling.
func prQuote(t *Token, bare func(string) bool) string {
	if !utf8.ValidString(t.Value) {
		return t.Raw
	}
	if bare(t.Value) {
		return t.Value
	}
	return prJSON(t.Value)
}

func prPositionalBare(v string) bool { return prPlainRef(v) || prNumberRe.MatchString(v) }

func prHintBare(v string) bool {
	return prBareSafe(v) && !strings.ContainsAny(v, "\"\\")
}

// ---- env and context ----

func prEnv(text string) string {
	rest, ok := strings.CutPrefix(text, "env")
	if !ok {
		return text
	}
	rest = strings.TrimLeftFunc(rest, isJSSpace)
	if rest == "" {
		return "env"
	}
	return "env " + rest
}

func prContext(file string, ln *Line) string {
	text := ln.Text
	// `context<TAB>…` ends the header (it wants a space): keep such lines as
	// written so their meaning cannot move.
	if !strings.HasPrefix(text, "context ") {
		return text
	}
	cand := strings.Join(strings.FieldsFunc(text, isJSSpace), " ")
	if cand == text {
		return text
	}
	a, errA := Parse(file, []byte(text))
	b, errB := Parse(file, []byte(cand))
	if errA != nil || errB != nil || prDiffMetadata(&a.Metadata, &b.Metadata) != "" || len(b.Actions) != 0 {
		return text
	}
	return cand
}

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

var prClickFlags = []prFlagSpec{
	{name: "--count", kind: prInt}, {name: "--interval-ms", kind: prInt}, {name: "--hold-ms", kind: prInt},
	{name: "--jitter-px", kind: prInt}, {name: "--double-tap", kind: prBool}, {name: "--button", kind: prEnum},
}

var prDelayFlags = []prFlagSpec{{name: "--delay-ms", kind: prInt}}

// prFlagTable lists, per command, the flags a script line may carry, in the
// recorder's fixed output order (spec §5.3 item 7).
var prFlagTable = map[string][]prFlagSpec{
	"click":   prClickFlags,
	"press":   prClickFlags,
	"swipe":   {{name: "--count", kind: prInt}, {name: "--pause-ms", kind: prInt}, {name: "--pattern", kind: prEnum}},
	"gesture": {{name: "--pointer-count", kind: prInt}},
	"type":    prDelayFlags,
	"fill":    prDelayFlags,
	"snapshot": {
		{name: "-i", kind: prBool}, {name: "-d", aliases: []string{"--depth"}, kind: prInt},
		{name: "-s", aliases: []string{"--scope"}, kind: prText}, {name: "--raw", kind: prBool},
		{name: "--force-full", kind: prBool}, {name: "--backend", kind: prIgnore},
	},
	"open": {
		{name: "--relaunch", kind: prBool}, {name: "--test-ime", kind: prBool}, {name: "--no-test-ime", kind: prBool},
		{name: "--platform", kind: prHint}, {name: "--metro-host", kind: prHint},
		{name: "--metro-port", kind: prHint}, {name: "--bundle-url", kind: prHint}, {name: "--launch-url", kind: prHint},
	},
	"runtime": {
		{name: "--platform", kind: prHint}, {name: "--metro-host", kind: prHint},
		{name: "--metro-port", kind: prHint}, {name: "--bundle-url", kind: prHint}, {name: "--launch-url", kind: prHint},
	},
	"record": {{name: "--fps", kind: prHint}, {name: "--quality", kind: prEnum}, {name: "--hide-touches", kind: prBool}, {name: "--max-size", kind: prInt}},
	"screenshot": {
		{name: "--pixel-density", kind: prInt}, {name: "--fullscreen", aliases: []string{"--full", "-f"}, kind: prBool},
		{name: "--max-size", kind: prInt}, {name: "--no-stabilize", kind: prBool}, {name: "--normalize-status-bar", kind: prBool},
		{name: "--crop-on", kind: prText}, {name: "--scale", kind: prEnum},
	},
	"wait":   {{name: "--raw", kind: prBool}, {name: "--depth", kind: prInt}, {name: "--scope", kind: prText}},
	"scroll": {{name: "--until", kind: prText}},
	"fold":   {{name: "--keyframes", kind: prText}},
}

// prIgnoresPositionals lists commands whose parser ignores every token that
// is not a flag (spec §2.2: snapshot's positionals are always empty).
var prIgnoresPositionals = map[string]bool{"snapshot": true}

func prLookupFlag(command string, t *Token) (int, *prFlagSpec) {
	specs := prFlagTable[command]
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
	args := a.Tokens
	if args == nil && len(ln.Tokens) > 0 {
		args = ln.Tokens[1:]
	}
	cmd := prCommandWord(ln, a)
	items := prClassify(a.Command, args)
	ignoring := prIgnoresPositionals[a.Command]

	positional := func(it prItem) string {
		if ignoring {
			return it.tok.Raw
		}
		if m := prPinnedRefRe.FindStringSubmatch(it.tok.Value); m != nil {
			// The writer never emits a generation pin (spec §5.3 item 9,
			// ADR 0014): where the parser strips it the plain ref parses the
			// same; where it does not, the round-trip check falls back to the
			// tokens as written.
			return m[1]
		}
		return prQuote(it.tok, prPositionalBare)
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
		if prDiffAction(a, s.Actions[0], false) == "" {
			return cand
		}
	}
	return ln.Text
}

// ---- annotations ----

var (
	prTargetOrder   = []string{"id", "role", "label", "ancestry", "sibling", "viewportOrder", "scrollRegion", "rect", "verification"}
	prAncestorOrder = []string{"role", "label"}
	prRegionOrder   = []string{"role", "id", "label"}
	prRectOrder     = []string{"x", "y", "width", "height"}
	prTargetsOrder  = []string{"source", "destination"}
)

func prAnnotation(text string) string {
	if !strings.HasPrefix(text, "#") {
		return text
	}
	rest := strings.TrimLeftFunc(text[1:], isJSSpace)
	i := strings.IndexFunc(rest, isJSSpace)
	if i < 0 {
		return "# " + rest
	}
	tag, payload := rest[:i], strings.TrimFunc(rest[i:], isJSSpace)
	var canon []byte
	var ok bool
	if strings.HasPrefix(tag, "agent-device:targets-") {
		canon, ok = prReorderObject([]byte(payload), prTargetsOrder, map[string]prReorder{
			"source": prReorderTarget, "destination": prReorderTarget,
		})
	} else {
		canon, ok = prReorderTarget([]byte(payload))
	}
	if !ok {
		return "# " + tag + " " + payload
	}
	return "# " + tag + " " + string(canon)
}

type prReorder func([]byte) ([]byte, bool)

func prReorderTarget(raw []byte) ([]byte, bool) {
	return prReorderObject(raw, prTargetOrder, map[string]prReorder{
		"ancestry":     prReorderArray(prAncestorOrder),
		"scrollRegion": prObjectWith(prRegionOrder),
		"rect":         prObjectWith(prRectOrder),
	})
}

func prObjectWith(order []string) prReorder {
	return func(raw []byte) ([]byte, bool) { return prReorderObject(raw, order, nil) }
}

// prReorderArray reorders the keys of every object in a JSON array; other
// elements are compacted.
func prReorderArray(order []string) prReorder {
	return func(raw []byte) ([]byte, bool) {
		var elems []json.RawMessage
		if err := json.Unmarshal(raw, &elems); err != nil || elems == nil {
			return nil, false
		}
		var b bytes.Buffer
		b.WriteByte('[')
		for i, e := range elems {
			if i > 0 {
				b.WriteByte(',')
			}
			out, ok := prReorderObject(e, order, nil)
			if !ok {
				return nil, false
			}
			b.Write(out)
		}
		b.WriteByte(']')
		return b.Bytes(), true
	}
}

// prReorderObject compacts a JSON object and puts its keys in order (known
// keys first, unknown keys after them as written). It refuses (false) a
// value that is not an object or that has a duplicate key, since reordering
// duplicates would change which one wins.
func prReorderObject(raw []byte, order []string, nested map[string]prReorder) ([]byte, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		return nil, false
	}
	type kv struct {
		key string
		val []byte
	}
	var fields []kv
	seen := map[string]bool{}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, false
		}
		key, ok := kt.(string)
		if !ok || seen[key] {
			return nil, false
		}
		seen[key] = true
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return nil, false
		}
		var cb bytes.Buffer
		if err := json.Compact(&cb, val); err != nil {
			return nil, false
		}
		v := cb.Bytes()
		if f := nested[key]; f != nil && len(v) > 0 && (v[0] == '{' || v[0] == '[') {
			out, ok := f(v)
			if !ok {
				return nil, false
			}
			v = out
		}
		fields = append(fields, kv{key, v})
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('}') {
		return nil, false
	}
	if _, err := dec.Token(); err == nil {
		return nil, false // trailing data
	}
	rank := func(k string) int {
		for i, o := range order {
			if o == k {
				return i
			}
		}
		return len(order)
	}
	for i := 1; i < len(fields); i++ {
		for j := i; j > 0 && rank(fields[j-1].key) > rank(fields[j].key); j-- {
			fields[j-1], fields[j] = fields[j], fields[j-1]
		}
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range fields {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(prJSON(f.key))
		b.WriteByte(':')
		b.Write(f.val)
	}
	b.WriteByte('}')
	return b.Bytes(), true
}

// ---- comparing parses ----

// prActionView is what the compat JSON reports of an action.
type prActionView struct {
	Command        string
	Positionals    []string
	Flags          Flags
	Runtime        Flags
	RefLabel       *string
	TargetEvidence *TargetEvidence
	Targets        *TargetsEvidence
}

func prView(a *Action, evidence bool) string {
	v := prActionView{Command: a.Command, Positionals: a.Positionals, Flags: a.Flags, Runtime: a.Runtime, RefLabel: a.RefLabel}
	if v.Positionals == nil {
		v.Positionals = []string{}
	}
	if len(v.Flags) == 0 {
		v.Flags = nil
	}
	if len(v.Runtime) == 0 {
		v.Runtime = nil
	}
	if evidence {
		v.TargetEvidence, v.Targets = a.TargetEvidence, a.Targets
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%#v", v)
	}
	return string(b)
}

// prDiffAction describes how two actions differ ("" when they are the same
// as far as the compat JSON can tell).
func prDiffAction(a, b *Action, evidence bool) string {
	if prSameAction(a, b, evidence) {
		return ""
	}
	va, vb := prView(a, evidence), prView(b, evidence)
	if va != vb {
		return va + " became " + vb
	}
	// json.Marshal cannot tell 3 from 3.0; the flag types can.
	for _, p := range [][2]Flags{{a.Flags, b.Flags}, {a.Runtime, b.Runtime}} {
		for k, x := range p[0] {
			if reflect.TypeOf(x) != reflect.TypeOf(p[1][k]) {
				return fmt.Sprintf("flag %s: %T became %T", k, x, p[1][k])
			}
		}
	}
	return ""
}

// prSameAction is the fast, strict path of prDiffAction: identical values
// and types. When it says no, prDiffAction looks closer.
func prSameAction(a, b *Action, evidence bool) bool {
	if a.Command != b.Command || len(a.Positionals) != len(b.Positionals) ||
		!reflect.DeepEqual(a.Flags, b.Flags) || !reflect.DeepEqual(a.Runtime, b.Runtime) {
		return false
	}
	for i := range a.Positionals {
		if a.Positionals[i] != b.Positionals[i] {
			return false
		}
	}
	if (a.RefLabel == nil) != (b.RefLabel == nil) || a.RefLabel != nil && *a.RefLabel != *b.RefLabel {
		return false
	}
	return !evidence || reflect.DeepEqual(a.TargetEvidence, b.TargetEvidence) && reflect.DeepEqual(a.Targets, b.Targets)
}

func prDiffMetadata(a, b *Metadata) string {
	ints := func(p *int) string {
		if p == nil {
			return "-"
		}
		return strconv.Itoa(*p)
	}
	if a.Platform != b.Platform || a.Target != b.Target || ints(a.TimeoutMs) != ints(b.TimeoutMs) || ints(a.Retries) != ints(b.Retries) {
		return fmt.Sprintf("metadata %s/%s/%s/%s became %s/%s/%s/%s", a.Platform, a.Target, ints(a.TimeoutMs), ints(a.Retries),
			b.Platform, b.Target, ints(b.TimeoutMs), ints(b.Retries))
	}
	if len(a.Other) != len(b.Other) {
		return fmt.Sprintf("context keys: %d became %d", len(a.Other), len(b.Other))
	}
	for i := range a.Other {
		if a.Other[i].Key != b.Other[i].Key || a.Other[i].Value != b.Other[i].Value {
			return fmt.Sprintf("context %s=%s became %s=%s", a.Other[i].Key, a.Other[i].Value, b.Other[i].Key, b.Other[i].Value)
		}
	}
	return ""
}

// prDiffScripts compares two parses the way the round-trip invariant does:
// metadata, env and actions, not line numbers. It returns what differs and
// where in a.
func prDiffScripts(a, b *Script) (string, Pos) {
	if d := prDiffMetadata(&a.Metadata, &b.Metadata); d != "" {
		return d, a.Metadata.Pos
	}
	if len(a.Env) != len(b.Env) {
		return fmt.Sprintf("env directives: %d became %d", len(a.Env), len(b.Env)), Pos{}
	}
	for i := range a.Env {
		if a.Env[i].Key != b.Env[i].Key || a.Env[i].Value != b.Env[i].Value {
			return fmt.Sprintf("env %s=%q became %s=%q", a.Env[i].Key, a.Env[i].Value, b.Env[i].Key, b.Env[i].Value), a.Env[i].Pos
		}
	}
	if len(a.Actions) != len(b.Actions) {
		return fmt.Sprintf("actions: %d became %d", len(a.Actions), len(b.Actions)), Pos{}
	}
	for i := range a.Actions {
		if d := prDiffAction(a.Actions[i], b.Actions[i], true); d != "" {
			return fmt.Sprintf("step %d: %s", i+1, d), a.Actions[i].Pos
		}
	}
	return "", Pos{}
}
