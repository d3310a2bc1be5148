package drivers

import (
	"encoding/base64"
	"encoding/json"
	"html"
	"net/url"
	"strings"
	"testing"
)

// TestMaskerMasksEncodedSecrets: the forms a secret takes through a page
// are masked wherever they stand (issue 36, item 3).
func TestMaskerMasksEncodedSecrets(t *testing.T) {
	t.Parallel()
	const secret = "P@ss w0rd/&Zq"
	m := NewMasker([]string{secret})
	jsonOf := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	for _, tc := range []struct{ name, text string }{
		{"encodeURIComponent", "GET /api?t=P%40ss%20w0rd%2F%26Zq HTTP/1.1"},
		{"lower-case hex", "t=P%40ss%20w0rd%2f%26Zq"},
		{"form encoding", "t=" + url.QueryEscape(secret) + "&x=1"},
		{"path escape", "/u/" + url.PathEscape(secret)},
		{"JSON", jsonOf(map[string]string{"password": secret})},
		{"JSON with HTML escapes", `{"p":"P@ss w0rd/\u0026Zq"}`},
		{"JSON with escaped slash", `{"p":"P@ss w0rd\/&Zq"}`},
		{"HTML", "<p>" + html.EscapeString(secret) + "</p>"},
		{"HTML text", "<p>P@ss w0rd/&amp;Zq</p>"},
		{"base64", "Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte("user:"+secret))},
		{"base64 aligned 0", base64.StdEncoding.EncodeToString([]byte(secret + "!"))},
		{"base64 aligned 1", base64.StdEncoding.EncodeToString([]byte("x" + secret))},
		{"base64 aligned 2", base64.StdEncoding.EncodeToString([]byte("xy" + secret + "tail"))},
		{"base64 URL-safe", "token=" + base64.RawURLEncoding.EncodeToString([]byte(`{"p":"`+secret+`"}`))},
	} {
		got := m.String(tc.text)
		if !strings.Contains(got, Mask) {
			t.Errorf("%s: %q kept the secret unmasked: %q", tc.name, tc.text, got)
		}
		if !m.Finds(tc.text) {
			t.Errorf("%s: Finds(%q) = false", tc.name, tc.text)
		}
	}
	// Nothing else is touched; a short secret has no encoded forms.
	if got := m.String("P%40ss w0rd"); got != "P%40ss w0rd" {
		t.Errorf("a text without the secret changed: %q", got)
	}
	short := NewMasker([]string{"a b"})
	if got := short.String("x=a%20b"); got != "x=a%20b" {
		t.Errorf("a short secret's encoding was masked: %q", got)
	}
	if got := NewMasker([]string{"abcd"}).String(base64.StdEncoding.EncodeToString([]byte("abcd"))); got != "YWJjZA==" {
		t.Errorf("a secret under %d bytes was looked for in base64: %q", Base64SecretLen, got)
	}
}
