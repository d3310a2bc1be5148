package lang

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

type vtFixtureError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// vtJSON normalises a value through JSON so that it compares with a decoded fixture.
func vtJSON(t testing.TB, v any) any {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func vtChainJSON(c *SelectorChain) [][]map[string]any {
	var out [][]map[string]any
	for _, seg := range c.Segments {
		var terms []map[string]any
		for _, term := range seg.Terms {
			if term.IsBool {
				terms = append(terms, map[string]any{"key": term.Key, "value": term.Bool})
			} else {
				terms = append(terms, map[string]any{"key": term.Key, "value": term.Value})
			}
		}
		out = append(out, terms)
	}
	return out
}

func vtAsError(t *testing.T, err error) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not a *lang.Error", err, err)
	}
	return e
}

// vtWantFixtureError holds err to a fixture case's expected outcome: with
// want set, err must be a *lang.Error with want's code and message (got is
// shown when there is none) and it reports true, the case being done; without
// want, err must be nil.
func vtWantFixtureError(t *testing.T, got any, err error, want *vtFixtureError) bool {
	t.Helper()
	if want == nil {
		if err != nil {
			t.Fatalf("error %v", err)
		}
		return false
	}
	if err == nil {
		t.Fatalf("got %+v, want error %q", got, want.Message)
	}
	if e := vtAsError(t, err); e.Code != want.Code || e.Message != want.Message {
		t.Fatalf("error = %s %q\nwant    %s %q", e.Code, e.Message, want.Code, want.Message)
	}
	return true
}

func TestParseSelectorChainCorpus(t *testing.T) {
	t.Parallel()
	var cases []struct {
		Input string          `json:"input"`
		Chain json.RawMessage `json:"chain"`
		Error *vtFixtureError `json:"error"`
	}
	if err := json.Unmarshal(parseCaseSections(t)["selectors"], &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) != 25 {
		t.Fatalf("fixture has %d selector cases, want 25", len(cases))
	}
	for _, tc := range cases {
		t.Run(tc.Input, func(t *testing.T) {
			chain, err := ParseSelectorChain(tc.Input)
			if vtWantFixtureError(t, chain, err, tc.Error) {
				return
			}
			var want any
			if err := json.Unmarshal(tc.Chain, &want); err != nil {
				t.Fatal(err)
			}
			if got := vtJSON(t, vtChainJSON(chain)); !reflect.DeepEqual(got, want) {
				t.Fatalf("chain = %v, want %v", got, want)
			}
		})
	}
}

func TestParseSelectorChain(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		input string
		want  [][]map[string]any
		err   string
	}{
		{"escaped quote does not close", `label="say \"hi\" now"`, [][]map[string]any{{{"key": "label", "value": `say "hi" now`}}}, ""},
		{"single quotes hold double quotes", `label='a "b" c'`, [][]map[string]any{{{"key": "label", "value": `a "b" c`}}}, ""},
		{"unknown escape kept literally", `label="a\qb"`, [][]map[string]any{{{"key": "label", "value": `a\qb`}}}, ""},
		{"unicode escape and surrogate pair", `label="\u00e9\ud83d\ude00"`, [][]map[string]any{{{"key": "label", "value": "é😀"}}}, ""},
		{"quoted boolean", `enabled="FALSE"`, [][]map[string]any{{{"key": "enabled", "value": false}}}, ""},
		{"bare boolean key any case", `Editable label=x`, [][]map[string]any{{{"key": "editable", "value": true}, {"key": "label", "value": "x"}}}, ""},
		{"tabs and extra spaces separate terms", "role=button\t  label=A", [][]map[string]any{{{"key": "role", "value": "button"}, {"key": "label", "value": "A"}}}, ""},
		{"|| inside single quotes", `label='a||b' || id=c`, [][]map[string]any{{{"key": "label", "value": "a||b"}}, {{"key": "id", "value": "c"}}}, ""},
		{"value partly quoted stays verbatim", `label="a"b`, [][]map[string]any{{{"key": "label", "value": `"a"b`}}}, ""},
		{"only whitespace", "  \t ", nil, "Selector expression cannot be empty"},
		{"empty middle segment", "label=a || || label=b", nil, "Invalid selector fallback expression: label=a || || label=b"},
		{"unclosed quote reports its segment", `label=a || label="x`, nil, `Unclosed quote in selector: label="x`},
		{"bare word", "label=a Continue", nil, `Invalid selector term "Continue", expected key=value`},
		{"missing boolean value", "visible=", nil, "Missing selector value for key: visible"},
		{"upper-case unknown key lower-cased", "FOO=1", nil, "Unknown selector key: foo"},
		{"single-quoted token keeps apostrophe key", "'label=Done'", nil, "Unknown selector key: 'label"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			chain, err := ParseSelectorChain(tc.input)
			if tc.err != "" {
				if err == nil {
					t.Fatalf("parsed %v, want error %q", vtChainJSON(chain), tc.err)
				}
				if e := vtAsError(t, err); e.Message != tc.err || e.Code != "INVALID_ARGS" {
					t.Fatalf("error = %s %q, want INVALID_ARGS %q", e.Code, e.Message, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("error %v", err)
			}
			if got, want := vtJSON(t, vtChainJSON(chain)), vtJSON(t, tc.want); !reflect.DeepEqual(got, want) {
				t.Fatalf("chain = %v, want %v", got, want)
			}
		})
	}
}

