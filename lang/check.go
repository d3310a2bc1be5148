package lang

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Check is the static phase between Parse and Run (design.md): it looks at a
// parsed script without a device and reports every problem at once, sorted by
// position. Errors are scripts adtest refuses to run; warnings are the silent
// agent-device quirks of spec §9 that the script runs into.

// Severity of a diagnostic.
type Severity int

const (
	SeverityError Severity = iota + 1
	SeverityWarning
)

func (s Severity) String() string {
	if s == SeverityWarning {
		return "warning"
	}
	return "error"
}

// Diagnostic is one problem found by Check (or a parse error turned into one).
type Diagnostic struct {
	Pos      Pos
	Severity Severity
	// Rule is a short stable name of the check ("unknown-command", "ref-frame", ...).
	Rule    string
	Message string
	Hint    string
}

// Format renders the diagnostic as "file:line:col: error|warning: message",
// with file replacing Pos.Filename (callers pass the path relative to cwd).
func (d Diagnostic) Format(file string) string {
	return fmt.Sprintf("%s:%d:%d: %s: %s", file, d.Pos.Line, max(d.Pos.Column, 1), d.Severity, d.Message)
}

// CheckOptions carry what Check cannot see in the script.
type CheckOptions struct {
	// Vars are the variables supplied from outside: -e KEY=VALUE and AD_VAR_*.
	Vars map[string]string
	// Platform is the --platform the script will run on ("" = its own).
	Platform string
	// Compat also reports what only matters when the same script is replayed
	// by agent-device (e.g. that it drops context platform=web, which adtest
	// runs). Off by default: a web suite should check clean under --strict.
	Compat bool
}

// DiagnosticsFromErrors turns parse errors into error diagnostics.
func DiagnosticsFromErrors(errs []*Error) []Diagnostic {
	out := make([]Diagnostic, 0, len(errs))
	for _, e := range errs {
		out = append(out, Diagnostic{Pos: e.Pos, Severity: SeverityError, Rule: "parse", Message: e.Message, Hint: e.Hint})
	}
	return out
}

// SortDiagnostics orders diagnostics by file, line, column, then errors
// before warnings, then message.
func SortDiagnostics(ds []Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.Pos.Filename != b.Pos.Filename {
			return a.Pos.Filename < b.Pos.Filename
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		if a.Pos.Column != b.Pos.Column {
			return a.Pos.Column < b.Pos.Column
		}
		if a.Severity != b.Severity {
			return a.Severity < b.Severity
		}
		return a.Message < b.Message
	})
}

// Check statically checks a parsed script. src is the file's text (used for
// the line-level quirks). The result is sorted.
func Check(s *Script, src string, opts CheckOptions) []Diagnostic {
	if s == nil {
		return nil
	}
	c := &checker{s: s, opts: opts, hiddenEnv: map[string]int{}}
	c.header()
	c.platform = c.effectivePlatform()
	for _, l := range s.Lines {
		if l.Kind == LineAction && l.Action != nil {
			c.action(l, l.Action)
		}
	}
	c.refFrames()
	c.loneCR(src)
	SortDiagnostics(c.out)
	return c.out
}

type checker struct {
	s        *Script
	opts     CheckOptions
	out      []Diagnostic
	platform string
	// webDeclared is true when the header says platform=web (dropped by
	// agent-device, accepted by adtest).
	webDeclared bool
	// headerEnd is the line of a `context` / `context<TAB>` line that ended the
	// header early (0 when none).
	headerEnd int
	// hiddenEnv maps env keys defined after an early header end to their line.
	hiddenEnv map[string]int
}

func (c *checker) add(p Pos, sev Severity, rule, msg, hint string) {
	if compatOnlyRules[rule] && !c.opts.Compat {
		return
	}
	if p.Filename == "" {
		p.Filename = c.s.File
	}
	c.out = append(c.out, Diagnostic{Pos: p, Severity: sev, Rule: rule, Message: msg, Hint: hint})
}

// compatOnlyRules are diagnostics about agent-device's own versions (what it
// drops or does not know yet) that do not change what adtest runs; they are
// reported only with CheckOptions.Compat (adtest check --compat).
var compatOnlyRules = map[string]bool{
	"context-platform": true, // agent-device drops platform=web; adtest runs it
	"newest-only":      true, // a command or flag v0.20 lacks; adtest has it
}

// at is the position of byte offset off of a line's trimmed text.
func chkAt(l *Line, off int) Pos {
	p := l.Pos
	p.Offset += off
	p.Column += off
	return p
}

// ---- header: context and env lines ----

