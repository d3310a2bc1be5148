// Package adbtest runs the real adb server on a private port and fake
// devices behind it, for tests of the Android stack end to end:
// adtest -> Go client -> adb server -> fakedevice. Teardown disconnects the
// devices and stops that server; nothing keeps running.
package adbtest

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/adtest/adtest/drivers/android/adb"
	"github.com/adtest/adtest/drivers/fake"
	exandroid "github.com/adtest/adtest/examples/android"
	"github.com/adtest/adtest/internal/testsupport/fakedevice"
)

// Server is an adb server in the foreground (`adb -P PORT nodaemon
// server`), owned by this process.
type Server struct {
	Port   int
	Client *adb.Client
	cmd    *exec.Cmd
	exited chan struct{}
	home   string      // the server's private HOME (its ~/.android)
	out    *tailBuffer // the server's stdout and stderr: adb's log in nodaemon mode
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
//
// The server gets a HOME of its own, a fresh temporary directory: adb
// aborts at start when it cannot create $HOME/.android (testscript runs
// its scripts with HOME=/no-home, so the first adb server of a fresh
// machine died there), and each server then generates its own adbkey
// instead of sharing the user's. Its log (adb writes it to stderr in
// nodaemon mode) is kept and returned in the error when it dies.
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
	home, err := os.MkdirTemp("", "adbtest-home-")
	if err != nil {
		return nil, err
	}
	s := &Server{Port: port, exited: make(chan struct{}), home: home, out: newTailBuffer(64 << 10)}
	cmd := exec.Command(bin, "-P", strconv.Itoa(port), "nodaemon", "server")
	dieWithParent(cmd)
	cmd.Stdout, cmd.Stderr = s.out, s.out
	var logFile *os.File
	if path := os.Getenv("ADBTEST_SERVER_LOG"); path != "" {
		// A copy of the server's own log in a file, for diagnosing a test run.
		if f, err := os.Create(path); err == nil {
			logFile = f
			w := io.MultiWriter(s.out, f)
			cmd.Stdout, cmd.Stderr = w, w
		}
	}
	cmd.Env = append(os.Environ(), "HOME="+home, "ANDROID_ADB_SERVER_PORT="+strconv.Itoa(port))
	s.cmd = cmd
	started := make(chan error, 1)
	go func() {
		// Linux sends the parent-death signal when the *thread* that forked
		// the child exits, not the process. Go ends a thread when a goroutine
		// that locked it exits, and any goroutine may lock the thread this
		// one ran on once it is free; so this goroutine holds its thread from
		// the fork until the server has exited.
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		err := cmd.Start()
		started <- err
		if err == nil {
			cmd.Wait() // returns once the server's output is all copied
		}
		if logFile != nil {
			logFile.Close()
		}
		close(s.exited)
	}()
	if err := <-started; err != nil {
		os.RemoveAll(home)
		return nil, err
	}
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
			os.RemoveAll(home)
			return nil, fmt.Errorf("adb server on port %d exited at start (%v)%s", port, cmd.ProcessState, s.log())
		case <-ctx.Done():
			s.Close()
			return nil, fmt.Errorf("adb server on port %d did not answer: %w%s", port, ctx.Err(), s.log())
		case <-tick.C:
		}
	}
}

// Addr is the server's HOST:PORT (for --adb-server).
func (s *Server) Addr() string { return "127.0.0.1:" + strconv.Itoa(s.Port) }

// Output is the tail of the server's own log so far.
func (s *Server) Output() string { return s.out.String() }

// log is the server's output for an error message.
func (s *Server) log() string {
	out := strings.TrimRight(s.out.String(), "\n")
	if out == "" {
		return "; it wrote nothing"
	}
	return "; its output:\n" + out
}

// Close asks the server to exit, kills it if it does not within 5 s, and
// waits for the process. A server that had died before Close is an error
// that carries its exit status and its log.
func (s *Server) Close() error {
	defer os.RemoveAll(s.home)
	if !s.Alive() {
		return fmt.Errorf("adb server on port %d had died before teardown (%v)%s", s.Port, s.cmd.ProcessState, s.log())
	}
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
		if KilledOnRequest(s.out.String()) {
			// The server took the request and hung on its way out: adb
			// (29.0.6) answers host:kill by calling exit(0) with its other
			// threads running, and under load its exit can block for good
			// (seen in 2 of 20 runs at load 25-40: the log ends with the
			// line below, the process stays). The request was carried out
			// as far as adb goes; the kill ends what adb could not.
			return nil
		}
		return fmt.Errorf("adb server did not exit on host:kill; killed%s", s.log())
	}
}

// KilledOnRequest reports whether an adb server's log says it took a
// host:kill request.
func KilledOnRequest(log string) bool {
	return strings.Contains(log, "adb server killed by remote request")
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
			return nil, fmt.Errorf("%w (the adb server process is gone: %v)%s", err, s.cmd.ProcessState, s.log())
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
