package lang

import "errors"

// STUB (owned by the lang-values work): ParseSelectorChain parses a selector
// expression (spec §3.1). Errors are *Error with agent-device's messages.
func ParseSelectorChain(expr string) (*SelectorChain, error) {
	return nil, errors.New("selector parsing not implemented")
}

// LooksLikeSelector reports whether a token is selector-looking: "||", a known
// key, or key=... with a known key (spec §2.1).
func LooksLikeSelector(tok string) bool { return false }
