package runner

import "github.com/adtest/adtest/lang"

// StepEffect is a step's ref-frame effect, named for the journal and the
// trace.
type StepEffect string

const (
	StepMutation StepEffect = "mutation" // may invalidate the frame
	StepRead     StepEffect = "read"     // preserves it
	StepSnapshot StepEffect = "snapshot" // publishes a complete frame
	StepPartial  StepEffect = "partial"  // publishes refs into the frame (diff, a read-only find)
	StepNone     StepEffect = "none"     // delegated (replay)
)

// stepEffect is the registry's ref-frame effect of an action, named for
// the journal: resolved by sub-action (EffectOf), with what the command
// publishes to the frame.
func stepEffect(a *lang.Action) StepEffect {
	pub := lang.TraitsOf(a.Command).Publishes
	if pub == lang.PublishesFrame {
		return StepSnapshot
	}
	eff, _ := lang.EffectOf(a)
	switch eff {
	case lang.EffectMayInvalidate:
		return StepMutation
	case lang.EffectPreserve:
		if pub == lang.PublishesPartial {
			return StepPartial
		}
		return StepRead
	}
	return StepNone
}
