// Package shellquote writes the commands adtest prints for a person to
// paste (a repair's `git apply`, `adtest show-report DIR`, a resume hint)
// so that a POSIX shell reads each argument back as one word, whatever a
// file name holds: a word of plain path characters is left as it is, any
// other word is put in single quotes, a single quote inside it written as
// quote, backslash, quote, quote.
package shellquote

import "strings"

// plain reports whether r may stand unquoted in a word: nothing a POSIX
// shell, bash or zsh gives a meaning to (no space, glob, quote, $, `, ;,
// &, |, <, >, (, ), {, }, ~, =, !, #, \).
func plain(r rune) bool {
	switch {
	case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		return true
	}
	return strings.ContainsRune("/._-+,:@%", r)
}

// Word is s as one shell word.
func Word(s string) string {
	if s == "" {
		return "''"
	}
	for _, r := range s {
		if !plain(r) {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}

// Join is the command line of args, each quoted as Word does.
func Join(args ...string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = Word(a)
	}
	return strings.Join(q, " ")
}
