package lang

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
)

// Per-command decoding of a script line's argument tokens (spec §1.6, §2.2
// Parse column, §2.4): flags from the command table, then the positional
// shaping rules of click/press, fill, get and the ref-pin stripping commands,
// then gesture/swipe arity.

const codeInvalidArgs = "INVALID_ARGS"

// decodeArgs fills a.Positionals, a.ArgPos, a.Flags, a.Runtime and a.RefLabel
// from a.Tokens. It returns an *Error for the parse-time argument errors. pos
// and argPos are empty with room for len(a.Tokens) entries (every token gives
// at most one positional); they become a.Positionals and a.ArgPos, so the
// parser hands out slices of one pool per script instead of two allocations
// per action.
func decodeArgs(a *Action, pos []string, argPos []Pos) *Error {
	spec, _ := LookupCommand(a.Command)
	toks := a.Tokens
	if a.Command == "open" {
		toks = openBoolFlags(a, spec, toks)
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		var f *FlagSpec
		if spec != nil && len(spec.Flags) > 0 && mayBeFlag(t.Value) {
			f, _ = spec.Flag(t.Value)
		}
		if f == nil {
			pos = append(pos, t.Value)
			argPos = append(argPos, t.Pos)
			continue
		}
		if f.Kind == FlagRetired {
			return &Error{Pos: t.Pos, Code: codeInvalidArgs, Message: f.Message}
		}
		if !f.TakesValue() {
			if f.Kind == FlagBool || f.Kind == FlagBoolFalse {
				a.setFlag(f, f.Kind == FlagBool)
			}
			continue
		}
		if i+1 >= len(toks) {
			switch f.Kind {
			case FlagPositiveInt:
				return positiveIntError(a, f, t)
			case FlagScale:
				return scaleError(a, f, t)
			case FlagSelector:
				return cropSelectorError(a, f, t)
			}
			// A value flag without a value stays a positional.
			pos = append(pos, t.Value)
			argPos = append(argPos, t.Pos)
			continue
		}
		v := toks[i+1]
		switch f.Kind {
		case FlagIgnored:
			i++
		case FlagString:
			a.setFlag(f, v.Value)
			i++
		case FlagEnum:
			for _, e := range f.Enum {
				if e == v.Value {
					a.setFlag(f, v.Value)
				}
			}
			i++
		case FlagInt:
			n, ok := JSNumber(v.Value)
			switch {
			case ok && n >= 0 && (v.Value != "" || a.Command == "snapshot"):
				a.setFlag(f, jsonNumber(math.Floor(n)))
				i++
			case a.Command == "snapshot":
				i++ // snapshot -d consumes a bad value too
			default:
				// The flag stays a positional; the value is read on its own.
				pos = append(pos, t.Value)
				argPos = append(argPos, t.Pos)
			}
		case FlagNumber:
			n, ok := JSNumber(v.Value)
			if !ok {
				pos = append(pos, t.Value, v.Value)
				argPos = append(argPos, t.Pos, v.Pos)
			} else {
				a.setFlag(f, jsonNumber(n))
			}
			i++
		case FlagIntOrDrop:
			if n, ok := JSNumber(v.Value); ok && n >= 0 && v.Value != "" {
				a.setFlag(f, jsonNumber(math.Floor(n)))
			}
			i++
		case FlagFloorOrDrop:
			if n, ok := JSNumber(v.Value); ok {
				a.setFlag(f, jsonNumber(math.Floor(n)))
			}
			i++
		case FlagQuality:
			if q := recordQuality(v.Value); q != "" {
				a.setFlag(f, q)
			}
			i++
		case FlagScale:
			n, ok := JSNumber(v.Value)
			if !ok || n < minScreenshotScale || n > 1 {
				return scaleError(a, f, t)
			}
			a.setFlag(f, jsonNumber(n))
			i++
		case FlagSelector:
			if v.Value == "" {
				return cropSelectorError(a, f, t)
			}
			a.setFlag(f, v.Value)
			i++
		case FlagPositiveInt:
			n, ok := JSNumber(v.Value)
			if !ok || n < 1 || n != math.Trunc(n) || strings.TrimSpace(v.Value) == "" {
				return positiveIntError(a, f, t)
			}
			a.setFlag(f, jsonNumber(n))
			i++
		}
	}
	if a.Command == "snapshot" {
		// Every other token of a snapshot line is silently ignored.
		pos, argPos = nil, nil
	}
	if pos == nil {
		pos, argPos = []string{}, []Pos{}
	}
	a.Positionals, a.ArgPos = pos, argPos
	shapePositionals(a)
	return checkArity(a)
}

