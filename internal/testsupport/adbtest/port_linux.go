package adbtest

import (
	"net"
	"strconv"
	"sync"
)

// held keeps this process's port reservations open until it exits.
var held struct {
	sync.Mutex
	ls []net.Listener
}

// reserve claims port for this process among FreePort's callers on the
// machine: a listening abstract unix socket "@adtest-port-N". It fails when
// another process (or this one) holds it already.
func reserve(port int) bool {
	ln, err := net.Listen("unix", "@adtest-port-"+strconv.Itoa(port))
	if err != nil {
		return false
	}
	held.Lock()
	held.ls = append(held.ls, ln)
	held.Unlock()
	return true
}