func (c *checker) header() {
	inHeader := true
	seenAction := false
	for _, l := range c.s.Lines {
		switch l.Kind {
		case LineAction:
			seenAction = true
			inHeader = false
		case LineEnv:
			if inHeader {
				c.envLine(l)
			} else if !seenAction && c.headerEnd > 0 {
				key, _, _ := strings.Cut(strings.TrimLeft(strings.TrimPrefix(l.Text, "env"), " \t"), "=")
				c.hiddenEnv[key] = l.Pos.Line
				c.add(l.Pos, SeverityWarning, "header-ended",
					fmt.Sprintf("env %s is never loaded: the header ended at line %d", key, c.headerEnd),
					"agent-device reads env and context lines only in the header; remove the bare `context` line or use `context ` with a space")
			}
		case LineContext:
			switch {
			case seenAction:
				c.add(l.Pos, SeverityWarning, "context-after-action",
					"context line after the first action is ignored", "move it to the header at the top of the file")
			case !strings.HasPrefix(l.Text, "context "):
				if inHeader {
					c.headerEnd = l.Pos.Line
					c.add(l.Pos, SeverityWarning, "header-ended",
						"`context` without a following space ends the header: later context and env lines are ignored",
						"write `context key=value` separated by a space (agent-device's header test wants a space, not a TAB)")
					inHeader = false
				} else {
					c.add(l.Pos, SeverityWarning, "header-ended",
						fmt.Sprintf("context line is ignored: the header ended at line %d", c.headerEnd), "")
				}
			case inHeader:
				c.contextLine(l)
			default:
				c.add(l.Pos, SeverityWarning, "header-ended",
					fmt.Sprintf("context line is ignored: the header ended at line %d", c.headerEnd), "")
			}
		}
	}
}

func (c *checker) envLine(l *Line) {
	rest := strings.TrimLeft(strings.TrimPrefix(l.Text, "env"), " \t")
	key, value, ok := strings.Cut(rest, "=")
	if !ok {
		return
	}
	valueOff := len(l.Text) - len(value)
	if !strings.HasPrefix(value, `"`) {
		if i := strings.Index(value, " #"); i >= 0 {
			c.add(chkAt(l, valueOff+i+1), SeverityWarning, "trailing-comment",
				fmt.Sprintf("%q is part of the value of %s: there are no trailing comments", strings.TrimSpace(value[i:]), key),
				"put the comment on its own line above")
		}
	}
	if refs := VarRefs(value); len(refs) > 0 {
		c.add(chkAt(l, valueOff+refs[0].Start), SeverityWarning, "env-not-interpolated",
			fmt.Sprintf("env values are not interpolated: %s keeps the literal text ${%s}", key, refs[0].Name), "")
	}
}

// contextLine reproduces agent-device's regex reading of one context line and
// warns where it silently differs from what the line appears to say.
func (c *checker) contextLine(l *Line) {
	text := l.Text
	for _, key := range []string{"platform", "target", "timeout", "retries"} {
		val, off, found := chkContextRead(text, key)
		if !found {
			continue
		}
		// Where does the token that visibly carries this key start?
		tokStart, tokEnd := chkTokenAround(text, off)
		if !strings.HasPrefix(text[tokStart:tokEnd], key+"=") {
			effect := ""
			if (key == "platform" && !selContains(ContextPlatforms, val)) || (key == "target" && !selContains(ContextTargets, val)) {
				effect = fmt.Sprintf(", an invalid value that leaves the script without a %s", key)
			}
			c.add(chkAt(l, off-len(key)-1), SeverityWarning, "context-smuggled",
				fmt.Sprintf("agent-device reads %s=%s from inside the quoted value %s (the first whitespace-preceded %s= wins)%s", key, val, text[tokStart:tokEnd], key, effect),
				"quoted values are not decoded in context lines; avoid key= text inside another value")
			continue
		}
		full := text[off:tokEnd]
		switch key {
		case "platform":
			switch {
			case val == "web":
				c.webDeclared = true
				c.add(chkAt(l, off), SeverityWarning, "context-platform",
					"agent-device ignores context platform=web (it accepts ios, android, macos, linux, apple, vega); adtest runs the script on web",
					"")
			case !selContains(ContextPlatforms, val):
				c.add(chkAt(l, off), SeverityWarning, "context-value-dropped",
					fmt.Sprintf("context platform=%s is not recognised and is silently dropped: the script has no platform", val),
					"use one of "+strings.Join(ContextPlatforms, ", ")+" (values are not quoted in context lines)")
			}
		case "target":
			if !selContains(ContextTargets, val) {
				c.add(chkAt(l, off), SeverityWarning, "context-value-dropped",
					fmt.Sprintf("context target=%s is not recognised and is silently dropped", val),
					"use one of "+strings.Join(ContextTargets, ", "))
			}
		case "timeout", "retries":
			digits := chkLeadingDigits(full)
			n, err := strconv.Atoi(digits)
			switch {
			case digits == "" || err != nil || (key == "timeout" && n < 1):
				c.add(chkAt(l, off), SeverityWarning, "context-value-dropped",
					fmt.Sprintf("context %s=%s is not a valid number and is silently dropped", key, full),
					fmt.Sprintf("%s takes a whole number of %s", key, map[string]string{"timeout": "milliseconds >= 1", "retries": "retries >= 0"}[key]))
			case digits != full:
				c.add(chkAt(l, off+len(digits)), SeverityWarning, "context-unanchored",
					fmt.Sprintf("context %s=%s is read as %s: the trailing %q is ignored", key, full, digits, full[len(digits):]),
					fmt.Sprintf("write %s=%s", key, digits))
			case key == "retries" && n > MaxContextRetries:
				c.add(chkAt(l, off), SeverityWarning, "context-retries-clamped",
					fmt.Sprintf("context retries=%d is clamped to %d", n, MaxContextRetries), "")
			}
		}
	}
	for _, kv := range c.s.Metadata.Other {
		if kv.Pos.Line == l.Pos.Line && strings.Contains(kv.Value, "${") {
			c.add(kv.Pos, SeverityWarning, "context-variable",
				fmt.Sprintf("variables are not expanded in context values: %s=%s stays literal", kv.Key, kv.Value), "")
		}
	}
}

