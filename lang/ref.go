package lang

import (
	"strconv"
	"strings"
)

// Ref is a snapshot ref: @eN, optionally pinned to the generation that
// minted it (@eN~sG). Scripts carry plain refs (the parser strips pins);
// interactive commands keep them so a stale ref is rejected precisely.
type Ref struct {
	N      int
	Pin    int64
	Pinned bool
}

// scanRef is the one grammar of a ref token: "@e" digits, optionally "~s"
// digits. It returns the digit strings.
func scanRef(tok string) (n, pin string, ok bool) {
	if len(tok) < 3 || tok[0] != '@' || tok[1] != 'e' {
		return "", "", false
	}
	i := 2
	for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
		i++
	}
	if i == 2 {
		return "", "", false
	}
	if i == len(tok) {
		return tok[2:], "", true
	}
	if i+2 >= len(tok) || tok[i] != '~' || tok[i+1] != 's' {
		return "", "", false
	}
	for j := i + 2; j < len(tok); j++ {
		if tok[j] < '0' || tok[j] > '9' {
			return "", "", false
		}
	}
	return tok[2:i], tok[i+2:], true
}

// ParseRefToken parses "@eN" or "@eN~sG". ok is false for anything else,
// including numbers that do not fit an int.
func ParseRefToken(tok string) (Ref, bool) {
	n, pin, ok := scanRef(tok)
	if !ok {
		return Ref{}, false
	}
	v, err := strconv.Atoi(n)
	if err != nil {
		return Ref{}, false
	}
	r := Ref{N: v}
	if pin != "" {
		g, err := strconv.ParseInt(pin, 10, 64)
		if err != nil || int64(int(g)) != g {
			return Ref{}, false
		}
		r.Pin, r.Pinned = g, true
	}
	return r, true
}

// String prints the ref as a command takes it: @eN, or @eN~sG when pinned.
func (r Ref) String() string {
	if r.Pinned {
		return r.Plain() + "~s" + strconv.FormatInt(r.Pin, 10)
	}
	return r.Plain()
}

// Plain prints the ref without its pin (@eN).
func (r Ref) Plain() string { return "@e" + strconv.Itoa(r.N) }

// IsRefToken reports a token that is a well-formed ref.
func IsRefToken(tok string) bool {
	_, ok := ParseRefToken(tok)
	return ok
}

// plainRefOf is the ref token without a well-formed pin (@eN~sG -> @eN);
// anything else is returned unchanged (malformed pins are left for the
// runtime to reject).
func plainRefOf(tok string) string {
	if _, pin, ok := scanRef(tok); ok && pin != "" {
		return strings.TrimSuffix(tok, "~s"+pin)
	}
	return tok
}
