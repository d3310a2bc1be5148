package lang

import (
	"os"
	"path/filepath"
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
