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

// targets reports what binding the action's arguments (lang.Bind, as the
// runner will) finds wrong with its targets, selectors and wait form, and
// the warnings its bound value calls for. args is nil when Bind failed
// with err.
func (c *checker) targets(a *Action, args Args, err *Error) {
	if err != nil {
		c.bindError(a, err)
		return
	}
	switch v := args.(type) {
	case TargetArgs:
		if a.Command == "fill" && v.Target.Kind == TargetRef && v.HasLabel {
			c.add(v.Target.Pos, SeverityWarning, "fill-ref-label",
				fmt.Sprintf("fill %s %s %s types only %q: the token after the ref is read as its label", v.Target.Raw, v.Label, v.Text, v.Text),
				fmt.Sprintf("quote the text: fill %s %s", v.Target.Raw, QuoteSelectorValue(v.Label+" "+v.Text)))
		}
	case WaitArgs:
		c.waitText(v)
	}
}

// bindError reports a Bind failure under the rule of the part that failed;
// a usage error is left to arity, and a part that holds ${...} to the run.
func (c *checker) bindError(a *Action, err *Error) {
	p := err.args
	if len(p) == 0 || chkHasVar(p) {
		return
	}
	at := func(i int) Pos {
		if i < len(err.argPos) {
			return err.argPos[i]
		}
		return a.Pos
	}
	switch err.part {
	case partTarget:
		c.target(a, p, at(0), err)
	case partSelector:
		if !c.unknownKey(p[0], at(0)) {
			c.add(at(0), SeverityError, "selector", err.Message, "")
		}
	case partIsRef:
		c.add(at(0), SeverityError, "target",
			fmt.Sprintf("is does not accept refs (%s): it asserts on a selector", p[0]),
			"use a selector such as label=\"...\" or id=\"...\"")
	case partWait:
		if p[0] == "absent" && len(p) > 1 && c.unknownKey(p[1], at(1)) {
			return
		}
		c.add(at(0), SeverityError, "wait", err.Message, "usage: wait <ms> | text <text> [ms] | <selector> [ms] | @ref [ms] | stable [quietMs] [timeoutMs] | absent <selector> [ms]")
	}
}

// target reports a target that did not bind (p: its positionals, from pos).
func (c *checker) target(a *Action, p []string, pos Pos, err *Error) {
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
	if c.unknownKey(p[0], pos) {
		return
	}
	hint := ""
	if strings.Contains(p[0], " #") {
		hint = "# starts a comment only at the beginning of a line; here it became part of the target"
	} else if (a.Command == "click" || a.Command == "press") && strings.Contains(p[0], " ") && LooksLikeSelector(p[0]) {
		hint = "agent-device joins the words of a click target into one selector; quote the value: " +
			a.Command + " " + QuoteSelectorValue(chkQuoteLastValue(p[0]))
	}
	c.add(pos, SeverityError, "target", err.Message, hint)
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
func (c *checker) unknownKey(expr string, pos Pos) bool {
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
			c.add(pos, SeverityError, "selector-key",
				fmt.Sprintf("unknown selector key %q (supported: %s)", key, strings.Join(SelectorKeys, ", ")), hint)
			return true
		}
	}
	return false
}

// waitText warns about a wait that reads as a text wait although its words
// look like a selector.
func (c *checker) waitText(w WaitArgs) {
	p := w.Written
	if w.Kind != WaitText || len(p) == 0 || p[0] == "text" || chkHasVar(p) {
		return
	}
	if LooksLikeSelector(p[0]) {
		c.add(w.Pos, SeverityWarning, "wait-text",
			fmt.Sprintf("wait %s waits for the text %q, not for a selector: the words do not parse as one selector", strings.Join(p, " "), w.Text),
			"quote a selector value with spaces, e.g. wait \"label=\\\"Sign in\\\"\", or write wait text ... for a text wait")
		return
	}
	if key, value, ok := SplitSelectorKeyValue(p[0]); ok && !IsSelectorKey(key) {
		c.add(w.Pos, SeverityWarning, "wait-text",
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
		if ref, pos, ok := NamedRef(c.bound[a]); ok {
			mutation := effect == EffectMayInvalidate
			switch {
			case state == none:
				c.add(pos, SeverityWarning, "ref-before-snapshot",
					fmt.Sprintf("%s is used before any snapshot: refs exist only after a snapshot in the same run", ref),
					"add snapshot -i before this line, or use a selector")
			case state == expired && mutation:
				c.add(pos, SeverityWarning, "ref-frame-expired",
					fmt.Sprintf("%s will fail with ref_frame_expired: %s on line %d already expired the snapshot of line %d", ref, expiredBy.Command, expiredBy.Pos.Line, snapLine),
					"take snapshot -i again before this line (ADR 0014), or use a selector")
			case state == expired:
				c.add(pos, SeverityWarning, "ref-frame-stale",
					fmt.Sprintf("%s reads a stale ref: %s on line %d expired the snapshot of line %d", ref, expiredBy.Command, expiredBy.Pos.Line, snapLine),
					"take snapshot -i again before this line, or use a selector")
			}
		}
		if effect == EffectMayInvalidate && state == active {
			state, expiredBy = expired, a
		}
	}
}
