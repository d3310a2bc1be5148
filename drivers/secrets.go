package drivers

import (
	"unicode"
	"unicode/utf8"
)

// ShortSecretLen: a secret value with fewer characters is masked only where
// it stands as a whole token, not inside other words: a one-letter secret
// "e" would otherwise turn every report line into "R***play fail***d".
const ShortSecretLen = 4

// SecretAt reports whether the secret v occurring in s at byte i is to be
// masked there: always for a secret of ShortSecretLen characters or more; a
// shorter one only when no letter, digit, '_' or '*' (the mask's own
// character, so two masks never merge) touches it on either side.
func SecretAt(s string, i int, v string) bool {
	if utf8.RuneCountInString(v) >= ShortSecretLen {
		return true
	}
	word := func(r rune) bool { return r == '_' || r == '*' || unicode.IsLetter(r) || unicode.IsDigit(r) }
	if i > 0 {
		if r, _ := utf8.DecodeLastRuneInString(s[:i]); word(r) {
			return false
		}
	}
	if j := i + len(v); j < len(s) {
		if r, _ := utf8.DecodeRuneInString(s[j:]); word(r) {
			return false
		}
	}
	return true
}
