package lang

// STUB (owned by the lang-parser work): the one command table. The types and
// function signatures below are the contract other packages build against;
// the implementation fills Commands from spec §2.2.

// Effect is a command's ref-frame effect (ADR 0014).
type Effect int

const (
	EffectPreserve      Effect = iota // reads: never expire a frame
	EffectMayInvalidate               // mutations: expire at the side-effect seam
	EffectConditional                 // per sub-action (keyboard, alert, find): see EffectOf
	EffectDelegated                   // orchestrators (replay, test, batch): each step decides
)

func (e Effect) String() string {
	switch e {
	case EffectPreserve:
		return "preserve"
	case EffectMayInvalidate:
		return "may-invalidate"
	case EffectConditional:
		return "conditional"
	case EffectDelegated:
		return "delegated"
	}
	return "unknown"
}

// CommandSpec is one row of the command table.
type CommandSpec struct {
	Name      string
	Usage     string // script form, e.g. "click <@ref [label] | x y | selector> [flags]"
	Summary   string
	Effect    Effect
	Recorded  string   // "y", "n" or "obs"
	Platforms []string // platforms the command exists on; empty = all
}

// Commands is the command table, sorted by name.
var Commands []*CommandSpec

// LookupCommand returns the spec of a command word.
func LookupCommand(name string) (*CommandSpec, bool) {
	for _, c := range Commands {
		if c.Name == name {
			return c, true
		}
	}
	return nil, false
}

// EffectOf returns the ref-frame effect of one action, resolving conditional
// commands by sub-action: keyboard status|get and alert get|wait preserve,
// other sub-actions may invalidate; find's read sub-actions preserve, its
// click|focus|fill|type sub-actions may invalidate. Unknown commands return
// EffectMayInvalidate (the safe side) and false.
func EffectOf(a *Action) (Effect, bool) {
	c, ok := LookupCommand(a.Command)
	if !ok {
		return EffectMayInvalidate, false
	}
	return c.Effect, true
}
