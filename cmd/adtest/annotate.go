package main

import (
	"context"

	"github.com/adtest/adtest/runner/suite"
)

// annotateConfig is the suite's annotate configuration (nil without
// --annotate); --apply writes the annotations into the scripts.
func (r *repairFlags) annotateConfig() *suite.AnnotateConfig {
	if !r.annotate {
		return nil
	}
	return &suite.AnnotateConfig{Apply: r.apply}
}

// runAnnotate is `adtest annotate PATH...`: run with --annotate on the
// named files.
func runAnnotate(ctx context.Context, env *Env) int {
	env.Args = append([]string{"--annotate"}, env.Args...)
	return runRun(ctx, env)
}
