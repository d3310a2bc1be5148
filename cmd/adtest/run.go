package main

import (
	"context"
	"fmt"
)

func runRun(ctx context.Context, env *Env) int {
	fmt.Fprintln(env.Stderr, "adtest: not implemented yet")
	return ExitUsage
}
