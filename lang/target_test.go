package lang

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
)

// vtTargetJSON renders a target in the fixture's shape.
func vtTargetJSON(t *InteractionTarget) map[string]any {
	switch t.Kind {
	case "ref":
		m := map[string]any{"ref": t.Ref}
		if t.Label != "" {
			m["label"] = t.Label
		}
		return m
	case "point":
		return map[string]any{"x": t.X, "y": t.Y}
	case "selector":
		return map[string]any{"selector": t.Selector.Raw}
	}
	return map[string]any{"kind": t.Kind}
}

func TestDecodeInteractionTargetCorpus(t *testing.T) {
	t.Parallel()
	var cases []struct {
		Positionals []string        `json:"positionals"`
		Target      map[string]any  `json:"target"`
		Error       *vtFixtureError `json:"error"`
	}
	if err := json.Unmarshal(parseCaseSections(t)["interactionTargets"], &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) != 9 {
		t.Fatalf("fixture has %d interaction targets, want 9", len(cases))
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.Positionals, "|"), func(t *testing.T) {
			got, err := DecodeInteractionTarget(tc.Positionals)
			if vtWantFixtureError(t, got, err, tc.Error) {
				return
			}
			if g := vtJSON(t, vtTargetJSON(got)); !reflect.DeepEqual(g, vtJSON(t, tc.Target)) {
				t.Fatalf("target = %v, want %v", g, tc.Target)
			}
		})
	}
}

func TestDecodeTarget(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   []string
		opts TargetOptions
		want InteractionTarget
		err  string
	}{
		{name: "pinned ref", in: []string{"@e3~s42"},
			want: InteractionTarget{Kind: "ref", Ref: "@e3", Pin: 42, Pinned: true, Raw: "@e3~s42", Rest: []string{}}},
		{name: "ref label then rest", in: []string{"@e3", "Save", "500"},
			want: InteractionTarget{Kind: "ref", Ref: "@e3", Label: "Save", Raw: "@e3", Rest: []string{"500"}}},
		{name: "fill ref with text only: no label", in: []string{"@e2", "ada@example.com"}, opts: TargetOptions{Trailing: 1},
			want: InteractionTarget{Kind: "ref", Ref: "@e2", Raw: "@e2", Rest: []string{"ada@example.com"}}},
		{name: "malformed pin left for admission", in: []string{"@e2~x3"},
			want: InteractionTarget{Kind: "ref", Ref: "@e2~x3", Raw: "@e2~x3", Rest: []string{}}},
		{name: "point with JS numbers", in: []string{"0x10", "-4.5", "hello"},
			want: InteractionTarget{Kind: "point", X: 16, Y: -4.5, Raw: "0x10 -4.5", Rest: []string{"hello"}}},
		{name: "point with exponent", in: []string{"1e3", ".5"},
			want: InteractionTarget{Kind: "point", X: 1000, Y: 0.5, Raw: "1e3 .5", Rest: []string{}}},
		{name: "selector joined over tokens", in: []string{"role=button", "label=Save"},
			want: InteractionTarget{Kind: "selector", Raw: "role=button label=Save", Rest: []string{}}},
		{name: "fill selector keeps text", in: []string{`label="Email"`, "a b"}, opts: TargetOptions{Trailing: 1},
			want: InteractionTarget{Kind: "selector", Raw: `label="Email"`, Rest: []string{"a b"}}},
		{name: "chain split over || tokens", in: []string{"id=a", "||", "label=b"},
			want: InteractionTarget{Kind: "selector", Raw: "id=a || label=b", Rest: []string{}}},
		{name: "signed hex is not a number", in: []string{"-0x10", "5"},
			err: `Target "-0x10 5" is not a @ref, selector, or "x y" point. To match by visible text, use text="-0x10 5" (or label=/id=/role=), or pass an @ref from snapshot.`},
		{name: "Infinity is not finite", in: []string{"Infinity", "1"},
			err: `Target "Infinity 1" is not a @ref, selector, or "x y" point. To match by visible text, use text="Infinity 1" (or label=/id=/role=), or pass an @ref from snapshot.`},
		{name: "typo key suggests label", in: []string{"lable=Done"},
			err: `Unknown selector key "lable". Supported: id, role, text, label, value, appname, windowtitle, visible, hidden, editable, selected, focused, enabled, hittable. Did you mean label="Done"?`},
		{name: "v0.20 apostrophe token", in: []string{"'label=Done'"},
			err: `Unknown selector key "'label". Supported: id, role, text, label, value, appname, windowtitle, visible, hidden, editable, selected, focused, enabled, hittable. Did you mean label="Done'"?`},
		{name: "extra words after a two-term selector", in: []string{"role=button", "label=Sign", "in"},
			err: `Selector role=button label=Sign is followed by unexpected extra arguments: "in". Selector values with spaces need quotes, e.g. role=button label="Sign in".`},
		{name: "blank positional", in: []string{" "},
			err: `Missing target. Pass an @ref from snapshot, a selector like text="Sign in", or "x y" coordinates.`},
		{name: "quoted text is json-quoted in the tip", in: []string{`say "hi"`},
			err: `Target "say "hi"" is not a @ref, selector, or "x y" point. To match by visible text, use text="say \"hi\"" (or label=/id=/role=), or pass an @ref from snapshot.`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := DecodeTarget(tc.in, tc.opts)
			if tc.err != "" {
				if err == nil {
					t.Fatalf("decoded %+v, want error", got)
				}
				if e := vtAsError(t, err); e.Message != tc.err {
					t.Fatalf("error = %q\nwant    %q", e.Message, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("error %v", err)
			}
			got.Selector = nil // compared through Raw
			if !reflect.DeepEqual(*got, tc.want) {
				t.Fatalf("target = %+v\nwant     %+v", *got, tc.want)
			}
		})
	}
}

