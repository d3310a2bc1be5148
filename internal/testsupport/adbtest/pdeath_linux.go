package adbtest

import (
	"os/exec"
	"syscall"
)

// dieWithParent kills the server when the process that started it dies,
// so a crashed or killed test leaves no adb server behind.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