func TestLooksLikeSelector(t *testing.T) {
	t.Parallel()
	tests := []struct {
		tok  string
		want bool
	}{
		{"||", true},
		{"visible", true},
		{"LABEL=x", true},
		{`id="a b"`, true},
		{"text", true},
		{"label~=x", false},
		{"button=Save", false},
		{"Continue", false},
		{"=x", false},
		{"@e3", false},
		{"100", false},
	}
	for _, tc := range tests {
		if got := LooksLikeSelector(tc.tok); got != tc.want {
			t.Errorf("LooksLikeSelector(%q) = %v, want %v", tc.tok, got, tc.want)
		}
	}
}

func TestSuggestSelectorRewrite(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, key, value, want string
	}{
		{"role word", "button", `"Push Article"`, `role=button label="Push Article"`},
		{"typo of label", "lable", "Done", `label="Done"`},
		{"typo of a boolean key", "visble", "true", `visible=true`},
		{"apostrophe key", "'label", "Done'", `label="Done'"`},
		{"unrelated key falls back to label", "caption", "'Hi there'", `label="Hi there"`},
		{"tilde operator", "label~", `"Wi-Fi"`, `label="Wi-Fi"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := SuggestSelectorRewrite(tc.key, tc.value); got != tc.want {
				t.Fatalf("SuggestSelectorRewrite(%q, %q) = %s, want %s", tc.key, tc.value, got, tc.want)
			}
		})
	}
}

func TestEditDistanceAndClosest(t *testing.T) {
	t.Parallel()
	dist := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"click", "click", 0}, {"clik", "click", 1}, {"kitten", "sitting", 3}, {"é", "e", 1}, {"", "abc", 3},
		// a transposition of two adjacent runes is one edit
		{"wiat", "wait", 1}, {"verison", "version", 1}, {"retris", "retries", 1}, {"ab", "ba", 1}, {"abc", "ca", 3},
	}
	for _, tc := range dist {
		if got := EditDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
	closest := []struct {
		word string
		max  int
		want string
		ok   bool
	}{
		{"clck", 2, "click", true},
		{"Snapshot", 1, "snapshot", true},
		{"zzzzzz", 2, "", false},
		{"x", 2, "", false}, // distance to "id" (2) is not smaller than the word
	}
	cands := []string{"click", "close", "snapshot", "id"}
	for _, tc := range closest {
		got, ok := Closest(tc.word, cands, tc.max)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Closest(%q) = %q, %v; want %q, %v", tc.word, got, ok, tc.want, tc.ok)
		}
	}
}

func BenchmarkParseSelectorChain(b *testing.B) {
	expr := `id="checkout-submit" || role="button" label="Place order" || label="Place order"`
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseSelectorChain(expr); err != nil {
			b.Fatal(err)
		}
	}
}
