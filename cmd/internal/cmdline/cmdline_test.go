package cmdline

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"testing"
)

// strict is agent-device's kind of command line.
var strict = &Set{Flags: []Flag{
	{Name: "env", Short: "e", Kind: Value},
	{Name: "from", Kind: Value},
	{Name: "json", Kind: Bool},
	{Name: "save-script", Kind: OptPath},
	{Name: "retries", Kind: Value},
	{Name: "secret-knob", Kind: Bool, Hidden: true},
}}

// show renders what a line read as: the settings (name=value, or name
// alone), then the positionals after a |.
func show(a *Args) string {
	var out []string
	for _, s := range a.Settings {
		if s.HasValue {
			out = append(out, s.As+"="+s.Value)
		} else {
			out = append(out, s.As)
		}
	}
	return strings.Join(out, " ") + " | " + strings.Join(a.Pos, " ")
}

func TestParse(t *testing.T) {
	t.Parallel()
	keepText := &Set{Flags: []Flag{{Name: "session", Kind: Value}}, Keep: func(a string) bool { return !strings.HasPrefix(a, "--") || a == "--count" },
		Suggest: []string{"--count"}}
	loose := &Set{AnyDashes: true, Flags: []Flag{{Name: "workers", Short: "j", Kind: Value}, {Name: "fail-fast", Kind: Bool}}}
	for _, tc := range []struct {
		name string
		set  *Set
		args []string
		want string // show(), or the error
	}{
		{"flags and paths interleaved", strict, []string{"a.ad", "-e", "A=1", "b.ad", "--from=2", "--json"}, "-e=A=1 --from=2 --json | a.ad b.ad"},
		{"-- ends the flags", strict, []string{"--json", "--", "--odd", "-e"}, "--json | --odd -e"},
		{"a lone dash is a path", strict, []string{"-"}, " | -"},
		{"a value may start with a dash", strict, []string{"--from", "-1"}, "--from=-1 | "},
		{"optional path after a space", strict, []string{"--save-script", "./k.ad", "app"}, "--save-script=./k.ad | app"},
		{"optional path never swallows an app", strict, []string{"--save-script", "com.example.app"}, "--save-script | com.example.app"},
		{"optional path with =", strict, []string{"--save-script=k"}, "--save-script=k | "},
		{"optional path with = and nothing", strict, []string{"--save-script="}, "--save-script= needs a path (or write --save-script alone for the default path)"},
		{"missing value", strict, []string{"a.ad", "--from"}, "--from needs a value"},
		{"missing value as written", strict, []string{"-e"}, "-e needs a value"},
		{"bool takes no value", strict, []string{"--json=1"}, "--json takes no value"},
		{"did you mean", strict, []string{"--retires", "2"}, "unknown flag --retires (did you mean --retries?)"},
		{"one dash as written", strict, []string{"-retires"}, "unknown flag -retires (did you mean --retries?)"},
		{"the value is never echoed", strict, []string{"--retires=hunter2"}, "unknown flag --retires (did you mean --retries?)"},
		{"a long flag takes two dashes", strict, []string{"-from", "2"}, "unknown flag -from (did you mean --from?)"},
		{"a short flag takes one", strict, []string{"--e", "A=1"}, "unknown flag --e (did you mean -e?)"},
		{"three dashes", strict, []string{"---json"}, "unknown flag ---json (did you mean --json?)"},
		{"hidden flags are read", strict, []string{"--secret-knob"}, "--secret-knob | "},
		{"hidden flags are not offered", strict, []string{"--secret-knb"}, "unknown flag --secret-knb"},
		{"kept as typed", keepText, []string{"@e1", "--count", "2", "-i", "--session", "s"}, "--session=s | @e1 --count 2 -i"},
		{"kept only when asked", keepText, []string{"--cuont", "2"}, "unknown flag --cuont (did you mean --count?)"},
		{"the flag package's forms", loose, []string{"-workers", "2", "--j=3", "-fail-fast=false", "x"}, "-workers=2 --j=3 -fail-fast=false | x"},
		{"a bool's value is true or false", loose, []string{"--fail-fast=maybe"}, `invalid value "maybe" for flag --fail-fast: want true or false`},
	} {
		a, err := tc.set.Parse(tc.args)
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			got = show(a)
		}
		if got != tc.want {
			t.Errorf("%s: %q\n got %s\nwant %s", tc.name, tc.args, got, tc.want)
		}
	}
}

func TestArgs(t *testing.T) {
	t.Parallel()
	a, err := strict.Parse([]string{"-e", "A=1", "--env", "B=2", "--from", "3", "--from=4"})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%v %s %s %v %q %s", a.All("env"), a.Last("from"), a.As("from"), a.Has("json"), a.Last("json"), a.As("json")); got != `[A=1 B=2] 4 --from false "" --json` {
		t.Errorf("got %s", got)
	}
	b, err := (&Set{AnyDashes: true, Flags: []Flag{{Name: "x", Kind: Bool}, {Name: "y", Kind: Bool}, {Name: "z", Kind: Bool}}}).Parse([]string{"-x", "-y=false", "-z=true", "-z=0"})
	if err != nil {
		t.Fatal(err)
	}
	if b.Bool("x") != true || b.Bool("y") != false || b.Bool("z") != false || b.Bool("w") != false {
		t.Errorf("Bool: x=%v y=%v z=%v w=%v", b.Bool("x"), b.Bool("y"), b.Bool("z"), b.Bool("w"))
	}
}

func TestFlagSet(t *testing.T) {
	t.Parallel()
	newFS := func() (*flag.FlagSet, *int, *bool, *string) {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		return fs, fs.Int("workers", 1, ""), fs.Bool("fail-fast", false, ""), fs.String("fake-device", "", "")
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"bound in order", []string{"a", "--workers", "2", "-fail-fast", "b", "-workers=3"}, "workers=3 fail-fast=true [a b]"},
		{"a bool set false", []string{"--fail-fast", "--fail-fast=false"}, "workers=1 fail-fast=false []"},
		{"help", []string{"x", "-h"}, "help requested"},
		{"help spelt out", []string{"-help"}, "help requested"},
		{"a refused value names the flag as written", []string{"-workers", "many"}, `invalid value "many" for flag -workers: parse error`},
		{"unknown", []string{"--workres", "2"}, "unknown flag --workres (did you mean --workers?)"},
		{"hidden is read", []string{"--fake-device", "s.txt"}, "workers=1 fail-fast=false []"},
		{"hidden is not offered", []string{"--fake-devise"}, "unknown flag --fake-devise"},
	} {
		fs, workers, failFast, _ := newFS()
		a, err := FlagSet(fs, "fake-device").Parse(tc.args)
		if err == nil {
			err = a.Apply(fs)
		}
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			got = fmt.Sprintf("workers=%d fail-fast=%v %v", *workers, *failFast, a.Pos)
		}
		if got != tc.want {
			t.Errorf("%s: %q\n got %s\nwant %s", tc.name, tc.args, got, tc.want)
		}
		if tc.want == "help requested" && !errors.Is(err, ErrHelp) {
			t.Errorf("%s: %v is not ErrHelp", tc.name, err)
		}
	}
}

func TestMentions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"x", "--json"}, true},
		{[]string{"--bogus", "--json=true"}, true},
		{[]string{"--", "--json"}, false},
		{[]string{"-json"}, false},
	} {
		if got := Mentions(tc.args, "json"); got != tc.want {
			t.Errorf("Mentions(%q) = %v", tc.args, got)
		}
	}
}
