package lang

import (
	"fmt"
	"strconv"
	"strings"
)

// The script header (spec §1.4): the leading run of blank lines, comments,
// env directives and lines starting with "context " (with a space). Metadata
// and env values are read only from there.

// MaxContextRetries caps `context retries=N` when a test runs (agent-device
// clamps at run time; the parse keeps the declared value, so retries=7 parses
// as 7 and runs with 3 retries).
const MaxContextRetries = 3

// EffectiveRetries returns the declared retries clamped to MaxContextRetries
// (0 when not declared).
func (m Metadata) EffectiveRetries() int {
	if m.Retries == nil {
		return 0
	}
	if *m.Retries > MaxContextRetries {
		return MaxContextRetries
	}
	return *m.Retries
}

// ContextPlatforms are the accepted `context platform=` values: v0.20's
// ios android macos linux apple, plus vega of the newest grammar and
// harmonyos of agent-device 0.21. web is never accepted (it is silently
// dropped like any unknown value).
var ContextPlatforms = []string{"ios", "android", "macos", "linux", "apple", "vega", "harmonyos"}

// ContextTargets are the accepted `context target=` values.
var ContextTargets = []string{"mobile", "tv", "desktop"}

// inHeader reports whether a trimmed line continues the header.
func inHeader(t string) bool {
	return t == "" || t[0] == '#' || isEnvLine(t) || strings.HasPrefix(t, "context ")
}

// headerReader accumulates metadata and env while scanning the header.
type headerReader struct {
	file string
	md   Metadata
	env  []EnvDirective
	seen map[string]string // internal key -> value as printed in messages
	envs map[string]bool
	errs []*Error
}

func (h *headerReader) fail(p Pos, msg string) {
	h.errs = append(h.errs, &Error{Pos: p, Code: codeInvalidArgs, Message: msg, Metadata: true})
}

// readHeader reads context metadata and env directives from the header of
// lines. It returns every header error in line order (Parse reports the first).
func readHeader(file string, lines []physLine) (Metadata, []EnvDirective, []*Error) {
	h := &headerReader{file: file, seen: map[string]string{}, envs: map[string]bool{}}
	for _, l := range lines {
		if !inHeader(l.text) {
			break
		}
		p := Pos{Filename: file, Offset: l.offset, Line: l.num, Column: l.col}
		switch {
		case isEnvLine(l.text):
			h.envLine(p, l.text)
		case strings.HasPrefix(l.text, "context "):
			if h.md.Pos.Line == 0 {
				h.md.Pos = p
			}
			h.contextLine(p, l.text)
		}
	}
	return h.md, h.env, h.errs
}

// findKey finds the first match of \s<key>=(<value>) in text, where the value
// is a run of non-whitespace (digitsOnly: a run of ASCII digits), like the
// reference implementation's unanchored regexes. It returns the value and its
// byte offset.
func findKey(text, key string, digitsOnly bool) (string, int, bool) {
	needle := key + "="
	from := 0
	for {
		i := strings.Index(text[from:], needle)
		if i < 0 {
			return "", 0, false
		}
		i += from
		from = i + 1
		if i == 0 || !precededBySpace(text, i) {
			continue
		}
		start := i + len(needle)
		j := start
		if digitsOnly {
			for j < len(text) && text[j] >= '0' && text[j] <= '9' {
				j++
			}
		} else {
			for j < len(text) && spaceAt(text, j) == 0 {
				j++
			}
		}
		if j == start {
			continue
		}
		return text[start:j], start, true
	}
}

func precededBySpace(text string, i int) bool {
	// Walk back over one rune.
	j := i - 1
	for j > 0 && text[j]&0xC0 == 0x80 {
		j--
	}
	return spaceAt(text, j) == i-j
}

