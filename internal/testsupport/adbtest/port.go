package adbtest

import (
	"math/rand/v2"
	"net"
	"strconv"

	"github.com/adtest/adtest/internal/proc"
)

// FreePort returns a loopback TCP port that is free now and that stays out
// of every other FreePort caller's way until this process exits.
//
// A port taken with listen(127.0.0.1:0) and closed again goes back to the
// kernel's ephemeral pool, where the next bind to port 0 anywhere on the
// machine (another test binary's adb server, web server or daemon) may get
// it before the caller's server binds it; two adb servers "started" on one
// port then share the one that won, and the first teardown's host:kill
// kills the other test's server. So on Linux the port is drawn below the
// ephemeral range (/proc/sys/net/ipv4/ip_local_port_range), where neither
// bind(0) nor an outgoing connection ever lands, and checked free.
//
// Below that range the only other takers are FreePort's callers in the
// test binaries that `go test ./...` runs in parallel, each drawing on its
// own: two of them could draw the same port in the window between the check
// and the server's bind (seconds on a loaded machine, a whole script for
// testscript's $FREE_PORT). So each drawn port is also reserved, on Linux
// by an abstract unix socket named after it that this process holds until
// it exits (the kernel drops it then, even on a crash); a port whose
// reservation another process holds is skipped. Elsewhere FreePort falls
// back to a kernel-chosen port.
func FreePort() (int, error) {
	if low := proc.EphemeralLow(); low-minPort >= 1000 {
		for range 50 {
			p := minPort + rand.IntN(low-minPort)
			if !reserve(p) {
				continue
			}
			if ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p)); err == nil {
				ln.Close()
				return p, nil
			}
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// minPort keeps FreePort above the registered ports of common services
// (adb's own 5037 and its emulator scan of 5555-5585 included).
const minPort = 10000
