package lang

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"
)

// Target annotations (spec §1.7): `# agent-device:target-v1 {json}` binds
// recording-time evidence to the next line, and the newest grammar's
// `# agent-device:targets-v1 {"source":{…},"destination":{…}}` binds two.

const (
	maxTargetPayload  = 4096
	maxTargetsPayload = 8320
	maxEvidenceString = 256
	maxAncestry       = 8
	maxSafeInteger    = 1<<53 - 1
)

// decodeTargetV1 decodes and validates a target-v1 payload.
func decodeTargetV1(payload string) (*TargetEvidence, string) {
	obj, msg := annotationObject(payload, "target-v1", maxTargetPayload)
	if msg != "" {
		return nil, msg
	}
	return evidenceFromObject(obj)
}

// annotationObject decodes the JSON object payload of a tag annotation of at
// most limit bytes, or returns the message that rejects it.
func annotationObject(payload, tag string, limit int) (map[string]any, string) {
	if len(payload) > limit {
		return nil, fmt.Sprintf("%s annotation exceeds the %d-byte payload cap.", tag, limit)
	}
	var raw any
	if !validJSON(payload, &raw) {
		return nil, tag + " annotation is not valid JSON."
	}
	obj, ok := raw.(map[string]any)
	if !ok {
		return nil, tag + " annotation must be a JSON object."
	}
	return obj, ""
}

// decodeTargetsV1 decodes a targets-v1 payload (two endpoints). As in
// agent-device 0.21.5, both keys must be present, and each endpoint is
// validated as a target-v1 payload of its own: re-serialised (so it is held
// to the 4096-byte cap) and checked with target-v1's messages.
func decodeTargetsV1(payload string) (*TargetsEvidence, string) {
	obj, msg := annotationObject(payload, "targets-v1", maxTargetsPayload)
	if msg != "" {
		return nil, msg
	}
	src, hasSrc := obj["source"]
	dst, hasDst := obj["destination"]
	if !hasSrc || !hasDst {
		return nil, "targets-v1 annotation requires source and destination evidence."
	}
	out := &TargetsEvidence{}
	for _, end := range []struct {
		v   any
		dst *TargetEvidence
	}{{src, &out.Source}, {dst, &out.Destination}} {
		if n := jsonStringifyLen(end.v); n > maxTargetPayload {
			return nil, fmt.Sprintf("target-v1 annotation exceeds the %d-byte payload cap.", maxTargetPayload)
		}
		sub, ok := end.v.(map[string]any)
		if !ok {
			return nil, "target-v1 annotation must be a JSON object."
		}
		ev, msg := evidenceFromObject(sub)
		if msg != "" {
			return nil, msg
		}
		*end.dst = *ev
	}
	return out, ""
}

// jsonStringifyLen is the UTF-8 length of JSON.stringify(v) for a value
// decoded by validJSON: no whitespace, numbers as JavaScript prints them
// (a non-finite one as null), strings with JSON.stringify's escapes.
func jsonStringifyLen(v any) int {
	switch v := v.(type) {
	case map[string]any:
		n := 2 + max(len(v)-1, 0) // braces and commas
		for k, e := range v {
			n += jsonStringifyLen(k) + 1 + jsonStringifyLen(e)
		}
		return n
	case []any:
		n := 2 + max(len(v)-1, 0)
		for _, e := range v {
			n += jsonStringifyLen(e)
		}
		return n
	case string:
		n := 2
		for i := 0; i < len(v); i++ {
			switch c := v[i]; {
			case c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t':
				n += 2
			case c < 0x20:
				n += 6
			default:
				n++
			}
		}
		return n
	case json.Number:
		f, err := v.Float64()
		if err != nil || math.IsInf(f, 0) {
			return len("null")
		}
		return len(jsNumberString(f))
	case bool:
		if v {
			return 4
		}
		return 5
	}
	return 4 // null
}

