package lang

// The printer's annotations (canonical key order) and the comparison of
// parses that guards the round trip.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// ---- annotations ----

var (
	prTargetOrder   = []string{"id", "role", "label", "ancestry", "sibling", "viewportOrder", "scrollRegion", "rect", "verification"}
	prAncestorOrder = []string{"role", "label"}
	prRegionOrder   = []string{"role", "id", "label"}
	prRectOrder     = []string{"x", "y", "width", "height"}
	prTargetsOrder  = []string{"source", "destination"}
)

func prAnnotation(text string) string {
	if !strings.HasPrefix(text, "#") {
		return text
	}
	rest := strings.TrimLeftFunc(text[1:], isJSSpace)
	i := strings.IndexFunc(rest, isJSSpace)
	if i < 0 {
		return "# " + rest
	}
	tag, payload := rest[:i], strings.TrimFunc(rest[i:], isJSSpace)
	var canon []byte
	var ok bool
	if strings.HasPrefix(tag, "agent-device:targets-") {
		canon, ok = prReorderObject([]byte(payload), prTargetsOrder, map[string]prReorder{
			"source": prReorderTarget, "destination": prReorderTarget,
		})
	} else {
		canon, ok = prReorderTarget([]byte(payload))
	}
	if !ok {
		return "# " + tag + " " + payload
	}
	return "# " + tag + " " + string(canon)
}

type prReorder func([]byte) ([]byte, bool)

func prReorderTarget(raw []byte) ([]byte, bool) {
	return prReorderObject(raw, prTargetOrder, map[string]prReorder{
		"ancestry":     prReorderArray(prAncestorOrder),
		"scrollRegion": prObjectWith(prRegionOrder),
		"rect":         prObjectWith(prRectOrder),
	})
}

func prObjectWith(order []string) prReorder {
	return func(raw []byte) ([]byte, bool) { return prReorderObject(raw, order, nil) }
}

// prReorderArray reorders the keys of every object in a JSON array; other
// elements are compacted.
func prReorderArray(order []string) prReorder {
	return func(raw []byte) ([]byte, bool) {
		var elems []json.RawMessage
		if err := json.Unmarshal(raw, &elems); err != nil || elems == nil {
			return nil, false
		}
		var b bytes.Buffer
		b.WriteByte('[')
		for i, e := range elems {
			if i > 0 {
				b.WriteByte(',')
			}
			out, ok := prReorderObject(e, order, nil)
			if !ok {
				return nil, false
			}
			b.Write(out)
		}
		b.WriteByte(']')
		return b.Bytes(), true
	}
}

// prReorderObject compacts a JSON object and puts its keys in order (known
// keys first, unknown keys after them as written). It refuses (false) a
// value that is not an object or that has a duplicate key, since reordering
// duplicates would change which one wins.
func prReorderObject(raw []byte, order []string, nested map[string]prReorder) ([]byte, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		return nil, false
	}
	type kv struct {
		key string
		val []byte
	}
	var fields []kv
	seen := map[string]bool{}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, false
		}
		key, ok := kt.(string)
		if !ok || seen[key] {
			return nil, false
		}
		seen[key] = true
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return nil, false
		}
		var cb bytes.Buffer
		if err := json.Compact(&cb, val); err != nil {
			return nil, false
		}
		v := cb.Bytes()
		if f := nested[key]; f != nil && len(v) > 0 && (v[0] == '{' || v[0] == '[') {
			out, ok := f(v)
			if !ok {
				return nil, false
			}
			v = out
		}
		fields = append(fields, kv{key, v})
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('}') {
		return nil, false
	}
	if _, err := dec.Token(); err == nil {
		return nil, false // trailing data
	}
	rank := func(k string) int {
		for i, o := range order {
			if o == k {
				return i
			}
		}
		return len(order)
	}
	for i := 1; i < len(fields); i++ {
		for j := i; j > 0 && rank(fields[j-1].key) > rank(fields[j].key); j-- {
			fields[j-1], fields[j] = fields[j], fields[j-1]
		}
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range fields {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(prJSON(f.key))
		b.WriteByte(':')
		b.Write(f.val)
	}
	b.WriteByte('}')
	return b.Bytes(), true
}

// ---- comparing parses ----

// prActionView is what the compat JSON reports of an action.
type prActionView struct {
	Command        string
	Positionals    []string
	Flags          Flags
	Runtime        Flags
	RefLabel       *string
	TargetEvidence *TargetEvidence
	Targets        *TargetsEvidence
}