// contextRead finds the first whitespace-preceded key= in text and returns
// its raw value (up to whitespace) and the value's offset.
func chkContextRead(text, key string) (string, int, bool) {
	needle := key + "="
	for from := 0; ; {
		i := strings.Index(text[from:], needle)
		if i < 0 {
			return "", 0, false
		}
		i += from
		from = i + 1
		if i == 0 || (text[i-1] != ' ' && text[i-1] != '\t') {
			continue
		}
		start := i + len(needle)
		end := start
		for end < len(text) && text[end] != ' ' && text[end] != '\t' {
			end++
		}
		if end == start {
			continue
		}
		return text[start:end], start, true
	}
}

// tokenAround returns the bounds of the quote-aware whitespace token of text
// that contains offset off.
func chkTokenAround(text string, off int) (int, int) {
	start, inQuote := -1, false
	for i := 0; i <= len(text); i++ {
		if i == len(text) || (!inQuote && (text[i] == ' ' || text[i] == '\t')) {
			if start >= 0 && off >= start && off < i {
				return start, i
			}
			start = -1
			continue
		}
		if start < 0 {
			start = i
		}
		if text[i] == '"' && (i == 0 || text[i-1] != '\\') {
			inQuote = !inQuote
		}
	}
	return off, len(text)
}

func chkLeadingDigits(s string) string {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i]
}

// ---- platform ----

func (c *checker) effectivePlatform() string {
	if c.opts.Platform != "" {
		return c.opts.Platform
	}
	for _, a := range c.s.Actions {
		hints := a.Runtime // open's runtime hints; a runtime line keeps them in flags
		if a.Command == "runtime" {
			hints = a.Flags
		}
		if a.Command == "open" || a.Command == "runtime" {
			if p, ok := hints.String("platform"); ok && p != "" {
				return p
			}
		}
		if a.Command == "open" {
			break
		}
	}
	if c.s.Metadata.Platform != "" {
		return c.s.Metadata.Platform
	}
	if c.webDeclared {
		return PlatformWeb
	}
	return ""
}

// ---- actions ----

// chkGuardLines are ADR 0020 fragment guard words (proposed, not implemented).
var chkGuardLines = map[string]bool{"fragment-v1": true, "composition-v1": true}

func (c *checker) action(l *Line, a *Action) {
	c.trailingHash(l, a)
	c.apostropheTokens(a)
	c.gluedTokens(a)
	spec, ok := LookupCommand(a.Command)
	switch {
	case chkGuardLines[a.Command]:
		c.add(a.Pos, SeverityError, "unknown-command",
			fmt.Sprintf("%s is an ADR 0020 fragment guard line, which neither adtest nor agent-device implements", a.Command),
			"agent-device would fail it only when the step is dispatched, after the earlier steps ran")
		return
	case !ok:
		c.unknownCommand(a)
		return
	case !spec.Script:
		c.add(a.Pos, SeverityError, "not-a-script-command",
			fmt.Sprintf("%s cannot be a script line", a.Command), "")
		return
	}
	if spec.Newest {
		c.add(a.Pos, SeverityWarning, "newest-only",
			fmt.Sprintf("%s exists only in the newest agent-device: v0.20 fails this line when it is dispatched", a.Command), "")
	}
	if a.Command == "replay" {
		c.add(a.Pos, SeverityWarning, "nested-replay",
			"nested replay is skipped: the step is counted but never runs", "run the other script as its own test")
	}
	if c.platform != "" && !SupportsPlatform(spec.Name, c.platform) {
		c.add(a.Pos, SeverityError, "platform",
			fmt.Sprintf("%s is not supported on platform %s", a.Command, c.platform),
			fmt.Sprintf("%s exists on %s", a.Command, strings.Join(spec.Platforms, ", ")))
	}
	c.flags(a, spec)
	c.arity(a, spec)
	c.targets(a)
	c.variables(a)
}

