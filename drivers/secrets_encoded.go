package drivers

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// A secret does not stay as typed on its way through a page: a script
// logs encodeURIComponent(v), a form posts it as a query, a page embeds it
// in JSON or HTML, a header carries it in base64. The masker masks these
// forms as it masks the value itself.

// Base64SecretLen: a secret of fewer bytes is not looked for in base64,
// where its few characters would not be distinctive.
const Base64SecretLen = 6

// base64Part: the shortest run of base64 characters looked for (a value
// inside a longer encoded text gives only the characters its own bytes
// fix).
const base64Part = 8

// encodedForms are the forms of the secret v other than v itself, for a
// secret of ShortSecretLen characters or more (a shorter one is masked only
// as a whole token, and its encodings would not be distinctive).
func encodedForms(v string) []string {
	if utf8.RuneCountInString(v) < ShortSecretLen {
		return nil
	}
	var out []string
	seen := map[string]bool{v: true}
	add := func(s string) {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	// URL: encodeURIComponent, encodeURI, form encoding (space as +),
	// each with upper- and lower-case hex digits.
	// A path segment's escape (RFC 3986 pchar) too.
	for _, keep := range []string{"-_.!~*'()", "-_.!~*'();/?:@&=+$,#", "-_.~", "-_.", "-_.~!$&'()*+,;=:@"} {
		for _, hex := range []string{"0123456789ABCDEF", "0123456789abcdef"} {
			add(percentEncode(v, keep, hex, false))
			add(percentEncode(v, keep, hex, true))
		}
	}
	// JSON: Go's (with and without HTML escapes), JSON.stringify's, and
	// with an escaped slash.
	for _, html := range []bool{true, false} {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(html)
		if enc.Encode(v) == nil {
			s := strings.TrimSuffix(b.String(), "\n")
			s = s[1 : len(s)-1]
			add(s)
			add(strings.ReplaceAll(s, "/", `\/`))
		}
	}
	// HTML: text (& < >), attributes (and " '), numeric or named quotes.
	for _, r := range []*strings.Replacer{
		strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;"),
		strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;"),
		strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;"),
		strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#x27;"),
		strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;", "\u00a0", "&nbsp;"),
	} {
		add(r.Replace(v))
	}
	if len(v) >= Base64SecretLen {
		for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
			for _, part := range base64Parts(enc, v) {
				add(part)
			}
		}
	}
	return out
}

// percentEncode escapes every byte of v but ASCII letters, digits and the
// bytes in keep, as %XX with the digits of hex; plus writes a space as +.
func percentEncode(v, keep, hex string, plus bool) string {
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', strings.IndexByte(keep, c) >= 0:
			b.WriteByte(c)
		case c == ' ' && plus:
			b.WriteByte('+')
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}

// base64Parts are the runs of characters that v's bytes alone fix in any
// base64 text holding v, one per alignment of v in the encoded bytes (0,
// 1 or 2 bytes before it in its group of three): the characters that mix
// in bytes before or after v are left out, so the run is found whatever
// surrounds v ("user:" + v, v + "\n").
func base64Parts(enc *base64.Encoding, v string) []string {
	var out []string
	for a := 0; a < 3; a++ {
		buf := make([]byte, a+len(v))
		copy(buf[a:], v)
		s := enc.EncodeToString(buf)
		skip := []int{0, 2, 3}[a]
		n := len(buf)
		end := n/3*4 + []int{0, 1, 2}[n%3]
		if end-skip >= base64Part {
			out = append(out, s[skip:end])
		}
	}
	return out
}
