package main

import "context"

// dropInExit is the one exit mapping of the agent-device drop-ins (replay
// and test): agent-device's 0 and 1, except that a command whose context
// was interrupted (Ctrl-C, SIGTERM) before it succeeded exits 130,
// whatever path it failed on, as adtest's own commands do. code is adtest's exit code of the command.
func dropInExit(ctx context.Context, code int) int {
	switch {
	case code == ExitOK:
		return ExitOK
	case code == ExitInterrupted || ctx.Err() != nil:
		return ExitInterrupted
	}
	return ExitFailed
}
