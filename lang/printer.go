package lang

import (
	"bytes"
	"encoding/json"
	"fmt"
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
			if got == nil || !prSamePrinting(o.src, got) {
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