func (c *checker) unknownCommand(a *Action) {
	names := []string{"context", "env"}
	for _, s := range Commands {
		if s.Script {
			names = append(names, s.Name)
		}
	}
	hint := "see `adtest help commands` for the command list"
	if best, ok := Closest(a.Command, names, SuggestionDistance(a.Command)); ok {
		hint = fmt.Sprintf("did you mean %s?", best)
	} else if strings.ToLower(a.Command) != a.Command {
		if best, ok := Closest(strings.ToLower(a.Command), names, 0); ok {
			hint = fmt.Sprintf("did you mean %s? (command words are case-sensitive)", best)
		}
	}
	c.add(a.Pos, SeverityError, "unknown-command", fmt.Sprintf("unknown command %q", a.Command), hint)
}

// trailingHash: there are no trailing comments (spec §1.2).
func (c *checker) trailingHash(l *Line, a *Action) {
	for _, t := range a.Tokens {
		if t.Quoted == 0 && strings.HasPrefix(t.Raw, "#") {
			c.add(t.Pos, SeverityWarning, "trailing-comment",
				fmt.Sprintf("%q is not a comment: # starts a comment only at the beginning of a line, so it is passed to %s as an argument", t.Raw, a.Command),
				"put the comment on its own line above")
			return
		}
	}
}

// apostropheTokens: a leading ' means different things in v0.20 and newest.
func (c *checker) apostropheTokens(a *Action) {
	for _, t := range a.Tokens {
		if strings.HasPrefix(t.Raw, "'") {
			c.add(t.Pos, SeverityWarning, "single-quote",
				fmt.Sprintf("%s: agent-device v0.20 keeps the apostrophes as text, the newest version reads a single-quoted literal", t.Raw),
				"use double quotes, which mean the same in every version")
			return
		}
	}
}

func (c *checker) flags(a *Action, spec *CommandSpec) {
	toks := a.Tokens
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.Quoted != 0 || !chkLooksLikeFlag(t.Raw) {
			if a.Command == "snapshot" {
				c.add(t.Pos, SeverityWarning, "snapshot-ignored",
					fmt.Sprintf("snapshot ignores %s: a snapshot line takes no positional arguments", t.Raw),
					"scope a snapshot with -s \"label\"")
			}
			continue
		}
		if f, ok := spec.Flag(t.Raw); ok {
			if f.Kind != FlagRetired && f.Message != "" {
				// Kept by adtest, removed by agent-device (screenshot --max-size).
				c.add(t.Pos, SeverityWarning, "flag-removed", f.Message, "")
			}
			if f.Newest {
				c.add(t.Pos, SeverityWarning, "newest-only",
					fmt.Sprintf("%s %s exists only in the newest agent-device: v0.20 keeps it as a positional argument", a.Command, t.Raw), "")
			}
			if !f.TakesValue() || i+1 >= len(toks) {
				continue
			}
			v := toks[i+1]
			i++
			c.flagValue(a, spec, f, t, v)
			continue
		}
		name, value, hasEq := strings.Cut(t.Raw, "=")
		if hasEq {
			if f, ok := spec.Flag(name); ok {
				c.add(t.Pos, SeverityWarning, "flag-equals",
					fmt.Sprintf("%s is not recognised on a script line: the --flag=value form stays a positional of %s", t.Raw, a.Command),
					fmt.Sprintf("write %s %s", f.Names[0], value))
				continue
			}
		}
		hint := fmt.Sprintf("%s accepts no flags on a script line", a.Command)
		if len(spec.Flags) > 0 {
			var names []string
			for _, f := range spec.Flags {
				names = append(names, f.Names...)
			}
			hint = fmt.Sprintf("%s accepts %s on a script line", a.Command, strings.Join(names, " "))
		}
		if a.Command == "snapshot" {
			c.add(t.Pos, SeverityWarning, "snapshot-ignored",
				fmt.Sprintf("snapshot ignores %s: every token that is not a snapshot flag is dropped", t.Raw), hint)
			continue
		}
		c.add(t.Pos, SeverityError, "flag-not-accepted",
			fmt.Sprintf("flag %s is not accepted on a script line for %s: it would stay a positional argument", name, a.Command), hint)
	}
}

func chkLooksLikeFlag(raw string) bool {
	if strings.HasPrefix(raw, "--") {
		return len(raw) > 2 && chkIsLetter(raw[2])
	}
	return len(raw) == 2 && raw[0] == '-' && chkIsLetter(raw[1])
}

