package lang

import (
	"strings"
	"unicode/utf8"
)

// Selector grammar (spec §3.1):
//
//	chain    := segment ( "||" segment )*
//	segment  := term ( WS+ term )*
//	term     := key "=" value | boolkey
//
// Splitting on "||" and on whitespace is quote-aware: a '"' or '\'' that is
// not preceded by an odd run of backslashes opens a quoted run that only the
// same quote character closes.

// SelectorTextKeys are the keys that take a text value, in agent-device's order.
var SelectorTextKeys = []string{"id", "role", "text", "label", "value", "appname", "windowtitle"}

// SelectorBoolKeys are the keys that take a boolean value (alone they mean true).
var SelectorBoolKeys = []string{"visible", "hidden", "editable", "selected", "focused", "enabled", "hittable"}

// SelectorKeys lists every supported key, text keys first.
var SelectorKeys = append(append([]string{}, SelectorTextKeys...), SelectorBoolKeys...)

// IsSelectorKey reports whether key (any case) is a supported selector key.
func IsSelectorKey(key string) bool {
	return isTextKey(strings.ToLower(key)) || isBoolKey(strings.ToLower(key))
}

func isTextKey(k string) bool { return selContains(SelectorTextKeys, k) }
func isBoolKey(k string) bool { return selContains(SelectorBoolKeys, k) }

func selContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func selectorError(msg string) *Error {
	return &Error{Code: selCodeInvalidArgs, Message: msg}
}

// selCodeInvalidArgs is agent-device's code for every parse, grammar and argument error.
const selCodeInvalidArgs = "INVALID_ARGS"

// ParseSelectorChain parses a selector expression (spec §3.1). Errors are
// *Error with agent-device's messages.
func ParseSelectorChain(expr string) (*SelectorChain, error) {
	trimmed := selTrim(expr)
	if trimmed == "" {
		return nil, selectorError("Selector expression cannot be empty")
	}
	parts, ok := splitQuoteAware(trimmed, splitFallback)
	chain := &SelectorChain{Raw: trimmed}
	if !ok {
		// An unclosed quote somewhere: report the segment that holds it.
		return nil, selectorError("Unclosed quote in selector: " + unclosedSegment(trimmed))
	}
	for _, p := range parts {
		if selTrim(p) == "" {
			return nil, selectorError("Invalid selector fallback expression: " + trimmed)
		}
	}
	chain.Segments = make([]SelectorSegment, 0, len(parts))
	for _, p := range parts {
		seg, err := parseSegment(selTrim(p))
		if err != nil {
			return nil, err
		}
		chain.Segments = append(chain.Segments, seg)
	}
	return chain, nil
}

// unclosedSegment returns the first ||-segment (split without quote awareness
// past the unclosed quote) that leaves a quote open.
func unclosedSegment(expr string) string {
	parts, _ := splitQuoteAware(expr, splitFallback)
	for _, p := range parts {
		if _, ok := splitQuoteAware(p, splitSpace); !ok {
			return selTrim(p)
		}
	}
	return expr
}

func parseSegment(seg string) (SelectorSegment, error) {
	terms, ok := splitQuoteAware(seg, splitSpace)
	if !ok {
		return SelectorSegment{}, selectorError("Unclosed quote in selector: " + seg)
	}
	out := SelectorSegment{Raw: seg, Terms: make([]SelectorTerm, 0, len(terms))}
	for _, raw := range terms {
		if raw == "" {
			continue
		}
		t, err := parseTerm(raw)
		if err != nil {
			return SelectorSegment{}, err
		}
		out.Terms = append(out.Terms, t)
	}
	return out, nil
}

func parseTerm(raw string) (SelectorTerm, error) {
	eq := strings.IndexByte(raw, '=')
	if eq < 0 {
		k := strings.ToLower(selTrim(raw))
		if isBoolKey(k) {
			return SelectorTerm{Key: k, Value: "true", IsBool: true, Bool: true}, nil
		}
		return SelectorTerm{}, selectorError(`Invalid selector term "` + raw + `", expected key=value`)
	}
	key := strings.ToLower(selTrim(raw[:eq]))
	rawValue := selTrim(raw[eq+1:])
	if !IsSelectorKey(key) {
		return SelectorTerm{}, selectorError("Unknown selector key: " + key)
	}
	if rawValue == "" {
		return SelectorTerm{}, selectorError("Missing selector value for key: " + key)
	}
	value := unquoteSelectorValue(rawValue)
	if isBoolKey(key) {
		switch strings.ToLower(value) {
		case "true":
			return SelectorTerm{Key: key, Value: "true", IsBool: true, Bool: true}, nil
		case "false":
			return SelectorTerm{Key: key, Value: "false", IsBool: true, Bool: false}, nil
		}
		return SelectorTerm{}, selectorError("Invalid boolean value for " + key + ": " + rawValue)
	}
	return SelectorTerm{Key: key, Value: value}, nil
}

type splitMode int

const (
	splitFallback splitMode = iota // split on "||"
	splitSpace                     // split on runs of whitespace
)

