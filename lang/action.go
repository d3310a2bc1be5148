package lang

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Actions that were built, not parsed: from a command line (ActionFromArgv)
// and back to script text (FormatAction). Both go through the command table's
// flag rules, so an interactive command and a script line mean the same.

// ArgvOptions tune ActionFromArgv.
type ArgvOptions struct {
	// KeepPins keeps generation pins on refs (@e3~s42): interactive use sends
	// them to the session so a stale ref is rejected precisely. Scripts strip
	// them (the parser's rule) since epochs are not portable.
	KeepPins bool
}

// argvFile names the "file" of an action built from a command line in its
// positions and messages.
const argvFile = "<argv>"

// ActionFromArgv builds the action a script line `command argv...` would
// parse to, each argv entry being one token (already unquoted by the shell).
// The result has positions in the pseudo-file "<argv>": column k+1 is the
// k-th argv entry.
func ActionFromArgv(command string, argv []string, opts ArgvOptions) (*Action, error) {
	spec, ok := LookupCommand(command)
	if !ok || !spec.Script {
		return nil, &Error{Pos: Pos{Filename: argvFile, Line: 1, Column: 1}, Code: codeInvalidArgs,
			Message: fmt.Sprintf("Unknown command %q", command), Hint: "Run adtest help for the list of commands."}
	}
	a := &Action{Pos: Pos{Filename: argvFile, Line: 1, Column: 1}, Command: command}
	a.Tokens = make([]*Token, len(argv))
	for i, v := range argv {
		a.Tokens[i] = &Token{Pos: Pos{Filename: argvFile, Line: 1, Column: i + 2}, Raw: prJSON(v), Value: v}
	}
	if e := decodeArgs(a, make([]string, 0, len(argv)), make([]Pos, 0, len(argv))); e != nil {
		return nil, e
	}
	if opts.KeepPins {
		// The flag rules strip a well-formed pin from the ref slots; put back
		// the token as given.
		for i, p := range a.ArgPos {
			k := p.Column - 2
			if k < 0 || k >= len(argv) || i >= len(a.Positionals) {
				continue
			}
			if tok := argv[k]; tok != a.Positionals[i] && stripPin(tok) == a.Positionals[i] {
				a.Positionals[i] = tok
			}
		}
	}
	return a, nil
}

// FormatAction prints one action canonically, as the line(s) a script holds:
// the `# agent-device:target-v1 {...}` (or targets-v1) annotation line when
// the action carries evidence, then the command line: the command word, the
// positionals (a ref label after its ref), then the flags in the command
// table's order and first spelling. Positionals are bare when they are a ref
// or a number, else JSON strings; generation pins are kept as the action
// holds them. No trailing newline. It reads the action's values, so a built
// action prints the same as a parsed one; only a parsed action whose values
// spell one of its command's flags is printed from its tokens, the way fmt
// prints it. What it prints parses back to the same action (values that are
// valid UTF-8; FuzzFormatAction).
func FormatAction(a *Action) string {
	line := FormatCommandLine(a)
	if ann := formatEvidence(a); ann != "" {
		return ann + "\n" + line
	}
	return line
}

// FormatCommandLine is FormatAction's command line alone, without the
// evidence annotation: what a step's title, a failure line and a report
// show of the action.
func FormatCommandLine(a *Action) string {
	if a.Tokens != nil && (spellsFlag(a) || fillReadsAsPoint(a)) {
		// A value that spells one of the command's flags cannot stand where
		// the canonical order puts it, nor can a fill's selector and text
		// that both read as numbers; a parsed action keeps the printer's
		// checked printing of its own tokens.
		return prActionLine(argvFile, actionLineOf(a))
	}
	return formatActionLine(a)
}

// fillReadsAsPoint reports a fill of a selector and a text that would print
// as two numbers, which the parser reads as the x y form (spec §2.2): from
// `fill 0 "" 0`, the selector "0" and the text " 0".
func fillReadsAsPoint(a *Action) bool {
	p := a.Positionals
	return a.Command == "fill" && len(p) == 2 && isNumberToken(p[0]) && isNumberToken(p[1])
}

// spellsFlag reports a positional or a string flag value that is a flag
// spelling of the action's command.
func spellsFlag(a *Action) bool {
	spec, ok := LookupCommand(a.Command)
	if !ok || len(spec.Flags) == 0 {
		return false
	}
	is := func(v string) bool {
		_, ok := spec.Flag(v)
		return ok
	}
	for _, p := range a.Positionals {
		if mayBeFlag(p) && is(p) {
			return true
		}
	}
	for _, f := range []Flags{a.Flags, a.Runtime} {
		for _, v := range f {
			if str, ok := v.(string); ok && mayBeFlag(str) && is(str) {
				return true
			}
		}
	}
	return false
}