// flagsAllDashed reports whether every flag spelling of the command table
// starts with '-' (read once, after the table's init).
var flagsAllDashed = sync.OnceValue(func() bool {
	for _, c := range Commands {
		for _, f := range c.Flags {
			for _, n := range f.Names {
				if !strings.HasPrefix(n, "-") {
					return false
				}
			}
		}
	}
	return true
})

// mayBeFlag reports whether a token can name a flag: only a token starting
// with '-' can, while the table spells every flag that way. It spares the
// table walk for the other tokens (most of them).
func mayBeFlag(tok string) bool {
	return strings.HasPrefix(tok, "-") || !flagsAllDashed()
}

// openBoolFlags takes open's boolean flags (--relaunch, --test-ime,
// --no-test-ime) out of toks wherever they stand, as agent-device reads them
// before the value flags: "--metro-host --relaunch h" sets relaunch and
// metroHost h. Only a line where such a flag follows a value flag needs it;
// for the others it returns toks itself (the main loop reads them the same).
func openBoolFlags(a *Action, spec *CommandSpec, toks []*Token) []*Token {
	isBool := func(f *FlagSpec) bool { return f.Kind == FlagBool || f.Kind == FlagBoolFalse }
	valueFlag, needed := false, false
	for _, t := range toks {
		if !mayBeFlag(t.Value) {
			continue
		}
		f, ok := spec.Flag(t.Value)
		switch {
		case !ok:
		case isBool(f) && valueFlag:
			needed = true
		case f.TakesValue():
			valueFlag = true
		}
	}
	if !needed {
		return toks
	}
	rest := make([]*Token, 0, len(toks))
	for _, t := range toks {
		if f, ok := spec.Flag(t.Value); ok && isBool(f) {
			a.setFlag(f, f.Kind == FlagBool)
			continue
		}
		rest = append(rest, t)
	}
	return rest
}

// minScreenshotScale is the smallest screenshot --scale (the largest is 1).
const minScreenshotScale = 0.01

// recordQuality maps a record --quality value to agent-device's level names:
// medium and high are kept, an integer (digits only) from 5 to 7 is medium and
// from 8 to 10 high; "" means the value is dropped.
func recordQuality(v string) string {
	if v == "medium" || v == "high" {
		return v
	}
	if v == "" || strings.TrimLeft(v, "0123456789") != "" {
		return ""
	}
	n, err := strconv.Atoi(v)
	switch {
	case err != nil || n < 5 || n > 10:
		return ""
	case n <= 7:
		return "medium"
	}
	return "high"
}

// jsonNumber is n as the goldens hold it: an int when it is whole.
func jsonNumber(n float64) any {
	if n == math.Trunc(n) && math.Abs(n) < 1<<53 {
		return int(n)
	}
	return n
}

func scaleError(a *Action, f *FlagSpec, t *Token) *Error {
	return &Error{Pos: t.Pos, Code: codeInvalidArgs, Message: fmt.Sprintf("%s %s requires a number from %v to 1", a.Command, f.Names[0], minScreenshotScale)}
}

func cropSelectorError(a *Action, f *FlagSpec, t *Token) *Error {
	return &Error{Pos: t.Pos, Code: codeInvalidArgs, Message: fmt.Sprintf("%s %s requires a selector expression", a.Command, f.Names[0])}
}

func positiveIntError(a *Action, f *FlagSpec, t *Token) *Error {
	return &Error{Pos: t.Pos, Code: codeInvalidArgs, Message: fmt.Sprintf("%s %s requires a positive integer", a.Command, f.Names[0])}
}