// validJSON decodes payload as exactly one JSON value, with the result and
// the acceptance of json.Decoder with UseNumber followed by a check that only
// JSON whitespace trails the value (as for JSON.parse): objects are
// map[string]any (the last duplicate key wins), arrays []any, numbers
// json.Number, strings with invalid UTF-8 and lone surrogates replaced by
// U+FFFD. It is hand-written because encoding/json's byte-at-a-time scanner
// (run twice by the Decoder) and its buffers were a fifth of the time of a
// 10,000-line recorded script; FuzzJSONMatchesEncodingJSON holds it to
// encoding/json.
func validJSON(payload string, v *any) bool {
	p := jsonParser{s: payload}
	val, ok := p.value(0)
	if !ok {
		return false
	}
	p.space()
	if p.i != len(p.s) {
		return false
	}
	*v = val
	return true
}

// jsonParser is a recursive-descent JSON parser over s; i is the next byte.
type jsonParser struct {
	s string
	i int
}

// maxJSONDepth is encoding/json's nesting limit (unreachable within the
// annotation size limits, kept for equivalence).
const maxJSONDepth = 10000

func (p *jsonParser) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonParser) value(depth int) (any, bool) {
	p.space()
	if p.i >= len(p.s) {
		return nil, false
	}
	switch c := p.s[p.i]; {
	case c == '{':
		if depth >= maxJSONDepth {
			return nil, false
		}
		return p.object(depth + 1)
	case c == '[':
		if depth >= maxJSONDepth {
			return nil, false
		}
		return p.array(depth + 1)
	case c == '"':
		return p.str()
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	case strings.HasPrefix(p.s[p.i:], "true"):
		p.i += 4
		return true, true
	case strings.HasPrefix(p.s[p.i:], "false"):
		p.i += 5
		return false, true
	case strings.HasPrefix(p.s[p.i:], "null"):
		p.i += 4
		return nil, true
	}
	return nil, false
}

func (p *jsonParser) object(depth int) (any, bool) {
	p.i++ // {
	m := map[string]any{}
	p.space()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return m, true
	}
	for {
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return nil, false
		}
		k, ok := p.str()
		if !ok {
			return nil, false
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, false
		}
		p.i++
		v, ok := p.value(depth)
		if !ok {
			return nil, false
		}
		m[k.(string)] = v
		if done, ok := p.separator('}'); !ok || done {
			return m, ok
		}
	}
}

// separator reads what follows a member or element: ',' (more follow),
// or the closing byte (done). Anything else is malformed (ok false).
func (p *jsonParser) separator(closing byte) (done, ok bool) {
	p.space()
	if p.i >= len(p.s) {
		return false, false
	}
	switch p.s[p.i] {
	case ',':
		p.i++
		return false, true
	case closing:
		p.i++
		return true, true
	}
	return false, false
}

func (p *jsonParser) array(depth int) (any, bool) {
	p.i++ // [
	a := []any{}
	p.space()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return a, true
	}
	for {
		v, ok := p.value(depth)
		if !ok {
			return nil, false
		}
		a = append(a, v)
		if done, ok := p.separator(']'); !ok || done {
			return a, ok
		}
	}
}

// number scans -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? as a json.Number.
func (p *jsonParser) number() (any, bool) {
	s, start := p.s, p.i
	i := start
	digits := func() int {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - j
	}
	if s[i] == '-' {
		i++
	}
	if i < len(s) && s[i] == '0' {
		i++
	} else if digits() == 0 {
		return nil, false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return nil, false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return nil, false
		}
	}
	p.i = i
	return json.Number(s[start:i]), true
}

// str decodes the string literal at p.i (a '"') the way encoding/json does.
func (p *jsonParser) str() (any, bool) {
	s := p.s
	start := p.i + 1
	// Fast path: no escapes, no control characters, valid UTF-8.
	for i := start; i < len(s); i++ {
		c := s[i]
		if c == '"' {
			if utf8.ValidString(s[start:i]) {
				p.i = i + 1
				return s[start:i], true
			}
			break
		}
		if c == '\\' || c < 0x20 {
			break
		}
	}
	var b strings.Builder
	i := start
	for i < len(s) {
		c := s[i]
		switch {
		case c == '"':
			p.i = i + 1
			return b.String(), true
		case c < 0x20:
			return nil, false
		case c == '\\':
			r, n, ok := decodeEscape(s[i:])
			if !ok {
				return nil, false
			}
			b.WriteRune(r)
			i += n
		case c < utf8.RuneSelf:
			b.WriteByte(c)
			i++
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			b.WriteRune(r) // an invalid byte is U+FFFD
			i += n
		}
	}
	return nil, false
}

