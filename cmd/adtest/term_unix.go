//go:build unix

package main

import (
	"syscall"
	"unsafe"
)

// termWidth is the column count of the terminal on fd (0 when unknown).
func termWidth(fd uintptr) int {
	var ws struct{ row, col, x, y uint16 }
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, uintptr(syscall.TIOCGWINSZ), uintptr(unsafe.Pointer(&ws))); errno != 0 {
		return 0
	}
	return int(ws.col)
}
