package lang

// Check of action lines: commands, flags, arity, tokens.

import (
	"fmt"
	"strings"

	"github.com/adtest/adtest/internal/plural"
)

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
	args, err := bindArgs(a)
	if err == nil {
		c.bound[a] = args
	}
	c.targets(a, args, err)
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
		if a.Command == "snapshot" && t.Quoted == 0 && t.Raw == "--actions" {
			// The newest CLI's custom-actions snapshot (iOS); its script parser
			// drops the token, as every release does: nothing to warn about.
			continue
		}
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
			fmt.Sprintf("%s needs at least %d argument%s, got %d", a.Command, spec.MinArgs, plural.S(spec.MinArgs), n),
			"usage: "+spec.Usage)
	case spec.MaxArgs >= 0 && n > spec.MaxArgs:
		p := a.Pos
		if spec.MaxArgs < len(a.ArgPos) {
			p = a.ArgPos[spec.MaxArgs]
		}
		msg := fmt.Sprintf("%s takes at most %d argument%s, got %d", a.Command, spec.MaxArgs, plural.S(spec.MaxArgs), n)
		if spec.MaxArgs == 0 {
			msg = fmt.Sprintf("%s takes no arguments, got %d", a.Command, n)
		}
		c.add(p, SeverityError, "arity", msg, "usage: "+spec.Usage)
	}
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
