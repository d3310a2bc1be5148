package main

import (
	"context"
	"flag"

	"github.com/adtest/adtest/runner/repair"
	"github.com/adtest/adtest/runner/suite"
)

// repairFlags are run's --repair flags.
type repairFlags struct {
	on, apply          bool
	maxTries, maxSteps int
}

func (r *repairFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&r.on, "repair", false, "on a target divergence (selector miss, ambiguous, stale, target-v1 mismatch) try the matcher's candidates on the live session and write a verified repairs/<file>.patch; the test stays failed")
	fs.BoolVar(&r.apply, "apply", false, "with --repair: also write each verified repair into its script (atomically)")
	fs.IntVar(&r.maxTries, "repair-max-tries", repair.DefaultMaxTries, "with --repair: candidates tried per diverged step (`N`)")
	fs.IntVar(&r.maxSteps, "repair-max-steps", repair.DefaultMaxSteps, "with --repair: steps repaired per script (`N`)")
}

// config is the suite's repair configuration (nil without --repair).
func (r *repairFlags) config() *suite.RepairConfig {
	if !r.on && !r.apply {
		return nil
	}
	return &suite.RepairConfig{MaxTries: r.maxTries, MaxSteps: r.maxSteps, Apply: r.apply}
}

// runRepair is `adtest repair PATH...`: run with --repair on the named files.
func runRepair(ctx context.Context, env *Env) int {
	env.Args = append([]string{"--repair"}, env.Args...)
	return runRun(ctx, env)
}