// actionLineOf is the script line a parsed action came from, rebuilt from
// its tokens for the printer.
func actionLineOf(a *Action) *Line {
	toks := append([]*Token{{Pos: a.Pos, Raw: a.Command, Value: a.Command}}, a.Tokens...)
	raw := make([]string, len(toks))
	for i, t := range toks {
		raw[i] = t.Raw
	}
	return &Line{Pos: a.Pos, Kind: LineAction, Text: strings.Join(raw, " "), Action: a, Tokens: toks}
}

// formatActionLine is the canonical command line of an action.
func formatActionLine(a *Action) string {
	var b strings.Builder
	b.Grow(64)
	c := a.Command
	if (prBareSafe(c) || rawBareSafe(c)) && c[0] != '#' && c != "env" && c != "context" {
		b.WriteString(c)
	} else {
		b.WriteString(prJSON(c))
	}
	label := refLabelSlot(a)
	// The leading keyword-shaped words (`wait text …`, `is selected …`,
	// `scroll down`) are written bare, as fmt writes them.
	keywords := !prTextCommands[a.Command]
	for i, p := range a.Positionals {
		b.WriteByte(' ')
		if keywords && i != label && prKeywordRe.MatchString(p) && prBareSafe(p) {
			b.WriteString(p)
			continue
		}
		keywords = false
		b.WriteString(formatPositional(p))
		if i == label && a.RefLabel != nil {
			b.WriteByte(' ')
			b.WriteString(jsonString(*a.RefLabel))
		}
	}
	if spec, ok := LookupCommand(a.Command); ok {
		for i := range spec.Flags {
			f := &spec.Flags[i]
			if f.Key == "" || f.Kind == FlagIgnored || f.Kind == FlagRetired {
				continue
			}
			src := a.Flags
			if f.Runtime {
				src = a.Runtime
			}
			v, set := src[f.Key]
			if !set {
				continue
			}
			if f.Kind == FlagBool {
				if on, _ := v.(bool); on {
					b.WriteByte(' ')
					b.WriteString(f.Names[0])
				}
				continue
			}
			b.WriteByte(' ')
			b.WriteString(f.Names[0])
			b.WriteByte(' ')
			b.WriteString(formatFlagValue(f, v))
		}
	}
	return b.String()
}

func formatPositional(p string) string {
	if prPositionalBare(p) || rawBareSafe(p) {
		return p
	}
	return jsonString(p)
}

// rawBareSafe reports a value that is not valid UTF-8 (JSON cannot carry
// it) but lexes back bare: no white space, no leading quote. Any other
// invalid UTF-8 is printed as JSON, with U+FFFD for the bad bytes.
func rawBareSafe(v string) bool {
	return v != "" && !utf8.ValidString(v) && !prHasSpace(v) && v[0] != '"' && v[0] != '\''
}

// jsonString is prJSON with a fast path for printable ASCII that needs no
// escape (most script values).
func jsonString(v string) string {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return prJSON(v)
		}
	}
	return `"` + v + `"`
}

// formatFlagValue writes a flag value the way the printer does for its kind.
func formatFlagValue(f *FlagSpec, v any) string {
	var text string
	switch x := v.(type) {
	case int:
		return strconv.Itoa(x)
	case float64:
		return jsNumberString(x)
	case bool:
		return strconv.FormatBool(x)
	case string:
		text = x
	default:
		text = fmt.Sprint(v)
	}
	if k, _ := prKindOf(f); (k == prEnum || k == prHint) && prHintBare(text) {
		return text
	}
	return formatPositional(text)
}

// formatEvidence is the annotation line of an action's evidence ("" when it
// carries none), keys in the writers' canonical order.
func formatEvidence(a *Action) string {
	var tag string
	var v any
	switch {
	case a.Targets != nil:
		t := *a.Targets
		t.Source, t.Destination = evidenceForJSON(t.Source), evidenceForJSON(t.Destination)
		tag, v = "agent-device:targets-v1", t
	case a.TargetEvidence != nil:
		tag, v = "agent-device:target-v1", evidenceForJSON(*a.TargetEvidence)
	default:
		return ""
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return ""
	}
	return "# " + tag + " " + strings.TrimSuffix(b.String(), "\n")
}

// evidenceForJSON gives ancestry its empty-array form (the payload requires
// an array).
func evidenceForJSON(ev TargetEvidence) TargetEvidence {
	if ev.Ancestry == nil {
		ev.Ancestry = []AncestorEntry{}
	}
	return ev
}
