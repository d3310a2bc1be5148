//go:build unix

package suite

import "syscall"

const openNonBlock = syscall.O_NONBLOCK
