package lang

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Typed arguments: each command's positionals bound into a value (spec
// §2.1-§2.4). Bind is the one reader of positionals: the checker, the
// runner's verification and leaves, the recorder, the daemon and the
// printer's ref-label slot all read the bound value (and its positions),
// never the raw strings; the decoders are unexported, so the compiler keeps
// it so. Nothing is cached on the AST: check binds each action for its
// diagnostics, the runner binds each step after interpolation. Bind never
// touches a device: it reports what is wrong with the arguments themselves,
// with the runner's wording (and, for check, which part failed and where).

// Args is the bound value of one action's positionals; its dynamic type
// depends on the command (TargetArgs, GetArgs, IsArgs, ...).
type Args interface{ isArgs() }

// TargetKind says how a target is given.
type TargetKind string

const (
	TargetRef      TargetKind = "ref"
	TargetPoint    TargetKind = "point"
	TargetSelector TargetKind = "selector"
)

// Target is an interaction target: a ref, a point or a selector chain.
type Target struct {
	Kind TargetKind
	// Ref is the ref (RefOK false: the token starts with @ but is not a
	// well-formed ref; admission rejects it with the text in Raw).
	Ref   Ref
	RefOK bool
	X, Y  float64
	// Selector is the chain of a selector target.
	Selector *SelectorChain
	// Raw is the target as written (a point as "x y").
	Raw string
	// Pos is where the target starts in the script (the action's position
	// when it was not parsed from one).
	Pos Pos
}

// TargetArgs are the arguments of click, press, focus, hover, longpress and
// fill: the target, then fill's text or longpress's duration.
type TargetArgs struct {
	Target Target
	// Label is a ref's trailing label (click @e3 "Sign in"); HasLabel tells
	// an empty label from none.
	Label    string
	HasLabel bool
	// Text is fill's text.
	Text string
	// DurationMs is longpress's duration (HasDuration false: the default).
	DurationMs  float64
	HasDuration bool
	// Tail are the positionals written after the target that a rewrite of
	// the target keeps (the recorder's selector, the repair's new line):
	// fill's text as one positional, longpress's duration as written; nil
	// when nothing follows the target.
	Tail []string
}

// GetArgs are `get text|attrs <target>`.
type GetArgs struct {
	Sub    string // "text" or "attrs"
	Target Target
}

// IsArgs are `is <predicate> <selector> [value]` (the two first words may
// come in either order).
type IsArgs struct {
	Predicate string
	Selector  *SelectorChain
	// SelectorText is the selector as written (for messages), at SelectorPos.
	SelectorText string
	SelectorPos  Pos
	Value        string
}

// WaitArgs are a decoded wait; Ref is set for a ref wait.
type WaitArgs struct {
	WaitSpec
	Ref   Ref
	RefOK bool
	// Written are the positionals as given (for messages about a text wait
	// that may have meant a selector), the first one at Pos.
	Written []string
	Pos     Pos
	// Tail are the positionals written after a ref wait's ref (its timeout),
	// which a rewrite of the ref keeps; nil for the other forms.
	Tail []string
}

// FindArgs are `find [locator] <query> [action [value...]]`.
type FindArgs struct {
	Locator string // "" or text|label|value|role|id
	Query   string
	// Selector is set when the query is a selector chain (no locator and the
	// query holds = or ||).
	Selector *SelectorChain
	Action   string   // default "click"
	Rest     []string // after the action: fill/type text, get's sub-command, wait's timeout
	// TimeoutMs is `find ... wait <ms>` (HasTimeout false: the default).
	TimeoutMs  float64
	HasTimeout bool
}

// ScrollArgs are `scroll <direction> [amount] [--until selector]`.
type ScrollArgs struct {
	Direction string
	Amount    float64 // 0: the driver's default
	Until     *SelectorChain
}

// Point is a point of a gesture or a swipe.
type Point struct{ X, Y float64 }

