package main

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/adtest/adtest/cmd/internal/cmdline"
	"github.com/adtest/adtest/runner/repair"
	"github.com/adtest/adtest/runner/suite"
)

// repairFlags are run's --repair flags.
type repairFlags struct {
	on, apply          bool
	annotate           bool // --annotate (annotate.go)
	maxTries, maxSteps int
}

func (r *repairFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&r.on, "repair", false, "on a target divergence (selector miss, ambiguous, stale, target-v1 mismatch) try the matcher's candidates on the live session and write a verified repairs/<file>.patch; the test stays failed")
	fs.BoolVar(&r.apply, "apply", false, "with --repair or --annotate: also write each verified repair or the annotations into its script (atomically)")
	fs.BoolVar(&r.annotate, "annotate", false, "on a passed test, write above each step that resolved a selector the target-v1 line of the element it acted on, as annotations/<file>.patch (the evidence a later repair stands on)")
	fs.IntVar(&r.maxTries, "repair-max-tries", repair.DefaultMaxTries, "with --repair: candidates tried per diverged step (`N`)")
	fs.IntVar(&r.maxSteps, "repair-max-steps", repair.DefaultMaxSteps, "with --repair: steps repaired per script (`N`)")
}

// config is the suite's repair configuration (nil without --repair).
func (r *repairFlags) config() *suite.RepairConfig {
	if !r.on && (!r.apply || r.annotate) {
		return nil
	}
	return &suite.RepairConfig{MaxTries: r.maxTries, MaxSteps: r.maxSteps, Apply: r.apply}
}

// runRepair is `adtest repair PATH...`: run with --repair on the named files.
func runRepair(ctx context.Context, env *Env) int {
	var f runFlags
	if _, err := readFlags(runFlagSet(&f, env.Stderr), env.Args, hiddenFlagNames()...); errors.Is(err, cmdline.ErrHelp) {
		fmt.Fprintln(env.Stdout, "usage: adtest repair [flags] PATH...   (adtest run --repair: files, directories, globs)")
		fmt.Fprintln(env.Stdout, "\nRuns the scripts; a step that diverged for a target reason (a selector that misses, an")
		fmt.Fprintln(env.Stdout, "ambiguous match, a stale target, target-v1 evidence that no longer matches) is retried with")
		fmt.Fprintln(env.Stdout, "the matcher's candidates on the live session, and a repair verified by a re-run from the")
		fmt.Fprintln(env.Stdout, "start is written as repairs/<file>.patch (--apply: into the script). The test stays failed.")
		writeRunFlags(env.Stdout, runFlagSet(&f, env.Stderr))
		return ExitOK
	}
	env.Args = append([]string{"--repair"}, env.Args...)
	return runRun(ctx, env)
}
