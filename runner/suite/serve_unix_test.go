//go:build unix

package suite

import (
	"os/exec"
	"testing"
	"time"
)

// A group whose members ignore SIGTERM is killed once the grace has passed;
// one that obeys it exits without SIGKILL. Either way nothing of the group
// is left.
func TestStopGroupEscalates(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, script string
	}{
		{"obeys SIGTERM", "sleep 600 & wait"},
		{"ignores SIGTERM", `trap "" TERM; sleep 600 & wait; sleep 600`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := exec.Command("sh", "-c", tc.script)
			setProcessGroup(c)
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- c.Wait() }()
			pgid := c.Process.Pid
			// Wait (bounded) for the forked sleep to join the group.
			deadline := time.Now().Add(10 * time.Second)
			for groupSize(pgid) < 2 {
				if time.Now().After(deadline) {
					t.Fatal("the command's child never started")
				}
				<-time.After(10 * time.Millisecond)
			}
			if err := stopGroup(pgid, exited, 300*time.Millisecond); err != nil {
				t.Fatal(err)
			}
			if groupAlive(pgid) {
				t.Fatalf("process group %d still has live members after stopGroup", pgid)
			}
		})
	}
}
