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
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		var f *FlagSpec
		if spec != nil && len(spec.Flags) > 0 && !(a.Command == "type" && t.Quoted != 0) && mayBeFlag(t.Value) {
			f, _ = spec.Flag(t.Value)
		}
		if f == nil {
			pos = append(pos, t.Value)
			argPos = append(argPos, t.Pos)
			continue
		}
		if f.Kind == FlagRetired {
			return &Error{Pos: t.Pos, Code: codeInvalidArgs, Message: fmt.Sprintf("%s (line %d).", f.Message, a.Pos.Line)}
		}
		if !f.TakesValue() {
			if f.Kind == FlagBool {
				a.setFlag(f, true)
			}
			continue
		}
		if i+1 >= len(toks) {
			if f.Kind == FlagPositiveInt {
				return positiveIntError(a, f, t)
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
			if !ok || n < 0 {
				pos = append(pos, t.Value, v.Value)
				argPos = append(argPos, t.Pos, v.Pos)
			} else {
				a.setFlag(f, int(math.Floor(n)))
			}
			i++
		case FlagNumber:
			n, ok := JSNumber(v.Value)
			if !ok {
				pos = append(pos, t.Value, v.Value)
				argPos = append(argPos, t.Pos, v.Pos)
			} else if n == math.Trunc(n) && math.Abs(n) < 1<<53 {
				a.setFlag(f, int(n))
			} else {
				a.setFlag(f, n)
			}
			i++
		case FlagIntOrDrop:
			if n, ok := JSNumber(v.Value); ok && n >= 0 && n == math.Trunc(n) && strings.TrimSpace(v.Value) != "" {
				a.setFlag(f, int(n))
			}
			i++
		case FlagPositiveInt:
			n, ok := JSNumber(v.Value)
			if !ok || n < 1 || n != math.Trunc(n) || strings.TrimSpace(v.Value) == "" {
				return positiveIntError(a, f, t)
			}
			a.setFlag(f, int(n))
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

func isNumberToken(tok string) bool {
	if strings.TrimSpace(tok) == "" {
		return false
	}
	_, ok := JSNumber(tok)
	return ok
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
		case len(p) >= 3 && isNumberToken(p[0]) && isNumberToken(p[1]):
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
// number or a ${...} variable.
func retiredSlot(tok string) bool {
	if isNumberToken(tok) {
		return true
	}
	return strings.HasPrefix(tok, "${") && strings.HasSuffix(tok, "}")
}

func jsNumberString(f float64) string {
	if f == 0 {
		return "0"
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
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
			if ok1 && ok2 && ok3 && ok4 {
				msg += fmt.Sprintf(` The trailing durationMs positional was removed: use "gesture pan %s %s %s %s %s" for the same timed drag, or "swipe %s %s %s %s" for a default-duration swipe.`,
					p[0], p[1], jsNumberString(x2-x1), jsNumberString(y2-y1), p[4], p[0], p[1], p[2], p[3])
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
