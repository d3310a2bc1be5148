package web

import (
	"os/exec"
	"syscall"
)

// browserCmd prepares the command that starts Chromium: killed by the kernel
// when the thread that started it ends (chromedp's default, which starts it
// from a locked thread that lives as long as the browser), and the leader
// of a process group of its own, which every process it starts joins
// (browserGroupFile).
func browserCmd(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	cmd.SysProcAttr.Setpgid = true
}