// SwipeArgs are `swipe x1 y1 x2 y2`.
type SwipeArgs struct{ From, To Point }

// GestureArgs are `gesture <kind> ...` for the kinds the runner performs
// (pan and fling); any other kind is bound with its name only.
type GestureArgs struct {
	Kind string
	// pan: From and (DX, DY), DurationMs when given.
	From        Point
	DX, DY      float64
	DurationMs  float64
	HasDuration bool
	// fling: Direction, From, Distance when given.
	Direction   string
	Distance    float64
	HasDistance bool
}

// SubArgs are a sub-command and what follows it (keyboard, alert, diff).
type SubArgs struct {
	Sub  string
	Rest []string
	// Ms is the first number after the sub-command (alert wait <ms>).
	Ms    float64
	HasMs bool
}

// ViewportArgs are `viewport <w> <h>`.
type ViewportArgs struct{ Width, Height float64 }

// OpenArgs are `open [app|url] [url]`.
type OpenArgs struct{ Target, URL string }

// SnapshotArgs carry a snapshot's ref scope (-s @ref), when it has one.
type SnapshotArgs struct {
	ScopeIsRef bool
	ScopeRef   Ref
	ScopeRefOK bool
}

// TextArgs are free text (type, screenshot's path).
type TextArgs struct{ Text string }

// NoArgs is the bound value of commands whose positionals mean nothing here.
type NoArgs struct{}

func (TargetArgs) isArgs()   {}
func (GetArgs) isArgs()      {}
func (IsArgs) isArgs()       {}
func (WaitArgs) isArgs()     {}
func (FindArgs) isArgs()     {}
func (ScrollArgs) isArgs()   {}
func (SwipeArgs) isArgs()    {}
func (GestureArgs) isArgs()  {}
func (SubArgs) isArgs()      {}
func (ViewportArgs) isArgs() {}
func (OpenArgs) isArgs()     {}
func (SnapshotArgs) isArgs() {}
func (TextArgs) isArgs()     {}
func (NoArgs) isArgs()       {}

// binder binds one command's positionals.
type binder func(a *Action) (Args, *Error)

// binders is the bind table, built with addBinder (a panic at start-up for
// a command the registry does not know, or a second binder).
var binders = map[string]binder{}

func addBinder(b binder, commands ...string) {
	for _, c := range commands {
		known := false
		for _, spec := range commandTable { // registry.go's init may not have run yet
			known = known || spec.Name == c
		}
		if !known {
			panic(fmt.Sprintf("lang: binder for %q, which Commands does not know", c))
		}
		if _, dup := binders[c]; dup {
			panic(fmt.Sprintf("lang: two binders for %q", c))
		}
		binders[c] = b
	}
}

// refLabelSlot is the index of the positional an action's ref label follows
// (-1: none): the command's LabelAfter trait.
func refLabelSlot(a *Action) int {
	if a.RefLabel == nil {
		return -1
	}
	return TraitsOf(a.Command).LabelAfter
}

func init() {
	addBinder(bindTouch, "click", "press", "focus", "hover")
	addBinder(bindLongPress, "longpress")
	addBinder(bindFill, "fill")
	addBinder(bindGet, "get")
	addBinder(bindIs, "is")
	addBinder(bindWait, "wait")
	addBinder(bindFind, "find")
	addBinder(bindScroll, "scroll")
	addBinder(bindSwipe, "swipe")
	addBinder(bindGesture, "gesture")
	addBinder(bindSub("status"), "keyboard")
	addBinder(bindSub("get"), "alert")
	addBinder(bindSub(""), "diff", "settings")
	addBinder(bindViewport, "viewport")
	addBinder(bindOpen, "open")
	addBinder(bindSnapshot, "snapshot")
	addBinder(bindText, "type", "screenshot")
}