func (h *headerReader) contextLine(p Pos, text string) {
	set := func(key, val string, at int, apply func()) {
		vp := p
		vp.Offset += at
		vp.Column += at
		if old, dup := h.seen[key]; dup {
			if old == val {
				h.fail(vp, fmt.Sprintf("Duplicate replay test metadata %q in context header.", key))
			} else {
				h.fail(vp, fmt.Sprintf("Conflicting replay test metadata %q in context header: %s vs %s.", key, old, val))
			}
			return
		}
		h.seen[key] = val
		apply()
	}
	if v, at, ok := findKey(text, "platform", false); ok && contains(ContextPlatforms, v) {
		set("platform", v, at, func() { h.md.Platform = v })
	}
	if v, at, ok := findKey(text, "target", false); ok && contains(ContextTargets, v) {
		set("target", v, at, func() { h.md.Target = v })
	}
	if v, at, ok := findKey(text, "timeout", true); ok {
		if n, err := strconv.Atoi(v); err == nil && n >= 1 {
			set("timeoutMs", strconv.Itoa(n), at, func() { h.md.TimeoutMs = &n })
		}
	}
	if v, at, ok := findKey(text, "retries", true); ok {
		if n, err := strconv.Atoi(v); err == nil && n >= 0 {
			set("retries", strconv.Itoa(n), at, func() { h.md.Retries = &n })
		}
	}
	// Keep every other key=value pair raw (quote-aware split, quotes kept).
	rest := text[len("context"):]
	base := len("context")
	i := 0
	for i < len(rest) {
		if n := spaceAt(rest, i); n > 0 {
			i += n
			continue
		}
		j := i
		inQuote := false
		for j < len(rest) {
			c := rest[j]
			if c == '"' && (j == 0 || rest[j-1] != '\\') {
				inQuote = !inQuote
			}
			if !inQuote && spaceAt(rest, j) > 0 {
				break
			}
			j++
		}
		tok := rest[i:j]
		if k, v, ok := strings.Cut(tok, "="); ok && k != "" {
			switch k {
			case "platform", "target", "timeout", "retries":
			default:
				kp := p
				kp.Offset += base + i
				kp.Column += base + i
				h.md.Other = append(h.md.Other, KeyValue{Pos: kp, Key: k, Value: v})
			}
		}
		i = j
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// parseEnvLine decodes `env KEY=VALUE` (spec §1.4.2). It does not check
// duplicates.
func parseEnvLine(p Pos, text string) (EnvDirective, *Error) {
	fail := func(msg string) (EnvDirective, *Error) {
		return EnvDirective{}, &Error{Pos: p, Code: codeInvalidArgs, Message: msg, Metadata: true}
	}
	rest, _ := trimJSLeft(text[len("env"):])
	key, val, ok := strings.Cut(rest, "=")
	if !ok || key == "" {
		return fail(fmt.Sprintf("Invalid env directive on line %d: expected \"env KEY=VALUE\".", p.Line))
	}
	if !IsValidVarKey(key) {
		return fail(fmt.Sprintf("Invalid env key %q on line %d: keys must be uppercase letters, digits, and underscores (e.g. APP_ID).", key, p.Line))
	}
	if IsReservedVarKey(key) {
		return fail(fmt.Sprintf("Invalid env key %q on line %d: the AD_* namespace is reserved for built-in variables. Rename %s to avoid the AD_ prefix.", key, p.Line, key))
	}
	if strings.HasPrefix(val, `"`) {
		d, ok := decodeJSONString(val)
		if !ok {
			return fail(fmt.Sprintf("Invalid quoted env value on line %d.", p.Line))
		}
		val = d
	}
	return EnvDirective{Pos: p, Key: key, Value: val}, nil
}

func (h *headerReader) envLine(p Pos, text string) {
	d, err := parseEnvLine(p, text)
	if err != nil {
		h.errs = append(h.errs, err)
		return
	}
	if h.envs[d.Key] {
		h.fail(p, fmt.Sprintf("Duplicate env directive %q on line %d.", d.Key, p.Line))
		return
	}
	h.envs[d.Key] = true
	h.env = append(h.env, d)
}
