package main

import (
	"context"
	"fmt"
)

func runHelp(ctx context.Context, env *Env) int {
	fmt.Fprintln(env.Stderr, "adtest: not implemented yet")
	return ExitUsage
}