// Bind decodes an action's positionals (already interpolated) into its
// typed arguments. Commands without a binder bind to NoArgs.
func Bind(a *Action) (Args, error) {
	args, err := bindArgs(a)
	if err != nil {
		return nil, err
	}
	return args, nil
}

// bindArgs is Bind with its error typed (check reads the failed part).
func bindArgs(a *Action) (Args, *Error) {
	bind, ok := binders[a.Command]
	if !ok {
		return NoArgs{}, nil
	}
	return bind(a)
}

// NamedRef returns the element ref bound arguments name (a ref target or a
// ref wait, well-formed) as written, and where it is written.
func NamedRef(args Args) (string, Pos, bool) {
	var t Target
	switch v := args.(type) {
	case TargetArgs:
		t = v.Target
	case GetArgs:
		t = v.Target
	case WaitArgs:
		return v.WaitSpec.Ref, v.Pos, v.Kind == WaitRef && v.RefOK
	default:
		return "", Pos{}, false
	}
	return t.Raw, t.Pos, t.Kind == TargetRef && t.RefOK
}

// HasVariables reports whether an action's positionals, flags or runtime
// hints hold a '$' (a ${VAR} the runner resolves before the step runs).
func HasVariables(a *Action) bool {
	for _, p := range a.Positionals {
		if strings.Contains(p, "$") {
			return true
		}
	}
	for _, f := range []Flags{a.Flags, a.Runtime} {
		for _, v := range f {
			if s, ok := v.(string); ok && strings.Contains(s, "$") {
				return true
			}
		}
	}
	if a.RefLabel != nil && strings.Contains(*a.RefLabel, "$") {
		return true
	}
	return false
}

func argError(format string, args ...any) *Error {
	return &Error{Code: codeInvalidArgs, Message: fmt.Sprintf(format, args...)}
}

// bindPart says which part of an action's arguments a Bind error is about,
// so that check reports it under that part's rule (a usage error is left to
// check's arity rule).
type bindPart uint8

const (
	partUsage    bindPart = iota
	partTarget            // an interaction target (rule "target")
	partSelector          // a selector argument or flag value (rule "selector")
	partWait              // a wait form (rule "wait")
	partIsRef             // a ref given to is (rule "target")
)

// about marks a Bind error with its part and the positionals it is about.
func (e *Error) about(part bindPart, args []string, pos []Pos) *Error {
	e.part, e.args, e.argPos = part, args, pos
	return e
}

// posAt is the position of positional i (the action's when it has none).
func posAt(a *Action, i int) Pos {
	if i >= 0 && i < len(a.ArgPos) {
		return a.ArgPos[i]
	}
	return a.Pos
}

// posFrom are the positions of the positionals from i on.
func posFrom(a *Action, i int) []Pos {
	if i >= 0 && i <= len(a.ArgPos) {
		return a.ArgPos[i:]
	}
	return nil
}

// valueFlagPos is the position of the value of the action's string flag
// (scroll --until); the action's position when there is none.
func valueFlagPos(a *Action) Pos {
	for j, t := range a.Tokens {
		if t.Quoted == 0 && chkLooksLikeFlag(t.Raw) && j+1 < len(a.Tokens) {
			if f, ok := LookupFlag(a.Command, t.Raw); ok && f.Kind == FlagString {
				return a.Tokens[j+1].Pos
			}
		}
	}
	return a.Pos
}

// bindTarget decodes the target at positional base of p (the action's
// positionals from base on), followed by trailing command positionals.
func bindTarget(a *Action, p []string, base, trailing int) (Target, []string, *Error) {
	it, err := decodeTarget(p, TargetOptions{Trailing: trailing})
	if err != nil {
		return Target{}, nil, err.about(partTarget, p, posFrom(a, base))
	}
	t := Target{Kind: it.Kind, Raw: it.Raw, X: it.X, Y: it.Y, Selector: it.Selector, Pos: posAt(a, base)}
	if t.Kind == TargetRef {
		t.Ref, t.RefOK = ParseRefToken(it.Raw)
	}
	return t, it.Rest, nil
}

