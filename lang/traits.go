package lang

import "fmt"

// Command traits: what the runner, the recorder, the daemon and the CLI need
// to know of a command, asked of the table (TraitsOf) instead of comparing
// its name. Each trait is set here, once, by naming the commands that have
// it; setting a trait of a command the table does not know panics at start-up.

// Traits are one command's traits.
type Traits struct {
	// Touch: the command acts on one element target, a ref, a point or a
	// selector (click, press, longpress, fill, focus, hover); its arguments
	// bind to TargetArgs, and a repair may change its target.
	Touch bool
	// Press: the command presses its target (click, press, longpress): a
	// press on an identity-empty container lands on its one actionable
	// child, so the recorder names that child.
	Press bool
	// TypesText: the command types text into its target, written as its
	// last positional (fill): the target must be editable, and the text is
	// what --record-as names and what an error shows as <text>.
	TypesText bool
	// ReadinessWait: a selector target is polled until it is on screen (the
	// readiness timeout) before its target-v1 evidence is verified (click,
	// press, longpress, fill).
	ReadinessWait bool
	// Mutating: every form of the command may change the screen (its
	// ref-frame effect is may-invalidate): a selector target resolves as a
	// mutation does. A conditional command is not (EffectOf says per action).
	Mutating bool
	// ReadOnly: the command cannot change the screen and does not wait for
	// it to change (get, is, snapshot, diff, appstate, screenshot, ...): a
	// selector target resolves as a read does. Derived from the effect:
	// preserve, and not Waits.
	ReadOnly bool
	// Waits: the command waits for the screen to change (wait): it preserves
	// the ref frame, yet what it waits for is a change.
	Waits bool
	// LabelAfter is the positional a ref target's trailing label follows
	// (click @e3 "Sign in": 0 for click, press and fill, 1 for get); -1:
	// the command takes no ref label.
	LabelAfter int
	// Publishes is what the command publishes to the ref frame: a complete
	// frame (snapshot) or a partial one (diff, find's reads).
	Publishes Publication
	// OpensSession: the command creates the session or brings it back
	// (open); it runs on a closed session.
	OpensSession bool
	// ClosesSession: the command ends the session (close).
	ClosesSession bool
	// Nests: the command stands for another script's steps (replay): a
	// replay keeps it in the plan and skips it.
	Nests bool
}

// Publication is what a command publishes to the ref frame.
type Publication uint8

const (
	PublishesNothing Publication = iota
	// PublishesFrame: a complete ref frame (snapshot).
	PublishesFrame
	// PublishesPartial: a partial publication, refs added to the frame
	// (diff snapshot, a read-only find).
	PublishesPartial
)

// TraitsOf returns the traits of a command; an unknown command has none
// (LabelAfter -1).
func TraitsOf(command string) Traits {
	if c, ok := commandIndex[command]; ok {
		return c.Traits
	}
	return Traits{LabelAfter: -1}
}

// trait sets one trait on the named commands.
func trait(set func(*Traits), commands ...string) {
	for _, name := range commands {
		c, ok := commandIndex[name]
		if !ok {
			panic(fmt.Sprintf("lang: a trait of %q, which the command table does not know", name))
		}
		set(&c.Traits)
	}
}

// labelAfter says that the commands' ref target, at positional slot, takes
// a label; a second slot for one command panics.
func labelAfter(slot int, commands ...string) {
	trait(func(t *Traits) {
		if t.LabelAfter >= 0 {
			panic("lang: two ref-label slots for one command")
		}
		t.LabelAfter = slot
	}, commands...)
}

// registerTraits sets every command's traits (registry.go's init, once the
// table is indexed).
func registerTraits() {
	for _, c := range Commands {
		c.Traits = Traits{LabelAfter: -1, Mutating: c.Effect == EffectMayInvalidate}
	}
	trait(func(t *Traits) { t.Touch = true }, "click", "press", "longpress", "fill", "focus", "hover")
	trait(func(t *Traits) { t.Press = true }, "click", "press", "longpress")
	trait(func(t *Traits) { t.TypesText = true }, "fill")
	trait(func(t *Traits) { t.ReadinessWait = true }, "click", "press", "longpress", "fill")
	trait(func(t *Traits) { t.Waits = true }, "wait")
	labelAfter(0, "click", "press", "fill")
	labelAfter(1, "get")
	trait(func(t *Traits) { t.Publishes = PublishesFrame }, "snapshot")
	trait(func(t *Traits) { t.Publishes = PublishesPartial }, "diff", "find")
	trait(func(t *Traits) { t.OpensSession = true }, "open")
	trait(func(t *Traits) { t.ClosesSession = true }, "close")
	trait(func(t *Traits) { t.Nests = true }, "replay")
	for _, c := range Commands {
		c.Traits.ReadOnly = c.Effect == EffectPreserve && !c.Traits.Waits
	}
}
