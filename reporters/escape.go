package reporters

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// EscapeControl makes s safe to print on a terminal: control characters (C0
// with newline and tab, DEL, C1) and bytes that are not UTF-8 are written as
// Go escapes (\x1b, \u009b), so a file named "\x1b]0;pwned\a.ad" cannot move
// the cursor, set the title or fake an output line. Names and paths go
// through it; text that may span lines goes through EscapeText.
func EscapeControl(s string) string { return escape(s, false) }

// EscapeText is EscapeControl keeping newlines and tabs.
func EscapeText(s string) string { return escape(s, true) }

func escape(s string, keepLines bool) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case keepLines && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && r <= 0x9f:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