func bindTouch(a *Action) (Args, *Error) {
	t, _, err := bindTarget(a, a.Positionals, 0, 0)
	if err != nil {
		return nil, err
	}
	args := TargetArgs{Target: t}
	if a.RefLabel != nil {
		args.Label, args.HasLabel = *a.RefLabel, true
	}
	return args, nil
}

func bindLongPress(a *Action) (Args, *Error) {
	pos := a.Positionals
	args := TargetArgs{DurationMs: 800}
	if len(pos) > 1 {
		if ms, ok := JSNumber(pos[len(pos)-1]); ok {
			// the last numeric positional is the duration, unless it is a point's y
			if it, err := decodeTarget(pos, TargetOptions{}); err != nil || it.Kind != TargetPoint || len(it.Rest) > 0 {
				args.DurationMs, args.HasDuration = ms, true
				args.Tail = pos[len(pos)-1:]
				pos = pos[:len(pos)-1]
			}
		}
	}
	t, _, err := bindTarget(a, pos, 0, 0)
	if err != nil {
		return nil, err
	}
	args.Target = t
	return args, nil
}

func bindFill(a *Action) (Args, *Error) {
	if len(a.Positionals) < 2 {
		return nil, argError("fill requires a target and text: fill <target> <text>")
	}
	t, rest, err := bindTarget(a, a.Positionals, 0, 1)
	if err != nil {
		return nil, err
	}
	text := strings.Join(rest, " ")
	args := TargetArgs{Target: t, Text: text, Tail: []string{text}}
	if a.RefLabel != nil {
		args.Label, args.HasLabel = *a.RefLabel, true
	}
	return args, nil
}

func bindGet(a *Action) (Args, *Error) {
	p := a.Positionals
	if len(p) < 2 || (p[0] != "text" && p[0] != "attrs") {
		return nil, argError("get requires text|attrs and a target: get text <target>")
	}
	t, _, err := bindTarget(a, p[1:], 1, 0)
	if err != nil {
		return nil, err
	}
	return GetArgs{Sub: p[0], Target: t}, nil
}

// IsPredicates are the predicates of is.
var IsPredicates = map[string]bool{"visible": true, "hidden": true, "exists": true, "editable": true, "selected": true, "focused": true, "text": true, "absent": true}

func bindIs(a *Action) (Args, *Error) {
	p := a.Positionals
	if len(p) < 2 {
		return nil, argError("is requires a predicate and a selector: is <predicate> <selector> [value]")
	}
	pred, selText, rest, at := p[0], p[1], p[2:], 1
	if !IsPredicates[pred] && IsPredicates[p[1]] {
		pred, selText, at = p[1], p[0], 0
	}
	if !IsPredicates[pred] {
		return nil, argError("Unknown predicate %q. Supported: visible, hidden, exists, editable, selected, focused, text, absent", pred)
	}
	if strings.HasPrefix(selText, "@") {
		return nil, argError("is does not accept refs; use a selector").about(partIsRef, p[at:at+1], posFrom(a, at))
	}
	chain, err := ParseSelectorChain(selText)
	if err != nil {
		return nil, err.(*Error).about(partSelector, p[at:at+1], posFrom(a, at))
	}
	return IsArgs{Predicate: pred, Selector: chain, SelectorText: selText, SelectorPos: posAt(a, at), Value: strings.Join(rest, " ")}, nil
}

func bindWait(a *Action) (Args, *Error) {
	w, err := decodeWait(a.Positionals)
	if err != nil {
		return nil, err.about(partWait, a.Positionals, posFrom(a, 0))
	}
	args := WaitArgs{WaitSpec: w, Written: a.Positionals, Pos: posAt(a, 0)}
	if w.Kind == WaitRef {
		args.Ref, args.RefOK = ParseRefToken(w.Ref)
		args.Tail = a.Positionals[1:]
	}
	return args, nil
}

