package lang

import "testing"

func TestTraitsOf(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		command string
		want    Traits
	}{
		{"click", Traits{Touch: true, Press: true, ReadinessWait: true, Mutating: true, LabelAfter: 0}},
		{"longpress", Traits{Touch: true, Press: true, ReadinessWait: true, Mutating: true, LabelAfter: -1}},
		{"fill", Traits{Touch: true, TypesText: true, ReadinessWait: true, Mutating: true, LabelAfter: 0}},
		// hover and focus act on a target without a readiness wait.
		{"hover", Traits{Touch: true, Mutating: true, LabelAfter: -1}},
		{"get", Traits{ReadOnly: true, LabelAfter: 1}},
		{"is", Traits{ReadOnly: true, LabelAfter: -1}},
		// wait preserves the frame but is not read-only: it waits for a change.
		{"wait", Traits{Waits: true, LabelAfter: -1}},
		{"snapshot", Traits{ReadOnly: true, Publishes: PublishesFrame, LabelAfter: -1}},
		{"diff", Traits{ReadOnly: true, Publishes: PublishesPartial, LabelAfter: -1}},
		// find is conditional: neither mutating nor read-only as a command.
		{"find", Traits{Publishes: PublishesPartial, LabelAfter: -1}},
		{"open", Traits{OpensSession: true, Mutating: true, LabelAfter: -1}},
		{"close", Traits{ClosesSession: true, Mutating: true, LabelAfter: -1}},
		{"replay", Traits{Nests: true, LabelAfter: -1}},
		{"no-such-command", Traits{LabelAfter: -1}},
	} {
		if got := TraitsOf(tc.command); got != tc.want {
			t.Errorf("TraitsOf(%q) = %+v, want %+v", tc.command, got, tc.want)
		}
	}
}

// A trait names commands of the table; a typo is a start-up panic.
func TestTraitOfUnknownCommandPanics(t *testing.T) {
	t.Parallel()
	defer func() {
		if recover() == nil {
			t.Error("trait of an unknown command did not panic")
		}
	}()
	trait(func(*Traits) {}, "clik")
}

// Every Touch command binds to TargetArgs: the recorder and the repair read
// its target from there.
func TestTouchCommandsBindTargets(t *testing.T) {
	t.Parallel()
	for _, c := range Commands {
		if !c.Traits.Touch {
			continue
		}
		a := &Action{Command: c.Name, Positionals: []string{"@e1", "text"}}
		if c.Traits.LabelAfter < 0 && !c.Traits.TypesText {
			a.Positionals = a.Positionals[:1]
		}
		args, err := Bind(a)
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		if _, ok := args.(TargetArgs); !ok {
			t.Errorf("%s binds to %T, not TargetArgs", c.Name, args)
		}
	}
}
