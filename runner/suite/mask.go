package suite

import (
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner"
)

// Mask is what a secret value becomes in every report, log and artifact.
const Mask = "***"

// IsSecretName reports whether a variable name looks secret: it contains
// SECRET, TOKEN, PASSWORD or KEY (case-insensitive).
func IsSecretName(name string) bool { return lang.IsSecretName(name) }

// Masker replaces secret values with Mask. A value of drivers.ShortSecretLen
// characters or more is masked wherever it occurs; a shorter one only where
// it stands as a whole token (drivers.SecretAt), so that a one-letter secret
// does not turn "Replay failed" into "R***play fail***d", and a mask is never
// masked again into a longer run of stars.
type Masker struct {
	r      *strings.Replacer
	short  []string // values shorter than drivers.ShortSecretLen, longest first
	values []string
}

// NewMasker masks every non-empty value, longest first so that a secret that
// contains another is masked whole.
func NewMasker(values []string) *Masker {
	vs := append([]string(nil), values...)
	sort.SliceStable(vs, func(i, j int) bool { return len(vs[i]) > len(vs[j]) })
	m := &Masker{}
	var pairs []string
	seen := map[string]bool{}
	for _, v := range vs {
		if v == "" || seen[v] {
			continue
		}
		seen[v] = true
		m.values = append(m.values, v)
		if utf8.RuneCountInString(v) < drivers.ShortSecretLen {
			m.short = append(m.short, v)
			continue
		}
		pairs = append(pairs, v, Mask)
	}
	if len(pairs) > 0 {
		m.r = strings.NewReplacer(pairs...)
	}
	return m
}

// Values are the secret values, longest first (what a screenshot must not
// show: drivers.ScreenshotOptions.Mask).
func (m *Masker) Values() []string {
	if m == nil {
		return nil
	}
	return m.values
}

func (m *Masker) empty() bool { return m == nil || (m.r == nil && len(m.short) == 0) }

// String masks s.
func (m *Masker) String(s string) string {
	if m.empty() {
		return s
	}
	if m.r != nil {
		s = m.r.Replace(s)
	}
	for _, v := range m.short {
		s = maskTokens(s, v)
	}
	return s
}

// maskTokens replaces the whole-token occurrences of the short secret v.
func maskTokens(s, v string) string {
	var b strings.Builder
	last := 0
	for i := 0; i+len(v) <= len(s); {
		k := strings.Index(s[i:], v)
		if k < 0 {
			break
		}
		at := i + k
		if drivers.SecretAt(s, at, v) {
			b.WriteString(s[last:at])
			b.WriteString(Mask)
			last = at + len(v)
			i = last
			continue
		}
		_, size := utf8.DecodeRuneInString(s[at:])
		i = at + size
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// Bytes masks b.
func (m *Masker) Bytes(b []byte) []byte {
	if m.empty() {
		return b
	}
	return []byte(m.String(string(b)))
}

// Snapshot returns a copy of snap with its texts masked.
func (m *Masker) Snapshot(snap *drivers.Snapshot) *drivers.Snapshot {
	if m.empty() || snap == nil {
		return snap
	}
	c := *snap
	c.URL, c.Title = m.String(c.URL), m.String(c.Title)
	c.Nodes = make([]drivers.Node, len(snap.Nodes))
	for i, n := range snap.Nodes {
		n.Label, n.ID, n.Text, n.Value = m.String(n.Label), m.String(n.ID), m.String(n.Text), m.String(n.Value)
		c.Nodes[i] = n
	}
	return &c
}

// Attempt masks every text field of an attempt result in place.
func (m *Masker) Attempt(a *runner.AttemptResult) {
	if m.empty() {
		return
	}
	for i := range a.Warnings {
		a.Warnings[i] = m.String(a.Warnings[i])
	}
	for i := range a.Steps {
		a.Steps[i].Warning = m.String(a.Steps[i].Warning)
		a.Steps[i].Action = m.String(a.Steps[i].Action)
	}
	if e := a.Error; e != nil {
		e.Message = m.String(e.Message)
		e.Hint = m.String(e.Hint)
		e.Details = m.value(e.Details).(map[string]any)
	}
}

func (m *Masker) value(v any) any {
	switch x := v.(type) {
	case string:
		return m.String(x)
	case map[string]any:
		if x == nil {
			return x
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = m.value(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = m.value(e)
		}
		return out
	case []string:
		out := make([]string, len(x))
		for i, e := range x {
			out[i] = m.String(e)
		}
		return out
	case nil:
		return nil
	}
	// Any other composite value (typed maps and slices, structs): mask its
	// JSON form, the only form a report ever shows.
	switch reflect.ValueOf(v).Kind() {
	case reflect.Map, reflect.Slice, reflect.Array, reflect.Struct, reflect.Pointer:
		b, err := json.Marshal(v)
		if err != nil {
			return v
		}
		var generic any
		if json.Unmarshal(b, &generic) != nil {
			return v
		}
		return m.value(generic)
	}
	return v
}