func (a *Action) setFlag(f *FlagSpec, v any) {
	if f.Key == "" {
		return
	}
	if f.Runtime {
		if a.Runtime == nil {
			a.Runtime = Flags{}
		}
		a.Runtime[f.Key] = v
		return
	}
	if a.Flags == nil {
		a.Flags = Flags{}
	}
	a.Flags[f.Key] = v
}

// stripPin removes a well-formed ~sG pin from a ref token (@eN~sG -> @eN).
// Malformed pins are left for the runtime to reject.
func stripPin(tok string) string { return plainRefOf(tok) }

func isRefToken(tok string) bool { return strings.HasPrefix(tok, "@") }

// isNumberToken is agent-device's test for click/fill coordinates: a
// non-empty token that Number() does not turn into NaN (so " " is 0, and
// Infinity or 1e400 count too).
func isNumberToken(tok string) bool {
	if tok == "" {
		return false
	}
	if _, ok := JSNumber(tok); ok {
		return true
	}
	t := selTrim(tok)
	return t == "Infinity" || t == "+Infinity" || t == "-Infinity" || isDecimalLiteral(t)
}

func joinFrom(a *Action, from int) {
	if from >= len(a.Positionals) {
		return
	}
	joined := strings.Join(a.Positionals[from:], " ")
	a.Positionals = append(a.Positionals[:from], joined)
	a.ArgPos = a.ArgPos[:from+1]
}

func setRefLabel(a *Action, label string) {
	l := label
	a.RefLabel = &l
}

// shapePositionals applies the per-command positional rules.
func shapePositionals(a *Action) {
	p := a.Positionals
	switch a.Command {
	case "click", "press":
		if len(p) == 0 {
			return
		}
		switch {
		case isRefToken(p[0]):
			p[0] = stripPin(p[0])
			if len(p) >= 2 {
				setRefLabel(a, p[1])
			}
			a.Positionals, a.ArgPos = p[:1], a.ArgPos[:1]
		case len(p) >= 2 && isNumberToken(p[0]) && isNumberToken(p[1]):
			a.Positionals, a.ArgPos = p[:2], a.ArgPos[:2]
		default:
			joinFrom(a, 0)
		}
	case "fill":
		if len(p) < 2 {
			return
		}
		switch {
		case isNumberToken(p[0]) && isNumberToken(p[1]):
			if len(p) == 2 { // x y and no text: the text is empty
				a.Positionals, a.ArgPos = append(p, ""), append(a.ArgPos, a.ArgPos[1])
				return
			}
			joinFrom(a, 2)
		case isRefToken(p[0]):
			p[0] = stripPin(p[0])
			if len(p) >= 3 {
				setRefLabel(a, p[1])
				a.Positionals = append(p[:1], strings.Join(p[2:], " "))
				a.ArgPos[1] = a.ArgPos[2]
				a.ArgPos = a.ArgPos[:2]
			}
		default:
			joinFrom(a, 1)
		}
	case "get":
		if len(p) < 2 {
			return
		}
		if isRefToken(p[1]) {
			p[1] = stripPin(p[1])
			if len(p) >= 3 {
				setRefLabel(a, p[2])
			}
			a.Positionals, a.ArgPos = p[:2], a.ArgPos[:2]
			return
		}
		joinFrom(a, 1)
	case "longpress", "wait", "hover":
		for i := range p {
			if isRefToken(p[i]) {
				p[i] = stripPin(p[i])
			}
		}
	}
}

// gestureArity is the parse-time arity of gesture sub-commands (spec §2.4).
type gestureArity struct {
	max     int
	usage   string // "at most 4 arguments: direction x y [distance]"
	retired string // name of the retired trailing slot, "" when none
}

var gestureArities = map[string]gestureArity{
	"pan":       {5, "at most 5 arguments: x y dx dy [durationMs]", ""},
	"fling":     {4, "at most 4 arguments: direction x y [distance]", "durationMs"},
	"swipe":     {1, "1 argument: preset", "durationMs"},
	"pinch":     {3, "at most 3 arguments: scale [x] [y]", ""},
	"rotate":    {3, "at most 3 arguments: degrees [x] [y]", "velocity"},
	"transform": {7, "at most 7 arguments: x y dx dy scale degrees [durationMs]", ""},
	"drag":      {5, "at most 5 arguments: source destination [sourceHoldMs] [moveMs] [destinationHoldMs]", ""},
}