func chkIsLetter(b byte) bool { return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') }

func (c *checker) flagValue(a *Action, spec *CommandSpec, f *FlagSpec, t, v *Token) {
	store := a.Flags
	if f.Runtime {
		store = a.Runtime
	}
	_, set := store[f.Key]
	if f.Key == "" || set {
		return
	}
	switch f.Kind {
	case FlagIntOrDrop:
		msg := fmt.Sprintf("%s %s is dropped: the value must be a number >= 0 when the script is parsed", t.Raw, v.Raw)
		if strings.Contains(v.Value, "${") {
			msg = fmt.Sprintf("%s %s is dropped: variables resolve after the integer check, so %s cannot be parameterised", t.Raw, v.Raw, t.Raw)
		}
		c.add(v.Pos, SeverityWarning, "flag-dropped", msg, "")
	case FlagEnum:
		if strings.Contains(v.Value, "${") {
			return
		}
		c.add(v.Pos, SeverityWarning, "flag-dropped",
			fmt.Sprintf("%s %s is dropped: the value must be one of %s", t.Raw, v.Raw, strings.Join(f.Enum, ", ")), "")
	case FlagInt, FlagNumber:
		if strings.Contains(v.Value, "${") {
			c.add(v.Pos, SeverityWarning, "flag-not-parsed",
				fmt.Sprintf("%s %s stays positional: flag values are checked before variables resolve", t.Raw, v.Raw), "")
			return
		}
		c.add(v.Pos, SeverityWarning, "flag-not-parsed",
			fmt.Sprintf("%s %s is not a flag here: the value is not a number >= 0, so %s stays a positional and %s is read on its own", t.Raw, v.Raw, t.Raw, v.Raw), "")
	case FlagFloorOrDrop:
		c.add(v.Pos, SeverityWarning, "flag-dropped",
			fmt.Sprintf("%s %s is dropped: the value must be a number when the script is parsed", t.Raw, v.Raw), "")
	case FlagQuality:
		c.add(v.Pos, SeverityWarning, "flag-dropped",
			fmt.Sprintf("%s %s is dropped: the value must be medium, high or a whole number from 5 to 10", t.Raw, v.Raw), "")
	}
}

func (c *checker) arity(a *Action, spec *CommandSpec) {
	n := len(a.Positionals)
	if a.Command == "gesture" || a.Command == "swipe" || a.Command == "snapshot" {
		return // the parser checks these arities
	}
	for _, t := range a.Tokens {
		if t.Quoted == 0 && chkLooksLikeFlag(t.Raw) {
			if _, ok := spec.Flag(t.Raw); !ok {
				return // the stray flag is the problem; it is reported by flags
			}
		}
	}
	switch {
	case n < spec.MinArgs:
		c.add(a.Pos, SeverityError, "arity",
			fmt.Sprintf("%s needs at least %d argument%s, got %d", a.Command, spec.MinArgs, chkPlural(spec.MinArgs), n),
			"usage: "+spec.Usage)
	case spec.MaxArgs >= 0 && n > spec.MaxArgs:
		p := a.Pos
		if spec.MaxArgs < len(a.ArgPos) {
			p = a.ArgPos[spec.MaxArgs]
		}
		msg := fmt.Sprintf("%s takes at most %d argument%s, got %d", a.Command, spec.MaxArgs, chkPlural(spec.MaxArgs), n)
		if spec.MaxArgs == 0 {
			msg = fmt.Sprintf("%s takes no arguments, got %d", a.Command, n)
		}
		c.add(p, SeverityError, "arity", msg, "usage: "+spec.Usage)
	}
}

func chkPlural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// ---- targets and selectors ----

func chkHasVar(ss []string) bool {
	for _, s := range ss {
		if strings.Contains(s, "${") {
			return true
		}
	}
	return false
}

// argPos is the position of positional i; -1 means the value of the
// action's value flag (scroll --until).
func (c *checker) argPos(a *Action, i int) Pos {
	if i >= 0 && i < len(a.ArgPos) {
		return a.ArgPos[i]
	}
	if i < 0 {
		for j, t := range a.Tokens {
			if t.Quoted == 0 && chkLooksLikeFlag(t.Raw) && j+1 < len(a.Tokens) {
				if f, ok := LookupFlag(a.Command, t.Raw); ok && f.Kind == FlagString {
					return a.Tokens[j+1].Pos
				}
			}
		}
	}
	return a.Pos
}

func (c *checker) targets(a *Action) {
	p := a.Positionals
	switch a.Command {
	case "click", "press", "focus", "hover":
		c.target(a, p, 0, TargetOptions{})
	case "longpress":
		opts := TargetOptions{}
		if len(p) > 1 {
			if _, ok := JSNumber(p[len(p)-1]); ok {
				opts.Trailing = 1
			}
		}
		c.target(a, p, 0, opts)
	case "fill":
		if len(p) >= 2 {
			c.target(a, p, 0, TargetOptions{Trailing: 1})
		}
		if a.RefLabel != nil && len(p) == 2 && strings.HasPrefix(p[0], "@") {
			c.add(c.argPos(a, 0), SeverityWarning, "fill-ref-label",
				fmt.Sprintf("fill %s %s %s types only %q: the token after the ref is read as its label", p[0], *a.RefLabel, p[1], p[1]),
				fmt.Sprintf("quote the text: fill %s %s", p[0], QuoteSelectorValue(*a.RefLabel+" "+p[1])))
		}
	case "get":
		if len(p) >= 2 {
			c.target(a, p[1:], 1, TargetOptions{})
		}
	case "is":
		if len(p) >= 2 && strings.HasPrefix(p[1], "@") {
			c.add(c.argPos(a, 1), SeverityError, "target",
				fmt.Sprintf("is does not accept refs (%s): it asserts on a selector", p[1]),
				"use a selector such as label=\"...\" or id=\"...\"")
		} else if len(p) >= 2 && !strings.Contains(p[1], "${") {
			c.selector(a, p[1], 1)
		}
	case "wait":
		c.wait(a)
	case "scroll":
		if u, ok := a.Flags.String("scrollUntil"); ok && !strings.Contains(u, "${") {
			c.selector(a, u, -1)
		}
	}
}

// target decodes an interaction target like the runner will and reports what
// would fail.
func (c *checker) target(a *Action, p []string, base int, opts TargetOptions) {
	if len(p) == 0 || chkHasVar(p) {
		return
	}
	if strings.HasPrefix(p[0], "@") {
		return
	}
	for _, t := range a.Tokens {
		if t.Quoted == 0 && chkLooksLikeFlag(t.Raw) {
			if _, ok := LookupFlag(a.Command, t.Raw); !ok || a.Command == "click" || a.Command == "press" {
				if !ok || !flagConsumed(a, t.Raw) {
					return // a stray flag inside the target is reported by flags
				}
			}
		}
	}
	if c.unknownKey(a, p[0], base) {
		return
	}
	if _, err := DecodeTarget(p, opts); err != nil {
		msg := err.Error()
		if e, ok := err.(*Error); ok {
			msg = e.Message
		}
		hint := ""
		if strings.Contains(p[0], " #") {
			hint = "# starts a comment only at the beginning of a line; here it became part of the target"
		} else if (a.Command == "click" || a.Command == "press") && strings.Contains(p[0], " ") && LooksLikeSelector(p[0]) {
			hint = "agent-device joins the words of a click target into one selector; quote the value: " +
				a.Command + " " + QuoteSelectorValue(chkQuoteLastValue(p[0]))
		}
		c.add(c.argPos(a, base), SeverityError, "target", msg, hint)
	}
}

// quoteLastValue turns `label=Sign in` into `label="Sign in"`.
func chkQuoteLastValue(expr string) string {
	eq := strings.LastIndex(expr, "=")
	if eq < 0 {
		return expr
	}
	return expr[:eq+1] + QuoteSelectorValue(expr[eq+1:])
}

// unknownKey reports the first key=value term of expr whose key is not a
// selector key, with the rewrite suggestion. It returns true when it reported.
func (c *checker) unknownKey(a *Action, expr string, idx int) bool {
	parts, ok := splitQuoteAware(expr, splitFallback)
	if !ok {
		return false
	}
	for _, part := range parts {
		terms, ok := splitQuoteAware(selTrim(part), splitSpace)
		if !ok {
			return false
		}
		for _, term := range terms {
			key, value, ok := SplitSelectorKeyValue(term)
			if !ok || IsSelectorKey(key) || strings.HasPrefix(key, "-") {
				continue
			}
			hint := "did you mean " + SuggestSelectorRewrite(key, value) + "?"
			if strings.HasSuffix(key, "~") {
				hint = "the ~= operator is not supported (selectors match whole values, case-insensitively); did you mean " +
					SuggestSelectorRewrite(strings.TrimSuffix(key, "~"), value) + "?"
			}
			c.add(c.argPos(a, idx), SeverityError, "selector-key",
				fmt.Sprintf("unknown selector key %q (supported: %s)", key, strings.Join(SelectorKeys, ", ")), hint)
			return true
		}
	}
	return false
}

func (c *checker) selector(a *Action, expr string, idx int) {
	if c.unknownKey(a, expr, idx) {
		return
	}
	if _, err := ParseSelectorChain(expr); err != nil {
		c.add(c.argPos(a, idx), SeverityError, "selector", err.(*Error).Message, "")
	}
}

func (c *checker) wait(a *Action) {
	p := a.Positionals
	if len(p) == 0 || chkHasVar(p) {
		return
	}
	if p[0] == "absent" && len(p) > 1 {
		if c.unknownKey(a, p[1], 1) {
			return
		}
	}
	w, err := DecodeWait(p)
	if err != nil {
		c.add(c.argPos(a, 0), SeverityError, "wait", err.(*Error).Message, "usage: wait <ms> | text <text> [ms] | <selector> [ms] | @ref [ms] | stable [quietMs] [timeoutMs] | absent <selector> [ms]")
		return
	}
	if w.Kind != "text" || p[0] == "text" {
		return
	}
	if LooksLikeSelector(p[0]) {
		c.add(c.argPos(a, 0), SeverityWarning, "wait-text",
			fmt.Sprintf("wait %s waits for the text %q, not for a selector: the words do not parse as one selector", strings.Join(p, " "), w.Text),
			"quote a selector value with spaces, e.g. wait \"label=\\\"Sign in\\\"\", or write wait text ... for a text wait")
		return
	}
	if key, value, ok := SplitSelectorKeyValue(p[0]); ok && !IsSelectorKey(key) {
		c.add(c.argPos(a, 0), SeverityWarning, "wait-text",
			fmt.Sprintf("wait %s waits for the text %q: %q is not a selector key", strings.Join(p, " "), w.Text, key),
			"did you mean wait "+QuoteSelectorValue(SuggestSelectorRewrite(key, value))+"?")
	}
}

// ---- variables ----

func (c *checker) variables(a *Action) {
	for i, t := range a.Tokens {
		if !strings.Contains(t.Raw, "${") {
			continue
		}
		if a.Command == "open" && i > 0 && a.Tokens[i-1].Raw == "--metro-port" && t.Quoted == 0 {
			continue // reported as dropped
		}
		if t.Quoted == '"' && strings.Contains(t.Raw, `\${`) && !strings.Contains(t.Raw, `\\${`) {
			// Parse error territory; the parser reports the bad escape.
			continue
		}
		for _, r := range VarRefs(t.Value) {
			if r.HasFallback || c.defined(r.Name) {
				continue
			}
			p := t.Pos
			if k := strings.Index(t.Raw, "${"+r.Name); k >= 0 {
				p.Offset += k
				p.Column += k
			}
			msg := fmt.Sprintf("${%s} is not defined: no env line, -e %s=... or AD_VAR_%s supplies it", r.Name, r.Name, r.Name)
			switch {
			case IsReservedVarKey(r.Name):
				msg = fmt.Sprintf("${%s} is not a built-in variable", r.Name)
			case !IsValidVarKey(r.Name):
				msg = fmt.Sprintf("${%s} is not defined: env, -e and AD_VAR_* can only set upper-case names", r.Name)
			}
			c.add(p, SeverityError, "unresolved-variable", msg, c.varHint(r.Name))
		}
	}
}

func (c *checker) defined(name string) bool {
	if _, ok := c.opts.Vars[name]; ok {
		return true
	}
	for _, e := range c.s.Env {
		if e.Key == name {
			return true
		}
	}
	return IsBuiltInName(name)
}

func (c *checker) varHint(name string) string {
	if line, ok := c.hiddenEnv[name]; ok {
		return fmt.Sprintf("env %s on line %d is after the header ended on line %d and is never loaded", name, line, c.headerEnd)
	}
	if IsReservedVarKey(name) {
		hint := "AD_* names are reserved for built-ins: " + strings.Join(BuiltInNames, ", ")
		if best, ok := Closest(name, BuiltInNames, SuggestionDistance(name)); ok {
			hint = fmt.Sprintf("did you mean ${%s}? ", best) + hint
		}
		return hint
	}
	var known []string
	for _, e := range c.s.Env {
		known = append(known, e.Key)
	}
	for k := range c.opts.Vars {
		known = append(known, k)
	}
	sort.Strings(known)
	for _, k := range known {
		if strings.EqualFold(k, name) {
			return fmt.Sprintf("variable names are case-sensitive: did you mean ${%s}?", k)
		}
	}
	if best, ok := Closest(name, known, SuggestionDistance(name)); ok {
		return fmt.Sprintf("did you mean ${%s}?", best)
	}
	return fmt.Sprintf("add `env %s=...` to the header, pass -e %s=..., or write ${%s:-default}", name, name, name)
}

// ---- ref frames (ADR 0014) ----

// refArg returns the index of the positional holding an element ref, or -1.
func chkRefArg(a *Action) int {
	idx := 0
	switch a.Command {
	case "click", "press", "fill", "longpress", "focus", "hover", "wait":
	case "get":
		idx = 1
	default:
		return -1
	}
	if idx < len(a.Positionals) {
		if _, _, _, ok := ParseRef(a.Positionals[idx]); ok {
			return idx
		}
	}
	return -1
}

// refFrames walks the plan with ADR 0014 rule 14: a complete snapshot
// activates a frame; the first mutation expires it; a plain ref needs an
// active frame for a mutation.
func (c *checker) refFrames() {
	const (
		none = iota
		active
		expired
	)
	state := none
	var snapLine int
	var expiredBy *Action
	for _, a := range c.s.Actions {
		if a.Command == "replay" {
			continue
		}
		if a.Command == "snapshot" {
			if scope, ok := a.Flags.String("snapshotScope"); ok && strings.HasPrefix(scope, "@") && state == none {
				c.add(a.Pos, SeverityWarning, "ref-before-snapshot",
					fmt.Sprintf("snapshot -s %s scopes by a ref before any snapshot issued one", scope), "scope by a label instead")
			}
			state, snapLine, expiredBy = active, a.Pos.Line, nil
			continue
		}
		effect, _ := EffectOf(a)
		if i := chkRefArg(a); i >= 0 {
			ref := a.Positionals[i]
			mutation := effect == EffectMayInvalidate
			switch {
			case state == none:
				c.add(c.argPos(a, i), SeverityWarning, "ref-before-snapshot",
					fmt.Sprintf("%s is used before any snapshot: refs exist only after a snapshot in the same run", ref),
					"add snapshot -i before this line, or use a selector")
			case state == expired && mutation:
				c.add(c.argPos(a, i), SeverityWarning, "ref-frame-expired",
					fmt.Sprintf("%s will fail with ref_frame_expired: %s on line %d already expired the snapshot of line %d", ref, expiredBy.Command, expiredBy.Pos.Line, snapLine),
					"take snapshot -i again before this line (ADR 0014), or use a selector")
			case state == expired:
				c.add(c.argPos(a, i), SeverityWarning, "ref-frame-stale",
					fmt.Sprintf("%s reads a stale ref: %s on line %d expired the snapshot of line %d", ref, expiredBy.Command, expiredBy.Pos.Line, snapLine),
					"take snapshot -i again before this line, or use a selector")
			}
		}
		if effect == EffectMayInvalidate && state == active {
			state, expiredBy = expired, a
		}
	}
}

// FormatDiagnostics renders diagnostics one per line as Format does, each
// followed by an indented "hint: ..." line when it has a hint.
func FormatDiagnostics(ds []Diagnostic, file string) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.Format(file))
		b.WriteByte('\n')
		if d.Hint != "" {
			b.WriteString("\thint: ")
			b.WriteString(d.Hint)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// CheckSource parses src with ParseAll and checks it: parse errors and check
// diagnostics together, sorted. The script is nil only when nothing parsed.
func CheckSource(filename string, src []byte, opts CheckOptions) (*Script, []Diagnostic) {
	s, errs := ParseAll(filename, src)
	ds := DiagnosticsFromErrors(errs)
	for i := range ds {
		if ds[i].Pos.Filename == "" {
			ds[i].Pos.Filename = filename
		}
		if ds[i].Pos.Line == 0 {
			ds[i].Pos.Line = 1
		}
	}
	errLines := map[int]bool{}
	for i, e := range errs {
		errLines[e.Pos.Line] = true
		if strings.HasPrefix(e.Message, "Invalid quoted value") && strings.Contains(e.Message, `\$`) {
			ds[i].Hint = `inside double quotes \$ is not a JSON escape: write \\${ for a literal ${, or use a bare token \${...}`
		}
	}
	for _, d := range Check(s, string(src), opts) {
		// A line that failed to parse gets its parse error only.
		if errLines[d.Pos.Line] && d.Severity == SeverityError {
			continue
		}
		ds = append(ds, d)
	}
	SortDiagnostics(ds)
	return s, ds
}

// LookupFlag returns the script flag spec of a command's flag token.
func LookupFlag(command, tok string) (*FlagSpec, bool) {
	spec, ok := LookupCommand(command)
	if !ok {
		return nil, false
	}
	return spec.Flag(tok)
}

// flagConsumed reports whether the parser took flag tok as a flag (its key is set).
func flagConsumed(a *Action, tok string) bool {
	f, ok := LookupFlag(a.Command, tok)
	if !ok {
		return false
	}
	if f.Key == "" {
		return true
	}
	if _, set := a.Flags[f.Key]; set {
		return true
	}
	_, set := a.Runtime[f.Key]
	return set
}

// gluedTokens: a closing double quote ends the token even without following
// whitespace, so "abc"def is two arguments (spec §1.3).
func (c *checker) gluedTokens(a *Action) {
	for i := 0; i+1 < len(a.Tokens); i++ {
		t, n := a.Tokens[i], a.Tokens[i+1]
		if t.Quoted == 0 || n.Pos.Line != t.Pos.Line || n.Pos.Column != t.Pos.Column+len(t.Raw) {
			continue
		}
		c.add(n.Pos, SeverityWarning, "glued-token",
			fmt.Sprintf("the closing quote ends a token: %s%s is read as two arguments %q and %q", t.Raw, n.Raw, t.Value, n.Value),
			"add a space between them, or put the whole text inside the quotes")
	}
}

// loneCR: a CR that is not part of CRLF is whitespace inside a line, so
// "open settings<CR>wait 500" is one open line (spec §1.1).
func (c *checker) loneCR(src string) {
	line, lineStart := 1, 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\n':
			line++
			lineStart = i + 1
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				continue
			}
			c.add(Pos{Filename: c.s.File, Line: line, Column: i - lineStart + 1, Offset: i}, SeverityWarning, "lone-cr",
				"a carriage return without a line feed does not end the line: the text after it joins this line",
				"save the file with LF or CRLF line endings")
		}
	}
}
