package main

import (
	"context"
	"strings"
	"testing"

	"github.com/adtest/adtest/daemon"
	"github.com/adtest/adtest/lang"
)

// TestInteractiveCommandsFromTable: the CLI's session commands are exactly
// the table's interactive rows, and help lists them.
func TestInteractiveCommandsFromTable(t *testing.T) {
	cmds := commands()
	var fromTable []string
	for _, c := range lang.Commands {
		if c.Interactive {
			fromTable = append(fromTable, c.Name)
			if !cmds[c.Name].interactive {
				t.Errorf("%s is interactive in the table but not an adtest command", c.Name)
			}
		}
	}
	if len(fromTable) != 22 {
		t.Errorf("want the 22 interactive commands of the issue, got %d: %v", len(fromTable), fromTable)
	}
	code, out, _ := runMain(t, t.TempDir(), "help")
	if code != 0 || !strings.Contains(out, "interactive session commands") || !strings.Contains(out, "\n  screenshot ") {
		t.Fatalf("help does not list the interactive commands:\n%s", out)
	}
}

// An interrupted client's error says what to do next, like every other.
func TestClientErrorInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	e := daemon.ClientError(ctx, &daemon.Client{Dir: t.TempDir()}, ctx.Err())
	if e.Reason != "cancelled" || e.Hint == "" {
		t.Fatalf("got %+v, want reason cancelled with a hint", e)
	}
	if got := e.Exit(); got != ExitInterrupted {
		t.Fatalf("exit %d, want %d", got, ExitInterrupted)
	}
}