// retiredSlot reports whether a token may fill a retired numeric slot: a
// finite number or a token starting with ${ (a variable).
func retiredSlot(tok string) bool {
	if TrimSpace(tok) == "" {
		return false
	}
	_, finite := JSNumber(tok)
	return finite || strings.HasPrefix(tok, "${")
}

// jsNumberString formats a finite f as JavaScript's Number#toString does:
// the shortest digits that round-trip, in plain notation for exponents from
// -7 to 20 and as 1.5e+21 / 1e-7 outside.
func jsNumberString(f float64) string {
	if f == 0 {
		return "0"
	}
	if a := math.Abs(f); a >= 1e-6 && a < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64) // the same digits, plain
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // [-]d[.ddd]e±XX
	sign := ""
	if e[0] == '-' {
		sign, e = "-", e[1:]
	}
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	n := x + 1 // position of the decimal point after the first digit
	k := len(digits)
	switch {
	case k <= n && n <= 21:
		return sign + digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return sign + digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return sign + "0." + strings.Repeat("0", -n) + digits
	}
	es := "+"
	if x < 0 {
		es, x = "-", -x
	}
	if k == 1 {
		return sign + digits + "e" + es + strconv.Itoa(x)
	}
	return sign + digits[:1] + "." + digits[1:] + "e" + es + strconv.Itoa(x)
}

func checkArity(a *Action) *Error {
	p := a.Positionals
	line := a.Pos.Line
	errAt := func(i int, msg string) *Error {
		pos := a.Pos
		if i < len(a.ArgPos) {
			pos = a.ArgPos[i]
		}
		return &Error{Pos: pos, Code: codeInvalidArgs, Message: msg}
	}
	switch a.Command {
	case "swipe":
		if len(p) <= 4 {
			return nil
		}
		msg := fmt.Sprintf("swipe accepts 4 arguments: x1 y1 x2 y2 (line %d).", line)
		if len(p) == 5 && retiredSlot(p[4]) {
			x1, ok1 := JSNumber(p[0])
			y1, ok2 := JSNumber(p[1])
			x2, ok3 := JSNumber(p[2])
			y2, ok4 := JSNumber(p[3])
			const tail = `" for the same timed drag, or "swipe %s %s %s %s" for a default-duration swipe.`
			if dx, dy := x2-x1, y2-y1; ok1 && ok2 && ok3 && ok4 && !math.IsInf(dx, 0) && !math.IsInf(dy, 0) {
				msg += fmt.Sprintf(` The trailing durationMs positional was removed: use "gesture pan %s %s %s %s %s`+tail,
					p[0], p[1], jsNumberString(dx), jsNumberString(dy), p[4], p[0], p[1], p[2], p[3])
			} else { // the deltas cannot be computed
				msg += fmt.Sprintf(` The trailing durationMs positional was removed: use "gesture pan x1 y1 dx dy durationMs`+tail, p[0], p[1], p[2], p[3])
			}
		}
		return errAt(4, msg)
	case "gesture":
		if len(p) == 0 {
			return nil
		}
		ar, ok := gestureArities[p[0]]
		args := p[1:]
		if !ok || len(args) <= ar.max {
			return nil
		}
		msg := fmt.Sprintf("gesture %s accepts %s (line %d).", p[0], ar.usage, line)
		if ar.retired != "" && len(args) == ar.max+1 && retiredSlot(args[ar.max]) {
			kept := strings.Join(p[:ar.max+1], " ")
			switch p[0] {
			case "rotate":
				msg += fmt.Sprintf(` The trailing velocity positional was removed: use "gesture %s"; rotation pacing derives from degrees.`, kept)
			default:
				msg += fmt.Sprintf(` The trailing %s positional was removed: use "gesture %s", or gesture pan for timed movement.`, ar.retired, kept)
			}
		}
		return errAt(1+ar.max, msg)
	}
	return nil
}
