package lang

import "errors"

// STUB (owned by the lang-values work): decoding of interaction targets and
// wait forms (spec §2.1, §2.3).

// InteractionTarget is a decoded click/fill/get/... target.
type InteractionTarget struct {
	Kind     string         // "ref", "point", "selector"
	Ref      string         // "@e3" (without pin)
	Pin      int            // generation of a pinned ref @e3~s42; 0 when plain
	Pinned   bool           // true when the input carried a ~sG pin
	Label    string         // optional trailing ref label
	X, Y     float64        // point
	Selector *SelectorChain // selector
	Raw      string         // the target text as written (joined)
	Rest     []string       // positionals after the target (fill text, longpress duration, ...)
}

// DecodeInteractionTarget decodes the target of an interaction command from
// its positionals.
func DecodeInteractionTarget(positionals []string) (*InteractionTarget, error) {
	return nil, errors.New("target decoding not implemented")
}

// WaitSpec is a decoded wait (spec §2.3).
type WaitSpec struct {
	Kind       string // "sleep", "text", "stable", "ref", "selector", "absent"
	DurationMs int    // sleep
	Text       string // text wait
	Ref        string // ref wait
	Selector   *SelectorChain
	TimeoutMs  *int // nil = default (10 000 ms)
	QuietMs    *int // stable
}

// DecodeWait decodes wait positionals.
func DecodeWait(positionals []string) (*WaitSpec, error) {
	return nil, errors.New("wait decoding not implemented")
}
