package lang

import (
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Decoding of interaction targets and wait forms (spec §2.1, §2.3): what the
// daemon does with an action's positionals.

// InteractionTarget is a decoded click/fill/get/... target.
type InteractionTarget struct {
	Kind     TargetKind
	Ref      string         // "@e3" (without pin)
	Pin      int            // generation of a pinned ref @e3~s42; 0 when plain
	Pinned   bool           // true when the input carried a ~sG pin
	Label    string         // optional trailing ref label
	X, Y     float64        // point
	Selector *SelectorChain // selector
	Raw      string         // the target text as written (joined)
	Rest     []string       // positionals after the target (fill text, longpress duration, ...)
}

// TargetOptions tune decodeTarget for a command's shape.
type TargetOptions struct {
	// Trailing is how many positionals at the end belong to the command, not to
	// the target (fill's text: 1). They are returned in Rest. A ref target
	// takes no label when Trailing > 0 and exactly Trailing tokens follow it.
	Trailing int
}

var bareRefPattern = regexp.MustCompile(`^e\d+$`)

// parseRef decodes "@eN" or "@eN~sG" (the grammar of Ref) into the ref
// without its pin, as written, and the pin. ok is false for anything else.
func parseRef(tok string) (ref string, pin int, pinned bool, ok bool) {
	n, g, ok := scanRef(tok)
	if !ok {
		return "", 0, false, false
	}
	ref = "@e" + n
	if g != "" {
		v, err := strconv.Atoi(g)
		if err != nil {
			return "", 0, false, false
		}
		return ref, v, true, true
	}
	return ref, 0, false, true
}

// decodeTarget decodes a target followed by opts.Trailing command
// positionals. Only the binder (args.go) calls it: every other reader takes
// the bound value from Bind.
func decodeTarget(positionals []string, opts TargetOptions) (InteractionTarget, *Error) {
	if allSpace(positionals) {
		return InteractionTarget{}, targetError(targetParseFailure(positionals))
	}
	p0 := positionals[0]
	if strings.HasPrefix(p0, "@") {
		ref, pin, pinned, ok := parseRef(p0)
		if !ok {
			ref = p0 // malformed refs (@e2~x3) are left for ref admission to reject
		}
		t := InteractionTarget{Kind: TargetRef, Ref: ref, Pin: pin, Pinned: pinned, Raw: p0}
		after := positionals[1:]
		if len(after) > opts.Trailing {
			t.Label = after[0]
			after = after[1:]
		}
		t.Rest = append([]string{}, after...)
		return t, nil
	}
	if len(positionals) >= 2 {
		x, okx := JSNumber(positionals[0])
		y, oky := JSNumber(positionals[1])
		if okx && oky {
			return InteractionTarget{Kind: TargetPoint, X: x, Y: y,
				Raw: positionals[0] + " " + positionals[1], Rest: append([]string{}, positionals[2:]...)}, nil
		}
	}
	body := positionals
	var trailing []string
	if opts.Trailing > 0 && len(positionals) > opts.Trailing {
		body = positionals[:len(positionals)-opts.Trailing]
		trailing = positionals[len(positionals)-opts.Trailing:]
	}
	if chain, n, ok := longestSelectorPrefix(body); ok {
		if n < len(body) {
			return InteractionTarget{}, targetError(selectorTrailingFailure(chain, body[:n], body[n:]))
		}
		return InteractionTarget{Kind: TargetSelector, Selector: chain, Raw: chain.Raw,
			Rest: append([]string{}, trailing...)}, nil
	}
	if bareRefPattern.MatchString(p0) {
		return InteractionTarget{}, targetError(`Did you mean "@` + p0 + `"? Snapshot refs need the @ prefix.`)
	}
	if key, value, ok := SplitSelectorKeyValue(p0); ok && !IsSelectorKey(key) {
		return InteractionTarget{}, targetError(UnknownSelectorKeyMessage(key, value))
	}
	return InteractionTarget{}, targetError(targetParseFailure(body))
}

// allSpace reports positionals that join to nothing but white space.
func allSpace(ps []string) bool {
	for _, p := range ps {
		if strings.TrimSpace(p) != "" {
			return false
		}
	}
	return true
}

// UnknownSelectorKeyMessage is the daemon's message for key=value with an
// unknown key, including the rewrite suggestion.
func UnknownSelectorKeyMessage(key, value string) string {
	return `Unknown selector key "` + key + `". Supported: ` + strings.Join(SelectorKeys, ", ") +
		". Did you mean " + SuggestSelectorRewrite(key, value) + "?"
}

func targetError(msg string) *Error { return &Error{Code: selCodeInvalidArgs, Message: msg} }

func targetParseFailure(positionals []string) string {
	raw := strings.Join(positionals, " ")
	if strings.TrimSpace(raw) == "" {
		return `Missing target. Pass an @ref from snapshot, a selector like text="Sign in", or "x y" coordinates.`
	}
	base := `Target "` + raw + `" is not a @ref, selector, or "x y" point.`
	for _, p := range positionals {
		if LooksLikeSelector(p) {
			return base + ` Selector values with spaces need quotes, e.g. text="Sign in".`
		}
	}
	return base + " To match by visible text, use text=" + QuoteSelectorValue(raw) +
		" (or label=/id=/role=), or pass an @ref from snapshot."
}

func selectorTrailingFailure(chain *SelectorChain, selector, rest []string) string {
	base := "Selector " + chain.Raw + ` is followed by unexpected extra arguments: "` + strings.Join(rest, " ") + `".`
	suggestion := `text="Sign in"`
	if merged, ok := mergeIntoLastValue(chain, rest); ok {
		suggestion = merged
	}
	return base + " Selector values with spaces need quotes, e.g. " + suggestion + "."
}

// mergeIntoLastValue rewrites the chain's last term as key="value rest...",
// the likely intent when a value with spaces was not quoted.
func mergeIntoLastValue(chain *SelectorChain, rest []string) (string, bool) {
	seg := chain.Segments[len(chain.Segments)-1]
	last := seg.Terms[len(seg.Terms)-1]
	if last.IsBool {
		return "", false
	}
	terms, ok := splitQuoteAware(chain.Raw, splitSpace)
	if !ok || len(terms) == 0 {
		return "", false
	}
	lastRaw := terms[len(terms)-1]
	prefix := strings.TrimSuffix(chain.Raw, lastRaw)
	return prefix + last.Key + "=" + QuoteSelectorValue(last.Value+" "+strings.Join(rest, " ")), true
}

// longestSelectorPrefix takes the leading selector-looking tokens and returns
// the longest prefix of them that parses as a chain, and its token count.
func longestSelectorPrefix(tokens []string) (*SelectorChain, int, bool) {
	n := 0
	for n < len(tokens) && LooksLikeSelector(tokens[n]) {
		n++
	}
	for k := n; k > 0; k-- {
		if chain, err := ParseSelectorChain(strings.Join(tokens[:k], " ")); err == nil {
			return chain, k, true
		}
	}
	return nil, 0, false
}

// WaitSpec is a decoded wait (spec §2.3).
type WaitSpec struct {
	Kind       WaitKind
	DurationMs int    // sleep
	Text       string // text wait
	Ref        string // ref wait
	Selector   *SelectorChain
	TimeoutMs  *int // nil = default (10 000 ms)
	QuietMs    *int // stable
}

// WaitKind is the form of a wait.
type WaitKind string

const (
	WaitSleep    WaitKind = "sleep"    // wait <ms>
	WaitText     WaitKind = "text"     // wait [text] <text> [ms]
	WaitStable   WaitKind = "stable"   // wait stable [quietMs] [timeoutMs]
	WaitRef      WaitKind = "ref"      // wait @ref [ms]
	WaitSelector WaitKind = "selector" // wait <selector> [ms]
	WaitAbsent   WaitKind = "absent"   // wait absent <selector> [ms]
)

// DefaultWaitTimeoutMs is the timeout of polling waits without one.
const DefaultWaitTimeoutMs = 10000

// decodeWait decodes wait positionals (for the binder, as decodeTarget).
func decodeWait(positionals []string) (WaitSpec, *Error) {
	if len(positionals) == 0 {
		return WaitSpec{}, targetError(`wait requires an argument: wait <ms> | text <text> [ms] | <selector> [ms] | @ref [ms] | stable [quietMs] [timeoutMs] | absent <selector> [ms].`)
	}
	if ms, ok := JSNumber(positionals[0]); ok {
		return WaitSpec{Kind: WaitSleep, DurationMs: jsInt(ms)}, nil
	}
	args := positionals
	var timeout *int
	if len(args) > 1 {
		if ms, ok := JSNumber(args[len(args)-1]); ok {
			v := jsInt(ms)
			timeout = &v
			args = args[:len(args)-1]
		}
	}
	switch p0 := args[0]; {
	case p0 == "text":
		return WaitSpec{Kind: WaitText, Text: strings.Join(args[1:], " "), TimeoutMs: timeout}, nil
	case p0 == "stable":
		w := WaitSpec{Kind: WaitStable}
		nums := positionals[1:]
		if len(nums) > 2 {
			return WaitSpec{}, targetError("wait stable accepts at most 2 arguments: [quietMs] [timeoutMs].")
		}
		for i, s := range nums {
			ms, ok := JSNumber(s)
			if !ok {
				return WaitSpec{}, targetError(`wait stable expects numbers: "` + s + `" is not a number of milliseconds.`)
			}
			v := jsInt(ms)
			if i == 0 {
				w.QuietMs = &v
			} else {
				w.TimeoutMs = &v
			}
		}
		return w, nil
	case strings.HasPrefix(p0, "@"):
		return WaitSpec{Kind: WaitRef, Ref: p0, TimeoutMs: timeout}, nil
	case p0 == "absent":
		rest := args[1:]
		if len(rest) == 0 {
			return WaitSpec{}, targetError("wait absent requires a selector: wait absent <selector> [ms].")
		}
		chain, n, ok := longestSelectorPrefix(rest)
		if !ok {
			return WaitSpec{}, targetError(targetParseFailure(rest))
		}
		if n < len(rest) {
			return WaitSpec{}, targetError(selectorTrailingFailure(chain, rest[:n], rest[n:]))
		}
		return WaitSpec{Kind: WaitAbsent, Selector: chain, TimeoutMs: timeout}, nil
	}
	if chain, n, ok := longestSelectorPrefix(args); ok && n == len(args) {
		return WaitSpec{Kind: WaitSelector, Selector: chain, TimeoutMs: timeout}, nil
	}
	return WaitSpec{Kind: WaitText, Text: strings.Join(args, " "), TimeoutMs: timeout}, nil
}

// jsInt truncates a finite float to an int, saturating at the int range.
func jsInt(f float64) int {
	f = math.Trunc(f)
	switch {
	case f >= 9e18:
		return math.MaxInt
	case f <= -9e18:
		return math.MinInt
	}
	return int(f)
}

// JSNumber converts a string with JavaScript Number() semantics and reports
// whether the result is finite: surrounding whitespace is ignored, the empty
// string is 0, decimal literals with optional sign and exponent (".5", "5.",
// "1e3"), and unsigned 0x/0o/0b integers are accepted; "Infinity", "NaN",
// "1_000", "12px" and signed hex are not finite numbers.
func JSNumber(s string) (float64, bool) {
	t := selTrim(s)
	if t == "" {
		return 0, true
	}
	if len(t) > 2 && t[0] == '0' {
		base := 0
		switch t[1] {
		case 'x', 'X':
			base = 16
		case 'o', 'O':
			base = 8
		case 'b', 'B':
			base = 2
		}
		if base != 0 {
			return parseRadix(t[2:], base)
		}
	}
	if !isDecimalLiteral(t) {
		return 0, false
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil {
		// Out of range: JavaScript gives ±Infinity (not finite) or 0 for underflow.
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange && math.Abs(f) < 1 {
			return f, true
		}
		return 0, false
	}
	return f, !math.IsInf(f, 0)
}

func parseRadix(digits string, base int) (float64, bool) {
	if digits == "" {
		return 0, false
	}
	f := 0.0
	for _, c := range digits {
		var d int
		switch {
		case c >= '0' && c <= '9':
			d = int(c - '0')
		case c >= 'a' && c <= 'f':
			d = int(c-'a') + 10
		case c >= 'A' && c <= 'F':
			d = int(c-'A') + 10
		default:
			return 0, false
		}
		if d >= base {
			return 0, false
		}
		f = f*float64(base) + float64(d)
	}
	return f, !math.IsInf(f, 0)
}

// isDecimalLiteral matches [+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?
func isDecimalLiteral(t string) bool {
	i := 0
	if i < len(t) && (t[i] == '+' || t[i] == '-') {
		i++
	}
	intDigits := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
		intDigits++
	}
	fracDigits := 0
	if i < len(t) && t[i] == '.' {
		i++
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i++
			fracDigits++
		}
	}
	if intDigits+fracDigits == 0 {
		return false
	}
	if i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		i++
		if i < len(t) && (t[i] == '+' || t[i] == '-') {
			i++
		}
		expDigits := 0
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i++
			expDigits++
		}
		if expDigits == 0 {
			return false
		}
	}
	return i == len(t)
}
