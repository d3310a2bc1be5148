package runner

import (
	"context"
	"reflect"
	"testing"

	"github.com/adtest/adtest/lang"
)

// A step's effect is the command's ref-frame effect resolved by
// sub-action, with what it publishes to the frame.
func TestStepEffect(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		line string
		want StepEffect
	}{
		{"snapshot -i", StepSnapshot},
		{"diff snapshot", StepPartial},
		{`find text "Sign in"`, StepMutation},    // find's default sub-action clicks
		{`find text "Sign in" get`, StepPartial}, // a read-only find publishes its ref
		{"click @e1", StepMutation},
		{"get text @e1", StepRead},
		{"wait 100", StepRead},
		{"keyboard status", StepRead},
		{"keyboard dismiss", StepMutation},
		{"replay other.ad", StepNone},
	} {
		a := parseScript(t, tc.line+"\n").Actions[0]
		if got := stepEffect(a); got != tc.want {
			t.Errorf("%s: effect %q, want %q", tc.line, got, tc.want)
		}
	}
}

// The journal entry carries the step's binding (of the action as bound,
// after interpolation), so a listener reads it instead of binding again;
// a binding handed to Step is the one used when interpolation leaves the
// action as it is.
func TestJournalEntryCarriesTheBinding(t *testing.T) {
	t.Parallel()
	e, j := journalEnv(t)
	scope := &lang.Scope{CLI: map[string]string{"EMAIL": "ada@example.com"}}
	script := parseScript(t, "open demo\nfill id=email ${EMAIL}\nsnapshot -i\nswipe 1 2 3\n")
	e.sess.Replay(context.Background(), script, ReplayOptions{Scope: scope})
	if len(j.entries) != 4 {
		t.Fatalf("%d entries, want 4", len(j.entries))
	}
	for i, en := range j.entries[:3] {
		want, err := lang.Bind(en.Bound)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(en.Args, want) {
			t.Errorf("step %d: Args %+v, want %+v", i+1, en.Args, want)
		}
	}
	if fill, ok := j.entries[1].Args.(lang.TargetArgs); !ok || fill.Text != "ada@example.com" {
		t.Errorf("fill's binding is of the written action, not the bound one: %+v", j.entries[1].Args)
	}
	if en := j.entries[3]; en.Error == nil || en.Args != nil {
		t.Errorf("a step that does not bind: error %v, Args %+v", en.Error, en.Args)
	}

	// Given a binding, Step does not bind the action again.
	a := parseScript(t, "get text id=email\n").Actions[0]
	given := lang.GetArgs{Sub: "text", Target: lang.Target{Kind: lang.TargetSelector, Raw: "id=email"}}
	given.Target.Selector, _ = lang.ParseSelectorChain("id=signin")
	if _, ei := e.sess.Step(context.Background(), a, StepOptions{Args: given}); ei != nil {
		t.Fatal(ei)
	}
	last := j.entries[len(j.entries)-1]
	if got, ok := last.Args.(lang.GetArgs); !ok || got.Target.Selector.Raw != "id=signin" {
		t.Errorf("Step bound the action again: %+v", last.Args)
	}
}
