package lang

// Check of targets, selectors, variables and ref frames (ADR 0014).

import (
	"fmt"
	"sort"
	"strings"
)

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