// evidenceFromObject validates a target-v1 object field by field in
// agent-device 0.21.5's order (role, id, label, ancestry, sibling,
// viewportOrder, scrollRegion, rect, verification) and with its messages: a
// field that is present (null included) must have its type, and every message
// names the field as "ancestry[1].role" or "rect.x".
func evidenceFromObject(obj map[string]any) (*TargetEvidence, string) {
	ev := &TargetEvidence{}
	var msg string
	// A field is named group[idx].key, group.key or key (idx < 0: no index;
	// key "": the group entry itself); names are built only for a message.
	fail := func(group string, idx int, key, what string) {
		if msg != "" {
			return
		}
		field := key
		if group != "" {
			field = group
			if idx >= 0 {
				field = fmt.Sprintf("%s[%d]", group, idx)
			}
			if key != "" {
				field += "." + key
			}
		}
		msg = fmt.Sprintf("target-v1 %q %s", field, what)
	}
	// str reads an optional (required: role) string field of m; an empty
	// optional value counts as absent.
	str := func(m map[string]any, group string, idx int, key string, required, label bool) string {
		v, present := m[key]
		if msg != "" || !present && !required {
			return ""
		}
		if !present {
			fail(group, idx, key, "is required.")
			return ""
		}
		s, ok := v.(string)
		if !ok {
			fail(group, idx, key, "must be a string.")
			return ""
		}
		s = normalizeEvidenceString(s, label)
		if len(s) > maxEvidenceString {
			fail(group, idx, key, fmt.Sprintf("exceeds the %d-byte field cap.", maxEvidenceString))
		}
		return s
	}
	object := func(v any, group string, idx int) map[string]any {
		m, ok := v.(map[string]any)
		if !ok {
			fail(group, idx, "", "must be an object.")
		}
		return m
	}
	ev.Role = str(obj, "", -1, "role", true, false)
	ev.ID = str(obj, "", -1, "id", false, false)
	ev.Label = str(obj, "", -1, "label", false, true)
	ev.Ancestry = []AncestorEntry{}
	if a, present := obj["ancestry"]; present && msg == "" {
		list, ok := a.([]any)
		switch {
		case !ok:
			fail("", -1, "ancestry", "must be an array.")
		case len(list) > maxAncestry:
			fail("", -1, "ancestry", fmt.Sprintf("exceeds the %d-entry cap.", maxAncestry))
		}
		for i, e := range list {
			m := object(e, "ancestry", i)
			entry := AncestorEntry{Role: str(m, "ancestry", i, "role", true, false), Label: str(m, "ancestry", i, "label", false, true)}
			if msg != "" {
				break
			}
			ev.Ancestry = append(ev.Ancestry, entry)
		}
	}
	for _, f := range []struct {
		name string
		dst  *int
	}{{"sibling", &ev.Sibling}, {"viewportOrder", &ev.ViewportOrder}} {
		v, present := obj[f.name]
		if !present || msg != "" {
			continue
		}
		n, ok := v.(json.Number)
		fv, err := n.Float64()
		if !ok || err != nil || fv < 0 || fv != math.Trunc(fv) || fv > maxSafeInteger {
			fail("", -1, f.name, "must be a non-negative integer.")
			continue
		}
		*f.dst = int(fv)
	}
	if v, present := obj["scrollRegion"]; present && msg == "" {
		m := object(v, "scrollRegion", -1)
		// 0.21.5 names the region's id "id" in its message.
		reg := &ScrollRegion{Role: str(m, "scrollRegion", -1, "role", true, false), ID: str(m, "", -1, "id", false, false), Label: str(m, "scrollRegion", -1, "label", false, true)}
		ev.ScrollRegion = reg
	}
	if v, present := obj["rect"]; present && msg == "" {
		m := object(v, "rect", -1)
		var vals [4]float64
		for i, k := range []string{"x", "y", "width", "height"} {
			if msg != "" {
				break
			}
			n, ok := m[k].(json.Number)
			f, err := n.Float64()
			if !ok || err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
				fail("rect", -1, k, "must be a finite number.")
			}
			vals[i] = f + 0 // -0 prints as 0, as in JavaScript
		}
		ev.Rect = &EvidenceRect{X: vals[0], Y: vals[1], Width: vals[2], Height: vals[3]}
	}
	if msg != "" {
		return nil, msg
	}
	v, _ := obj["verification"].(string)
	if v != "verified" && v != "unverifiable" {
		return nil, `target-v1 "verification" must be "verified" or "unverifiable".`
	}
	ev.Verification = v
	return ev, ""
}