func bindFind(a *Action) (Args, *Error) {
	p := a.Positionals
	args := FindArgs{Action: "click"}
	if len(p) >= 2 && findLocators[p[0]] {
		args.Locator, p = p[0], p[1:]
	}
	if len(p) == 0 {
		return nil, argError("find requires a query: find [text|label|value|role|id] <query> [action]")
	}
	args.Query, p = p[0], p[1:]
	if len(p) > 0 {
		args.Action, p = p[0], p[1:]
	}
	args.Rest = p
	if args.Locator == "" && (strings.Contains(args.Query, "=") || strings.Contains(args.Query, "||")) {
		chain, err := ParseSelectorChain(args.Query)
		if err != nil {
			return nil, err.(*Error)
		}
		args.Selector = chain
	}
	if args.Action == "wait" && len(p) > 0 {
		if ms, ok := JSNumber(p[0]); ok {
			args.TimeoutMs, args.HasTimeout = ms, true
		}
	}
	return args, nil
}

// ScrollDirections are the directions of scroll (and of gesture fling, but
// for top and bottom).
var ScrollDirections = map[string]bool{"up": true, "down": true, "left": true, "right": true, "top": true, "bottom": true}

func bindScroll(a *Action) (Args, *Error) {
	p := a.Positionals
	if len(p) == 0 || !ScrollDirections[p[0]] {
		return nil, argError("scroll requires a direction: up, down, left, right, top or bottom")
	}
	args := ScrollArgs{Direction: p[0]}
	if len(p) > 1 {
		v, ok := JSNumber(p[1])
		if !ok || v <= 0 {
			return nil, argError("scroll amount must be a positive viewport fraction, got %q", p[1])
		}
		args.Amount = v
	}
	if until, ok := a.Flags.String("scrollUntil"); ok {
		chain, err := ParseSelectorChain(until)
		if err != nil {
			return nil, err.(*Error).about(partSelector, []string{until}, []Pos{valueFlagPos(a)})
		}
		args.Until = chain
	}
	return args, nil
}