// splitQuoteAware splits s outside quoted runs. ok is false when a quote is
// left open at the end.
func splitQuoteAware(s string, mode splitMode) (parts []string, ok bool) {
	parts = make([]string, 0, 4) // one allocation for the usual few parts
	var quote byte
	start := 0
	backslashes := 0
	for i := 0; i < len(s); {
		c := s[i]
		if quote != 0 {
			switch {
			case c == '\\':
				backslashes++
			case c == quote && backslashes%2 == 0:
				quote = 0
				backslashes = 0
			default:
				backslashes = 0
			}
			i++
			continue
		}
		if (c == '"' || c == '\'') && backslashes%2 == 0 {
			quote = c
			backslashes = 0
			i++
			continue
		}
		if c == '\\' {
			backslashes++
		} else {
			backslashes = 0
		}
		switch mode {
		case splitFallback:
			if c == '|' && i+1 < len(s) && s[i+1] == '|' {
				parts = append(parts, s[start:i])
				i += 2
				start = i
				continue
			}
		case splitSpace:
			r, size := utf8.DecodeRuneInString(s[i:])
			if selIsSpace(r) {
				if i > start {
					parts = append(parts, s[start:i])
				}
				i += size
				start = i
				continue
			}
			i += size
			continue
		}
		i++
	}
	if mode == splitFallback || start < len(s) {
		parts = append(parts, s[start:])
	}
	return parts, quote == 0
}

// unquoteSelectorValue strips one pair of matching surrounding quotes and
// decodes \" \' \\ \/ \b \f \n \r \t \uXXXX; other backslash sequences stay.
func unquoteSelectorValue(v string) string {
	if len(v) < 2 {
		return v
	}
	q := v[0]
	if (q != '"' && q != '\'') || v[len(v)-1] != q {
		return v
	}
	inner := v[1 : len(v)-1]
	if !strings.Contains(inner, `\`) {
		return inner
	}
	var b strings.Builder
	b.Grow(len(inner)) // decoding only shortens
	for i := 0; i < len(inner); i++ {
		c := inner[i]
		if c != '\\' || i+1 >= len(inner) {
			b.WriteByte(c)
			continue
		}
		if inner[i+1] == '\'' {
			b.WriteByte('\'')
			i++
			continue
		}
		r, n, ok := decodeEscape(inner[i:])
		if !ok {
			// Unknown sequences stay as written.
			b.WriteByte(c)
			b.WriteByte(inner[i+1])
			i++
			continue
		}
		b.WriteRune(r)
		i += n - 1 // the loop's i++ moves past the escape
	}
	return b.String()
}

// LooksLikeSelector reports whether a token is selector-looking: "||", a known
// key, or key=... with a known key (spec §2.1).
func LooksLikeSelector(tok string) bool {
	t := selTrim(tok)
	if t == "||" {
		return true
	}
	if IsSelectorKey(t) {
		return true
	}
	if eq := strings.IndexByte(t, '='); eq > 0 {
		return IsSelectorKey(selTrim(t[:eq]))
	}
	return false
}

// QuoteSelectorValue writes a selector value as a JSON string literal.
func QuoteSelectorValue(v string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range v {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if r < 0x20 {
				b.WriteString(`\u00`)
				b.WriteByte("0123456789abcdef"[r>>4])
				b.WriteByte("0123456789abcdef"[r&0xF])
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// roleWords are keys that users write as if they were a role
// (button="Save"); the rewrite turns them into role=<word> label=<value>.
var roleWords = []string{
	"button", "link", "cell", "checkbox", "switch", "toggle", "tab", "textfield",
	"textbox", "input", "field", "image", "img", "icon", "menu", "menuitem", "heading",
	"header", "statictext", "radio", "slider", "listitem", "row", "searchfield",
	"combobox", "option", "alert", "dialog", "navigationbar", "tabbar", "toolbar",
}

// SplitSelectorKeyValue splits a key=value token: ok is false without '=' or
// with an empty key or a key containing whitespace or '"'.
func SplitSelectorKeyValue(tok string) (key, value string, ok bool) {
	eq := strings.IndexByte(tok, '=')
	if eq <= 0 {
		return "", "", false
	}
	key = tok[:eq]
	if strings.ContainsAny(key, "\" \t") {
		return "", "", false
	}
	return key, tok[eq+1:], true
}

// SuggestSelectorRewrite proposes a replacement for an unknown key=value term:
// a role word becomes role=<word> label=<value>; a near-miss of a known key
// (edit distance) becomes that key; anything else becomes label=<value>.
// The value is unquoted and re-quoted as a JSON string.
func SuggestSelectorRewrite(key, rawValue string) string {
	value := unquoteSelectorValue(selTrim(rawValue))
	lk := strings.ToLower(strings.Trim(key, `'`))
	if selContains(roleWords, lk) {
		return "role=" + lk + " label=" + QuoteSelectorValue(value)
	}
	if IsSelectorKey(lk) {
		return lk + "=" + QuoteSelectorValue(value)
	}
	if best, ok := Closest(lk, SelectorKeys, 2); ok {
		if isBoolKey(best) {
			return best + "=" + strings.ToLower(value)
		}
		return best + "=" + QuoteSelectorValue(value)
	}
	return "label=" + QuoteSelectorValue(value)
}

// jsSpace reports JavaScript's \s / trim() whitespace set (spec §1.1).
func selIsSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\v', '\f', '\r', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// selTrim trims JavaScript whitespace from both ends.
func selTrim(s string) string { return strings.TrimFunc(s, selIsSpace) }
