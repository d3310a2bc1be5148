package lang

// Check of the header: context and env lines, the effective platform.

import (
	"fmt"
	"strconv"
	"strings"
)

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
		if v2, off2, again := chkContextRead(text[tokEnd:], key); again {
			c.add(chkAt(l, tokEnd+off2-len(key)-1), SeverityWarning, "context-repeated",
				fmt.Sprintf("agent-device reads only the first %s= of a context line (%s); %s=%s is ignored", key, val, key, v2),
				"write each key once; a second context line with the key is an error (Duplicate or Conflicting replay test metadata)")
		}
		switch key {
		case "platform":
			switch {
			case val == "web":
				c.webDeclared = true
				c.add(chkAt(l, off), SeverityWarning, "context-platform",
					"agent-device ignores context platform=web (it accepts "+strings.Join(ContextPlatforms, ", ")+"); adtest runs the script on web",
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