func vtWaitJSON(w *WaitSpec) map[string]any {
	m := map[string]any{"kind": w.Kind}
	switch w.Kind {
	case "sleep":
		m["durationMs"] = w.DurationMs
	case "text":
		m["text"], m["timeoutMs"] = w.Text, w.TimeoutMs
	case "stable":
		m["quietMs"], m["timeoutMs"] = w.QuietMs, w.TimeoutMs
	case "ref":
		m["rawRef"], m["timeoutMs"] = w.Ref, w.TimeoutMs
	case "selector", "absent":
		m["selectorExpression"], m["timeoutMs"] = w.Selector.Raw, w.TimeoutMs
	}
	return m
}

func TestDecodeWaitCorpus(t *testing.T) {
	t.Parallel()
	var cases []struct {
		Positionals []string       `json:"positionals"`
		Parsed      map[string]any `json:"parsed"`
	}
	if err := json.Unmarshal(parseCaseSections(t)["waitPositionals"], &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) != 12 {
		t.Fatalf("fixture has %d wait cases, want 12", len(cases))
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.Positionals, "|"), func(t *testing.T) {
			got, err := DecodeWait(tc.Positionals)
			if err != nil {
				t.Fatalf("error %v", err)
			}
			if g := vtJSON(t, vtWaitJSON(got)); !reflect.DeepEqual(g, vtJSON(t, tc.Parsed)) {
				t.Fatalf("wait = %v, want %v", g, tc.Parsed)
			}
		})
	}
}

func TestDecodeWait(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   []string
		want map[string]any
		err  string
	}{
		{"absent selector with timeout", []string{"absent", `label="Loading"`, "2000"},
			map[string]any{"kind": "absent", "selectorExpression": `label="Loading"`, "timeoutMs": 2000}, ""},
		{"absent selector without timeout", []string{"absent", "id=spinner"},
			map[string]any{"kind": "absent", "selectorExpression": "id=spinner", "timeoutMs": nil}, ""},
		{"absent without selector", []string{"absent"}, nil, "wait absent requires a selector: wait absent <selector> [ms]."},
		{"absent with unquoted spaces", []string{"absent", "label=A", "B"}, nil,
			`Selector label=A is followed by unexpected extra arguments: "B". Selector values with spaces need quotes, e.g. label="A B".`},
		{"selector over tokens", []string{"role=button", "label=Go", "500"},
			map[string]any{"kind": "selector", "selectorExpression": "role=button label=Go", "timeoutMs": 500}, ""},
		{"selector then text is a text wait", []string{"label=A", "B"},
			map[string]any{"kind": "text", "text": "label=A B", "timeoutMs": nil}, ""},
		{"stable quiet only", []string{"stable", "300"},
			map[string]any{"kind": "stable", "quietMs": 300, "timeoutMs": nil}, ""},
		{"stable with words", []string{"stable", "soon"}, nil, `wait stable expects numbers: "soon" is not a number of milliseconds.`},
		{"no arguments", nil, nil, "wait requires an argument: wait <ms> | text <text> [ms] | <selector> [ms] | @ref [ms] | stable [quietMs] [timeoutMs] | absent <selector> [ms]."},
		{"fractional sleep truncated", []string{"1.9"}, map[string]any{"kind": "sleep", "durationMs": 1}, ""},
		{"lone number token is text when first is text", []string{"text", "500"},
			map[string]any{"kind": "text", "text": "", "timeoutMs": 500}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := DecodeWait(tc.in)
			if tc.err != "" {
				if err == nil {
					t.Fatalf("decoded %v, want error", vtWaitJSON(got))
				}
				if e := vtAsError(t, err); e.Message != tc.err {
					t.Fatalf("error = %q\nwant    %q", e.Message, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("error %v", err)
			}
			if g := vtJSON(t, vtWaitJSON(got)); !reflect.DeepEqual(g, vtJSON(t, tc.want)) {
				t.Fatalf("wait = %v, want %v", g, tc.want)
			}
		})
	}
}

func TestJSNumber(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"500", 500, true}, {"1e3", 1000, true}, {"0x10", 16, true}, {"0X1f", 31, true}, {"0o17", 15, true},
		{"0b101", 5, true}, {"-4.5", -4.5, true}, {"+7", 7, true}, {".5", 0.5, true}, {"5.", 5, true},
		{" 42\t", 42, true}, {"", 0, true}, {"010", 10, true}, {"1e-400", 0, true}, {"\u00a012\ufeff", 12, true},
		{"Infinity", 0, false}, {"-Infinity", 0, false}, {"NaN", 0, false}, {"1e400", 0, false},
		{"1_000", 0, false}, {"12px", 0, false}, {"-0x10", 0, false}, {"0x", 0, false}, {"0xg", 0, false},
		{"1e", 0, false}, {".", 0, false}, {"+", 0, false}, {"1..2", 0, false}, {"0b2", 0, false},
	}
	for _, tc := range tests {
		got, ok := JSNumber(tc.in)
		if ok != tc.ok || (ok && got != tc.want) {
			t.Errorf("JSNumber(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
	if got := jsInt(1e300); got != math.MaxInt {
		t.Errorf("jsInt(1e300) = %d, want MaxInt", got)
	}
}

func BenchmarkDecodeInteractionTarget(b *testing.B) {
	p := []string{`role=button label="Add to cart" || label="Add to cart"`}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeInteractionTarget(p); err != nil {
			b.Fatal(err)
		}
	}
}