func prView(a *Action, evidence bool) string {
	v := prActionView{Command: a.Command, Positionals: a.Positionals, Flags: a.Flags, Runtime: a.Runtime, RefLabel: a.RefLabel}
	if v.Positionals == nil {
		v.Positionals = []string{}
	}
	if len(v.Flags) == 0 {
		v.Flags = nil
	}
	if len(v.Runtime) == 0 {
		v.Runtime = nil
	}
	if evidence {
		v.TargetEvidence, v.Targets = a.TargetEvidence, a.Targets
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%#v", v)
	}
	return string(b)
}

// prDiffAction describes how two actions differ ("" when they are the same
// as far as the compat JSON can tell).
func prDiffAction(a, b *Action, evidence bool) string {
	if prSameAction(a, b, evidence) {
		return ""
	}
	va, vb := prView(a, evidence), prView(b, evidence)
	if va != vb {
		return va + " became " + vb
	}
	// json.Marshal cannot tell 3 from 3.0; the flag types can.
	for _, p := range [][2]Flags{{a.Flags, b.Flags}, {a.Runtime, b.Runtime}} {
		for k, x := range p[0] {
			if reflect.TypeOf(x) != reflect.TypeOf(p[1][k]) {
				return fmt.Sprintf("flag %s: %T became %T", k, x, p[1][k])
			}
		}
	}
	return ""
}

// prSameAction is the fast, strict path of prDiffAction: identical values
// and types. When it says no, prDiffAction looks closer.
func prSameAction(a, b *Action, evidence bool) bool {
	if a.Command != b.Command || len(a.Positionals) != len(b.Positionals) ||
		!reflect.DeepEqual(a.Flags, b.Flags) || !reflect.DeepEqual(a.Runtime, b.Runtime) {
		return false
	}
	for i := range a.Positionals {
		if a.Positionals[i] != b.Positionals[i] {
			return false
		}
	}
	if (a.RefLabel == nil) != (b.RefLabel == nil) || a.RefLabel != nil && *a.RefLabel != *b.RefLabel {
		return false
	}
	return !evidence || reflect.DeepEqual(a.TargetEvidence, b.TargetEvidence) && reflect.DeepEqual(a.Targets, b.Targets)
}

func prDiffMetadata(a, b *Metadata) string {
	ints := func(p *int) string {
		if p == nil {
			return "-"
		}
		return strconv.Itoa(*p)
	}
	if a.Platform != b.Platform || a.Target != b.Target || ints(a.TimeoutMs) != ints(b.TimeoutMs) || ints(a.Retries) != ints(b.Retries) {
		return fmt.Sprintf("metadata %s/%s/%s/%s became %s/%s/%s/%s", a.Platform, a.Target, ints(a.TimeoutMs), ints(a.Retries),
			b.Platform, b.Target, ints(b.TimeoutMs), ints(b.Retries))
	}
	if len(a.Other) != len(b.Other) {
		return fmt.Sprintf("context keys: %d became %d", len(a.Other), len(b.Other))
	}
	for i := range a.Other {
		if a.Other[i].Key != b.Other[i].Key || a.Other[i].Value != b.Other[i].Value {
			return fmt.Sprintf("context %s=%s became %s=%s", a.Other[i].Key, a.Other[i].Value, b.Other[i].Key, b.Other[i].Value)
		}
	}
	return ""
}

// prDiffScripts compares two parses the way the round-trip invariant does:
// metadata, env and actions, not line numbers. It returns what differs and
// where in a.
func prDiffScripts(a, b *Script) (string, Pos) {
	if d := prDiffMetadata(&a.Metadata, &b.Metadata); d != "" {
		return d, a.Metadata.Pos
	}
	if len(a.Env) != len(b.Env) {
		return fmt.Sprintf("env directives: %d became %d", len(a.Env), len(b.Env)), Pos{}
	}
	for i := range a.Env {
		if a.Env[i].Key != b.Env[i].Key || a.Env[i].Value != b.Env[i].Value {
			return fmt.Sprintf("env %s=%q became %s=%q", a.Env[i].Key, a.Env[i].Value, b.Env[i].Key, b.Env[i].Value), a.Env[i].Pos
		}
	}
	if len(a.Actions) != len(b.Actions) {
		return fmt.Sprintf("actions: %d became %d", len(a.Actions), len(b.Actions)), Pos{}
	}
	for i := range a.Actions {
		if d := prDiffAction(a.Actions[i], b.Actions[i], true); d != "" {
			return fmt.Sprintf("step %d: %s", i+1, d), a.Actions[i].Pos
		}
	}
	return "", Pos{}
}
