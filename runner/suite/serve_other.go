//go:build !unix

package suite

import (
	"os"
	"os/exec"
	"time"
)

// setProcessGroup does nothing where there are no process groups.
func setProcessGroup(c *exec.Cmd) {}

// stopGroup kills the command itself where there are no process groups.
func stopGroup(pid int, exited <-chan error, grace time.Duration) error {
	if p, err := os.FindProcess(pid); err == nil {
		p.Kill()
	}
	<-exited
	return nil
}