// finite parses the first n positionals as finite numbers.
func finite(ps []string, n int) ([]float64, bool) {
	if len(ps) < n {
		return nil, false
	}
	out := make([]float64, n)
	for i := 0; i < n; i++ {
		v, ok := JSNumber(ps[i])
		if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

func bindSwipe(a *Action) (Args, *Error) {
	v, ok := finite(a.Positionals, 4)
	if !ok || len(a.Positionals) != 4 {
		return nil, argError("swipe requires x1 y1 x2 y2")
	}
	return SwipeArgs{From: Point{v[0], v[1]}, To: Point{v[2], v[3]}}, nil
}

func bindGesture(a *Action) (Args, *Error) {
	if len(a.Positionals) == 0 {
		return nil, argError("gesture requires a kind: pan, fling, swipe, pinch, rotate, transform or drag")
	}
	sub, p := a.Positionals[0], a.Positionals[1:]
	args := GestureArgs{Kind: sub}
	switch sub {
	case "pan":
		v, ok := finite(p, 4)
		if !ok {
			return nil, argError("gesture pan requires x y dx dy [ms]")
		}
		args.From, args.DX, args.DY = Point{v[0], v[1]}, v[2], v[3]
		if len(p) > 4 {
			ms, ok := JSNumber(p[4])
			if !ok || ms < 0 {
				return nil, argError("gesture pan duration must be milliseconds, got %q", p[4])
			}
			args.DurationMs, args.HasDuration = ms, true
		}
	case "fling":
		if len(p) < 3 || !ScrollDirections[p[0]] {
			return nil, argError("gesture fling requires up|down|left|right x y [distance]")
		}
		v, ok := finite(p[1:], 2)
		if !ok {
			return nil, argError("gesture fling requires numeric x y")
		}
		args.Direction, args.From = p[0], Point{v[0], v[1]}
		if len(p) > 3 {
			d, ok := JSNumber(p[3])
			if !ok {
				return nil, argError("gesture fling distance must be a number, got %q", p[3])
			}
			args.Distance, args.HasDistance = d, true
		}
	}
	return args, nil
}

func bindSub(def string) binder {
	return func(a *Action) (Args, *Error) {
		args := SubArgs{Sub: def}
		if len(a.Positionals) > 0 {
			args.Sub, args.Rest = a.Positionals[0], a.Positionals[1:]
		}
		if len(args.Rest) > 0 {
			if ms, ok := JSNumber(args.Rest[0]); ok {
				args.Ms, args.HasMs = ms, true
			}
		}
		return args, nil
	}
}

func bindViewport(a *Action) (Args, *Error) {
	v, ok := finite(a.Positionals, 2)
	if !ok || v[0] <= 0 || v[1] <= 0 {
		return nil, argError("viewport requires a positive width and height")
	}
	return ViewportArgs{Width: v[0], Height: v[1]}, nil
}

func bindOpen(a *Action) (Args, *Error) {
	var args OpenArgs
	if len(a.Positionals) > 0 {
		args.Target = a.Positionals[0]
	}
	if len(a.Positionals) > 1 {
		args.URL = a.Positionals[1]
	}
	return args, nil
}

func bindSnapshot(a *Action) (Args, *Error) {
	var args SnapshotArgs
	if sc, ok := a.Flags.String("snapshotScope"); ok && strings.HasPrefix(sc, "@") {
		args.ScopeIsRef = true
		args.ScopeRef, args.ScopeRefOK = ParseRefToken(sc)
	}
	return args, nil
}

func bindText(a *Action) (Args, *Error) {
	if a.Command == "screenshot" {
		if len(a.Positionals) > 0 {
			return TextArgs{Text: a.Positionals[0]}, nil
		}
		return TextArgs{}, nil
	}
	return TextArgs{Text: strings.Join(a.Positionals, " ")}, nil
}

// Texts of failure messages (REPLAY_DIVERGENCE).

// ActionLabel renders `<command> <positionals>` for failure messages: plain
// refs and numbers bare, everything else JSON-quoted, typed text as <text>.
func ActionLabel(a *Action) string {
	parts := []string{a.Command}
	// Leading keywords (`wait text`, `is selected`) bare, as fmt writes them.
	keywords := !prTextCommands[a.Command]
	for i, p := range a.Positionals {
		switch {
		case a.Command == "type", a.Command == "fill" && i == len(a.Positionals)-1 && len(a.Positionals) > 1:
			parts = append(parts, "<text>")
			continue
		}
		if keywords && prKeywordRe.MatchString(p) && prBareSafe(p) {
			parts = append(parts, p)
			continue
		}
		keywords = false
		if _, _, _, ok := parseRef(p); ok {
			parts = append(parts, p)
		} else if _, ok := JSNumber(p); ok {
			parts = append(parts, p)
		} else {
			parts = append(parts, strconv.Quote(p))
		}
	}
	return strings.Join(parts, " ")
}

// FailedTargetText extracts what the failed step was looking for, for
// suggestions: selector values, a ref's label, or the text itself.
func FailedTargetText(a *Action) string {
	var words []string
	for _, p := range a.Positionals {
		if f := strings.Fields(p); len(f) == 0 {
			continue
		} else if chain, err := ParseSelectorChain(p); err == nil && LooksLikeSelector(f[0]) {
			for _, seg := range chain.Segments {
				for _, t := range seg.Terms {
					if !t.IsBool && t.Key != "role" {
						words = append(words, t.Value)
					}
				}
			}
			continue
		}
		if strings.HasPrefix(p, "@") {
			continue
		}
		words = append(words, p)
	}
	if a.RefLabel != nil {
		words = append(words, *a.RefLabel)
	}
	return strings.Join(words, " ")
}
