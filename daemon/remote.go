package daemon

import (
	"fmt"
	"net"
	"strings"
)

// The TCP listener (Config.Listen) carries the token and every request,
// typed text included, in clear. adtest does not put that on a network: it
// listens on a loopback address only, and a remote client reaches it through
// a tunnel that encrypts (`ssh -L 7777:127.0.0.1:7777 host`). Only
// Config.AllowRemote (`adtest daemon serve --listen-remote-insecure`, for a
// network the user trusts, such as a private container network) lifts that.

// ErrRemoteListen is the refusal of a non-loopback --listen.
type ErrRemoteListen struct{ Addr string }

func (e *ErrRemoteListen) Error() string {
	return fmt.Sprintf("--listen %s is not a loopback address: the daemon's TCP traffic (the token, typed text) is not encrypted, so it listens on 127.0.0.1 or [::1] only; "+
		"reach it from another machine through an SSH tunnel (ssh -L PORT:127.0.0.1:PORT HOST), "+
		"or pass --listen-remote-insecure to accept clear-text traffic on a network you trust", e.Addr)
}

// checkListen refuses a --listen address that is not loopback unless
// allowRemote: an empty host (all interfaces), 0.0.0.0, a non-loopback IP or
// any host name but localhost.
func checkListen(addr string, allowRemote bool) error {
	if allowRemote {
		return nil
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--listen %s: want HOST:PORT (such as 127.0.0.1:7777): %v", addr, err)
	}
	if strings.EqualFold(host, "localhost") {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return &ErrRemoteListen{Addr: addr}
}
