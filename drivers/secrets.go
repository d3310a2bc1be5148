package drivers

import (
	"slices"
	"sort"
	"strings"
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

// Mask is what a secret value becomes in every report, log and artifact.
const Mask = "***"

// Masker is the one masker of every writer of text (console, JSON, JUnit
// and HTML reports, artifacts, timing, the recorder, the daemon's answers):
// it replaces secret values, and the forms they take through a page (URL-,
// JSON- and HTML-escaped, base64: encodedForms), with Mask and, when it was given variables,
// variable values with <var:NAME>. It replaces in one pass, longest value
// first, so a marker it wrote is never rewritten by another value (a secret
// "v" does not turn <var:A> into <***ar:A>), and masking twice changes
// nothing. A value shorter than ShortSecretLen is replaced only where it
// stands as a whole token (SecretAt): a one-letter secret leaves "Replay
// failed" alone.
//
// A nil *Masker masks nothing; NewMasker returns nil when it has nothing to
// mask, so an unmasked step costs no allocation.
type Masker struct {
	pairs   []maskPair // longest value first
	secrets []string   // secret values, longest first
}

type maskPair struct{ value, repl string }

// NewMasker masks secrets as Mask and the values of vars as <var:NAME>.
// When two sources give the same value, the first wins: the variables
// (a secret passed as a variable reads <var:NAME> in an action text), then
// the secrets; within one map, the first name in sorted order.
func NewMasker(secrets []string, vars ...map[string]string) *Masker {
	m := &Masker{}
	seen := map[string]bool{}
	add := func(v, repl string) {
		if v != "" && !seen[v] {
			seen[v] = true
			m.pairs = append(m.pairs, maskPair{v, repl})
		}
	}
	for _, vs := range vars {
		names := make([]string, 0, len(vs))
		for n := range vs {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			add(vs[n], "<var:"+n+">")
		}
	}
	for _, s := range secrets {
		if s != BlankPictures {
			add(s, Mask)
		}
	}
	// Then the forms a secret takes through a page (encodedForms).
	for _, s := range secrets {
		if s == BlankPictures {
			continue
		}
		for _, f := range encodedForms(s) {
			add(f, Mask)
		}
	}
	if len(m.pairs) == 0 && !slices.Contains(secrets, BlankPictures) {
		return nil
	}
	sort.SliceStable(m.pairs, func(i, j int) bool { return len(m.pairs[i].value) > len(m.pairs[j].value) })
	secretSeen := map[string]bool{}
	for _, s := range secrets {
		if s != "" && !secretSeen[s] {
			secretSeen[s] = true
			m.secrets = append(m.secrets, s)
		}
	}
	sort.SliceStable(m.secrets, func(i, j int) bool { return len(m.secrets[i]) > len(m.secrets[j]) })
	return m
}

// Values are the secret values, longest first (what a screenshot must not
// show: ScreenshotOptions.Mask).
func (m *Masker) Values() []string {
	if m == nil {
		return nil
	}
	return m.secrets
}

// String masks s.
func (m *Masker) String(s string) string {
	if m == nil || len(m.pairs) == 0 {
		return s
	}
	found := false
	for _, p := range m.pairs {
		if strings.Contains(s, p.value) {
			found = true
			break
		}
	}
	if !found {
		return s
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); {
		hit := false
		for _, p := range m.pairs {
			if strings.HasPrefix(s[i:], p.value) && SecretAt(s, i, p.value) {
				b.WriteString(s[last:i])
				b.WriteString(p.repl)
				i += len(p.value)
				last, hit = i, true
				break
			}
		}
		if !hit {
			_, size := utf8.DecodeRuneInString(s[i:])
			i += size
		}
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// Strings masks each of ss into a new slice (ss itself when nothing is
// masked).
func (m *Masker) Strings(ss []string) []string {
	if m == nil || len(m.pairs) == 0 {
		return ss
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = m.String(s)
	}
	return out
}

// Bytes masks b.
func (m *Masker) Bytes(b []byte) []byte {
	if m == nil || len(m.pairs) == 0 {
		return b
	}
	return []byte(m.String(string(b)))
}

// Masks reports whether String would change s: a value to mask stands
// in it where it is masked.
func (m *Masker) Masks(s string) bool {
	return m != nil && m.String(s) != s
}

// Finds reports whether s holds a value to mask anywhere, even inside a
// word where String would leave a short one alone: the test of a writer
// that must refuse a text rather than mask it (the recorder).
func (m *Masker) Finds(s string) bool {
	if m == nil {
		return false
	}
	for _, p := range m.pairs {
		if strings.Contains(s, p.value) {
			return true
		}
	}
	return false
}

// Snapshot returns a copy of snap with its texts masked (snap itself when
// nothing is masked).
func (m *Masker) Snapshot(snap *Snapshot) *Snapshot {
	if m == nil || len(m.pairs) == 0 || snap == nil {
		return snap
	}
	c := *snap
	c.URL, c.Title = m.String(c.URL), m.String(c.Title)
	c.Nodes = make([]Node, len(snap.Nodes))
	for i, n := range snap.Nodes {
		n.Label, n.ID, n.Text, n.Value = m.String(n.Label), m.String(n.ID), m.String(n.Text), m.String(n.Value)
		c.Nodes[i] = n
	}
	return &c
}
