package suite

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/adtest/adtest/internal/proc"
)

// port is the TCP endpoint a --web-server URL names, and who listens there.
type port struct {
	host string
	num  int
	ips  []net.IP // what host resolves to; nil: any address on the port
}

// urlPort reads the host and port of rawURL (80 or 443 when it names none).
func urlPort(ctx context.Context, rawURL string) (port, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return port{}, fmt.Errorf("--web-server-url %q is not a URL with a host", rawURL)
	}
	p := port{host: u.Hostname()}
	switch {
	case u.Port() != "":
		n, err := strconv.Atoi(u.Port())
		if err != nil || n <= 0 || n > 65535 {
			return port{}, fmt.Errorf("--web-server-url %q: bad port %q", rawURL, u.Port())
		}
		p.num = n
	case u.Scheme == "https":
		p.num = 443
	default:
		p.num = 80
	}
	rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if ip := net.ParseIP(p.host); ip != nil {
		p.ips = []net.IP{ip}
	} else if addrs, err := net.DefaultResolver.LookupIPAddr(rctx, p.host); err == nil {
		for _, a := range addrs {
			p.ips = append(p.ips, a.IP)
		}
	}
	return p, nil
}

func (p port) addr() string { return net.JoinHostPort(p.host, strconv.Itoa(p.num)) }

// listeners are the listening sockets (/proc) that serve p: bound to one
// of its addresses or to every address. Nil where /proc does not say.
func (p port) listeners() []proc.Listener {
	var out []proc.Listener
	for _, l := range proc.TCPListeners(p.num) {
		if l.IP.IsUnspecified() || len(p.ips) == 0 {
			out = append(out, l)
			continue
		}
		for _, ip := range p.ips {
			if l.IP.Equal(ip) {
				out = append(out, l)
				break
			}
		}
	}
	return out
}

// bound reports whether something already listens at p: a listening socket
// in /proc, or (where /proc does not say) a TCP connect that succeeds.
func (p port) bound(ctx context.Context) bool {
	if len(p.listeners()) > 0 {
		return true
	}
	d := net.Dialer{Timeout: time.Second}
	c, err := d.DialContext(ctx, "tcp", p.addr())
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// ownedBy tells whether a listening socket of p belongs to the process
// group pgid or a descendant of its leader. known is false where /proc
// shows no listener on p (another system, a sandbox): then only the
// port's being free before the command started speaks for it.
func (p port) ownedBy(pgid int) (owned, known bool) {
	ls := p.listeners()
	if len(ls) == 0 {
		return false, false
	}
	mine := map[int]bool{pgid: true}
	for _, q := range proc.All() {
		if q.PGRP == pgid {
			mine[q.PID] = true
		}
	}
	for _, q := range proc.Descendants(pgid) {
		mine[q.PID] = true
	}
	pids := make([]int, 0, len(mine))
	for pid := range mine {
		pids = append(pids, pid)
	}
	for _, l := range ls {
		if len(proc.SocketOwners(l.Inode, pids)) > 0 {
			return true, true
		}
	}
	return false, true
}

// holders names the processes that listen at p: "pid 123 (python3 -m
// http.server 8080)", or the socket's user where its process cannot be
// read. Empty where /proc does not say.
func (p port) holders() string {
	var out []string
	seen := map[int]bool{}
	for _, l := range p.listeners() {
		owners := proc.SocketOwners(l.Inode, nil)
		if len(owners) == 0 {
			out = append(out, fmt.Sprintf("a process of uid %d this user cannot inspect", l.UID))
			continue
		}
		for _, pid := range owners {
			if seen[pid] {
				continue
			}
			seen[pid] = true
			desc := fmt.Sprintf("pid %d", pid)
			if args := proc.Args(pid); len(args) > 0 {
				desc += " (" + shortCommand(strings.Join(args, " ")) + ")"
			}
			out = append(out, desc)
		}
	}
	return strings.Join(out, ", ")
}

// shortCommand keeps a command line readable in one error line.
func shortCommand(s string) string {
	const max = 200
	if r := []rune(s); len(r) > max {
		return string(r[:max]) + "…"
	}
	return s
}

// heldBy is " (held by pid 123 (cmd))" when /proc names the holders of p.
func (p port) heldBy() string {
	if h := p.holders(); h != "" {
		return " (held by " + h + ")"
	}
	return ""
}
