package lang

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/adtest/adtest/drivers"
)

func TestInterpolateCorpus(t *testing.T) {
	t.Parallel()
	var cases []struct {
		ID     string            `json:"id"`
		Input  string            `json:"input"`
		Scope  map[string]string `json:"scope"`
		Output *string           `json:"output"`
		Error  *vtFixtureError   `json:"error"`
	}
	if err := json.Unmarshal(parseCaseSections(t)["vars"], &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) != 16 {
		t.Fatalf("fixture has %d variable cases, want 16", len(cases))
	}
	for _, tc := range cases {
		t.Run(tc.ID, func(t *testing.T) {
			s := &Scope{Script: tc.Scope}
			got, err := s.Interpolate(tc.Input, "flow.ad", 7)
			if vtWantFixtureError(t, got, err, tc.Error) {
				return
			}
			if got != *tc.Output {
				t.Fatalf("got %q, want %q", got, *tc.Output)
			}
		})
	}
}

func TestInterpolate(t *testing.T) {
	t.Parallel()
	scope := &Scope{
		CLI:      map[string]string{"A": "cli"},
		Process:  map[string]string{"A": "proc", "B": "proc"},
		Script:   map[string]string{"A": "env", "B": "env", "C": "env"},
		BuiltIns: map[string]string{"AD_PLATFORM": "web", "C": "builtin"},
	}
	tests := []struct {
		name, in, want, err string
	}{
		{name: "cli wins", in: "${A}", want: "cli"},
		{name: "process beats env", in: "${B}", want: "proc"},
		{name: "env beats built-in", in: "${C}", want: "env"},
		{name: "built-in", in: "${AD_PLATFORM}", want: "web"},
		{name: "double backslash before ${ keeps one", in: `\\${A}`, want: `\${A}`},
		{name: "unterminated reference stays literal", in: "${A", want: "${A"},
		{name: "fallback with escaped backslash", in: `${X:-a\\b}`, want: `a\b`},
		{name: "fallback with brace inside needs escape", in: "${X:-a}b}", want: "ab}"},
		{name: "space in name is not a reference", in: "${A B}", want: "${A B}"},
		{name: "missing colon is not a fallback", in: "${X-1}", want: "${X-1}"},
		{name: "no re-scan of fallback", in: "${X:-$}{A}", want: "${A}"},
		{name: "unresolved after a resolved one", in: "${A} ${NOPE}", err: "Unresolved variable ${NOPE} at dir/f.ad:3."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := scope.Interpolate(tc.in, "dir/f.ad", 3)
			if tc.err != "" {
				if err == nil {
					t.Fatalf("got %q, want error", got)
				}
				if e := vtAsError(t, err); e.Message != tc.err || e.Code != "INVALID_ARGS" || e.Error() != tc.err {
					t.Fatalf("error = %s %q (%q), want %q", e.Code, e.Message, e.Error(), tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func TestVarRefs(t *testing.T) {
	t.Parallel()
	got := VarRefs(`open ${APP} \${NOT} ${WAIT:-5\}0} ${1X} ${output.sum}`)
	want := []VarRef{
		{Name: "APP", Start: 5, End: 11},
		{Name: "WAIT", HasFallback: true, Fallback: "5}0", Start: 20, End: 33},
		{Name: "output.sum", Start: 40, End: 53},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("VarRefs = %+v\nwant      %+v", got, want)
	}
	if refs := VarRefs("plain $A text"); refs != nil {
		t.Fatalf("VarRefs(plain) = %+v, want none", refs)
	}
}

func TestParseCLIVars(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   []string
		want map[string]string
		err  string
	}{
		{"split at first =", []string{"URL=a=b", "EMPTY="}, map[string]string{"URL": "a=b", "EMPTY": ""}, ""},
		{"later entry wins", []string{"A=1", "A=2"}, map[string]string{"A": "2"}, ""},
		{"no =", []string{"APP"}, nil, `Invalid -e entry "APP": expected KEY=VALUE.`},
		{"empty key", []string{"=x"}, nil, `Invalid -e entry "=x": expected KEY=VALUE.`},
		{"lower-case key", []string{"app=x"}, nil, `Invalid -e key "app": keys must be uppercase letters, digits, and underscores (e.g. APP_ID).`},
		{"reserved", []string{"AD_FOO=1"}, nil, "The AD_* namespace is reserved for built-in variables. Rename AD_FOO to avoid the AD_ prefix."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseCLIVars(tc.in)
			if tc.err != "" {
				if err == nil {
					t.Fatalf("got %v, want error", got)
				}
				if e := vtAsError(t, err); e.Message != tc.err || e.Code != "INVALID_ARGS" {
					t.Fatalf("error = %s %q, want %q", e.Code, e.Message, tc.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

func TestProcessVars(t *testing.T) {
	t.Parallel()
	got := ProcessVars([]string{"AD_VAR_APP=com.x", "AD_VAR_=skip", "AD_VAR_lower=skip", "AD_VAR_AD_SESSION=skip",
		"PATH=/bin", "AD_VAR_URL=a=b", "AD_VARX=skip", "AD_VAR_NOEQ"})
	want := map[string]string{"APP": "com.x", "URL": "a=b"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ProcessVars = %v, want %v", got, want)
	}
}

func TestIsSecretName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		want bool
	}{
		{"API_TOKEN", true}, {"password", true}, {"ClientSecret", true}, {"SSH_KEY_PATH", true}, {"MONKEY", true},
		{"APP_ID", false}, {"EMAIL", false}, {"AD_BASE_URL", false},
	}
	for _, tc := range tests {
		if got := IsSecretName(tc.name); got != tc.want {
			t.Errorf("IsSecretName(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestRedact(t *testing.T) {
	t.Parallel()
	vars := map[string]string{"PASS": "hunter2", "LONG": "hunter22", "EMPTY": "", "V": "var"}
	// The one masker (drivers.Masker) replaced lang.Redact; its rule holds.
	got := drivers.NewMasker(nil, vars).String("typed hunter22 then hunter2 into var")
	want := "typed <var:LONG> then <var:PASS> into <var:V>"
	if got != want {
		t.Fatalf("Redact = %q, want %q", got, want)
	}
	if len(BuiltInNames) != 10 || !IsBuiltInName("AD_BASE_URL") || IsBuiltInName("APP") {
		t.Fatalf("BuiltInNames = %v", BuiltInNames)
	}
}

func BenchmarkInterpolate(b *testing.B) {
	s := &Scope{Script: map[string]string{"APP": "com.example.app", "EMAIL": "ada@example.com"}}
	text := `fill "label=Email" ${EMAIL} for ${APP} at ${HOST:-localhost} \${literal}`
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Interpolate(text, "f.ad", 1); err != nil {
			b.Fatal(err)
		}
	}
}
