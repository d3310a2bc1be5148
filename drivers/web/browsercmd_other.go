//go:build !linux

package web

import (
	"os/exec"
	"syscall"
)

// browserCmd makes Chromium the leader of a process group of its own
// (browserGroupFile). Only Linux has the parent-death signal.
func browserCmd(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}
