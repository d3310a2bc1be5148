// Package adbtest runs the real adb server on a private port and fake
// devices behind it, for tests of the Android stack end to end:
// adtest -> Go client -> adb server -> fakedevice. Teardown disconnects the
// devices and stops that server; nothing keeps running.
package adbtest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/adtest/adtest/drivers/android/adb"
	"github.com/adtest/adtest/drivers/android/fakedevice"
	"github.com/adtest/adtest/drivers/fake"
	exandroid "github.com/adtest/adtest/examples/android"
)

// Server is an adb server in the foreground (`adb -P PORT nodaemon
// server`), owned by this process.
type Server struct {
	Port   int
	Client *adb.Client
	cmd    *exec.Cmd
	exited chan struct{}
}

// FreePort returns a loopback TCP port that is free now and that stays out
// of every other process's way until the caller binds it. A port taken with
// listen(127.0.0.1:0) and closed again goes back to the kernel's ephemeral
// pool, where the next bind to port 0 anywhere on the machine (another test
// binary's adb server, web server or daemon) may get it before the caller's
// server binds it; two adb servers "started" on one port then share the one
// that won, and the first teardown's host:kill kills the other test's
// server. So on Linux the port is drawn below the ephemeral range
// (/proc/sys/net/ipv4/ip_local_port_range), where neither bind(0) nor an
// outgoing connection ever lands, and checked free; elsewhere it falls back
// to a kernel-chosen one.
func FreePort() (int, error) {
	if low := ephemeralLow(); low-minPort >= 1000 {
		for range 50 {
			p := minPort + rand.IntN(low-minPort)
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

// ephemeralLow is the first port of the kernel's ephemeral range, 0 where
// the system does not say.
func ephemeralLow() int {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) != 2 {
		return 0
	}
	n, err := strconv.Atoi(f[0])
	if err != nil {
		return 0
	}
	return n
}

// StartServer starts the adb server on a free loopback port and waits until
// it answers host:version.
func StartServer(ctx context.Context) (*Server, error) {
	port, err := FreePort()
	if err != nil {
		return nil, err
	}
	return StartServerOn(ctx, port)
}

// StartServerOn starts the adb server on port. The server dies with this
// process where the OS allows (Linux: parent-death signal).
func StartServerOn(ctx context.Context, port int) (*Server, error) {
	bin, err := exec.LookPath("adb")
	if err != nil {
		return nil, fmt.Errorf("adb is not installed (run scripts/setup.sh): %w", err)
	}
	// An adb that cannot bind exits, and host:version would then be answered
	// by whichever server holds the port: Close's host:kill would stop that
	// one. Refuse a port that is taken.
	ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		return nil, fmt.Errorf("adb server port %d is taken: %w", port, err)
	}
	ln.Close()
	cmd := exec.Command(bin, "-P", strconv.Itoa(port), "nodaemon", "server")
	dieWithParent(cmd)
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	if path := os.Getenv("ADBTEST_SERVER_LOG"); path != "" {
		// The server's own log, for diagnosing a test run.
		if f, err := os.Create(path); err == nil {
			cmd.Stdout, cmd.Stderr = f, f
		}
	}
	cmd.Env = append(os.Environ(), "ANDROID_ADB_SERVER_PORT="+strconv.Itoa(port))
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &Server{Port: port, cmd: cmd, exited: make(chan struct{})}
	go func() { cmd.Wait(); close(s.exited) }()
	s.Client, err = adb.New(adb.Options{Server: "127.0.0.1:" + strconv.Itoa(port), NoStart: true})
	if err != nil {
		s.Close()
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		if _, err := s.Client.Version(ctx); err == nil {
			return s, nil
		}
		select {
		case <-s.exited:
			return nil, errors.New("adb server exited at start")
		case <-ctx.Done():
			s.Close()
			return nil, fmt.Errorf("adb server on port %d did not answer: %w", port, ctx.Err())
		case <-tick.C:
		}
	}
}

// Addr is the server's HOST:PORT (for --adb-server).
func (s *Server) Addr() string { return "127.0.0.1:" + strconv.Itoa(s.Port) }

// Close asks the server to exit, kills it if it does not within 5 s, and
// waits for the process.
func (s *Server) Close() error {
	if s.Client != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		s.Client.KillServer(ctx)
		cancel()
	}
	t := time.NewTimer(5 * time.Second)
	defer t.Stop()
	select {
	case <-s.exited:
		return nil
	case <-t.C:
		s.cmd.Process.Kill()
		<-s.exited
		return errors.New("adb server did not exit on host:kill; killed")
	}
}

// Alive reports whether the server process still runs.
func (s *Server) Alive() bool {
	select {
	case <-s.exited:
		return false
	default:
		return true
	}
}

// ExampleScreens parses the example app (examples/android).
func ExampleScreens() *fake.Screens {
	s, err := fake.ParseScreens("examples/android/app.screens", exandroid.Screens)
	if err != nil {
		panic(err) // the embedded file is fixed at build time
	}
	return s
}

// DeviceOptions are the fake device options of the example app.
func DeviceOptions() fakedevice.Options { return fakedevice.Options{Screens: ExampleScreens()} }

// Connect starts a fake device, connects the server to it and waits until
// it is listed online.
func (s *Server) Connect(ctx context.Context, opts fakedevice.Options) (*fakedevice.Device, error) {
	if opts.Screens == nil {
		opts.Screens = ExampleScreens()
	}
	d, err := fakedevice.Start(opts)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	if _, err := s.Client.Connect(ctx, d.Addr()); err != nil {
		d.Close()
		if !s.Alive() {
			return nil, fmt.Errorf("%w (the adb server process is gone: %v)", err, s.cmd.ProcessState)
		}
		return nil, err
	}
	if err := s.Client.WaitDevice(ctx, d.Addr()); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// Disconnect drops a device from the server and stops it.
func (s *Server) Disconnect(d *fakedevice.Device) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	s.Client.Disconnect(ctx, d.Addr())
	cancel()
	d.Close()
}