// normalizeEvidenceString NFC-composes s; labels are also trimmed with their
// internal whitespace collapsed to one space.
func normalizeEvidenceString(s string, label bool) string {
	s = composeNFC(s)
	if !label {
		return s
	}
	var b strings.Builder
	space := false
	for _, r := range TrimSpace(s) {
		if isJSSpace(r) {
			space = true
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// composeNFC composes a base letter followed by a combining mark into the
// precomposed character for the Latin-1 Supplement and Latin Extended-A
// letters (the canonical compositions recorded labels use in practice).
// It is not a full Unicode NFC implementation: other sequences are left as
// they are (documented in doc.go).
func composeNFC(s string) string {
	hasMark := false
	for i := 0; i < len(s); i++ {
		if s[i] == 0xCC || s[i] == 0xCD { // UTF-8 lead bytes of U+0300–U+036F
			hasMark = true
			break
		}
	}
	if !hasMark {
		return s
	}
	out := make([]rune, 0, len(s))
	for _, r := range s {
		if n := len(out); n > 0 && r >= 0x300 && r <= 0x36F {
			if c, ok := compositions[[2]rune{out[n-1], r}]; ok {
				out[n-1] = c
				continue
			}
		}
		out = append(out, r)
	}
	return string(out)
}

var compositions = func() map[[2]rune]rune {
	table := map[rune]string{
		0x300: "AÀEÈIÌOÒUÙaàeèiìoòuù",
		0x301: "AÁEÉIÍOÓUÚYÝaáeéiíoóuúyýCĆcćLĹlĺNŃnńRŔrŕSŚsśZŹzź",
		0x302: "AÂEÊIÎOÔUÛaâeêiîoôuûCĈcĉGĜgĝHĤhĥJĴjĵSŜsŝWŴwŵYŶyŷ",
		0x303: "AÃNÑOÕaãnñoõIĨiĩUŨuũ",
		0x304: "AĀaāEĒeēIĪiīOŌoōUŪuū",
		0x306: "AĂaăGĞgğUŬuŭEĔeĕIĬiĭOŎoŏ",
		0x307: "CĊcċEĖeėGĠgġIİZŻzż",
		0x308: "AÄEËIÏOÖUÜaäeëiïoöuüyÿYŸ",
		0x30A: "AÅaåUŮuů",
		0x30B: "OŐoőUŰuű",
		0x30C: "CČcčDĎdďEĚeěNŇnňRŘrřSŠsšTŤtťZŽzžLĽlľ",
		0x327: "CÇcçGĢgģKĶkķLĻlļNŅnņRŖrŗSŞsşTŢtţ",
		0x328: "AĄaąEĘeęIĮiįUŲuų",
	}
	m := map[[2]rune]rune{}
	for mark, pairs := range table {
		rs := []rune(pairs)
		for i := 0; i+1 < len(rs); i += 2 {
			m[[2]rune{rs[i], mark}] = rs[i+1]
		}
	}
	return m
}()
