package daemon

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/adtest/adtest/drivers"
)

// DefaultStartTimeout bounds how long a client waits for a daemon it started.
const DefaultStartTimeout = 20 * time.Second

// Client talks to a daemon: the local one in Dir (started on demand), or a
// remote one at Addr with Token.
type Client struct {
	Dir     string
	Addr    string // TCP HOST:PORT of a remote daemon; "" = the local socket in Dir
	Token   string
	Version string // this adtest build
	// Start launches a local daemon for Dir; nil means never start one.
	Start        func() error
	StartTimeout time.Duration
}

// ErrUnavailable wraps failures to reach a daemon.
var ErrUnavailable = errors.New("adtest daemon unavailable")

// VersionError is a daemon of another version.
type VersionError struct{ Resp *Response }

func (e *VersionError) Error() string { return e.Resp.Error.Message }

// Remote reports whether the client talks to a daemon over TCP.
func (c *Client) Remote() bool { return c.Addr != "" }

func (c *Client) dial(ctx context.Context) (net.Conn, error) {
	var d net.Dialer
	if c.Addr != "" {
		dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		return d.DialContext(dctx, "tcp", c.Addr)
	}
	if err := checkDir(c.Dir, false); err != nil {
		return nil, err
	}
	sock := filepath.Join(c.Dir, SocketName)
	if err := checkSocket(sock); err != nil {
		return nil, err
	}
	dctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	return d.DialContext(dctx, "unix", sock)
}

// connect dials the daemon, starting it first when it is not running.
// started reports that this call started it.
func (c *Client) connect(ctx context.Context, start bool) (conn net.Conn, started bool, err error) {
	conn, err = c.dial(ctx)
	if err == nil || c.Addr != "" || c.Start == nil || !start || !notRunning(err) {
		if err != nil {
			return nil, false, fmt.Errorf("%w: %v", ErrUnavailable, err)
		}
		return conn, false, nil
	}
	if err := ensureDir(c.Dir); err != nil {
		return nil, false, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	if err := c.Start(); err != nil {
		return nil, false, fmt.Errorf("%w: starting the daemon: %v", ErrUnavailable, err)
	}
	timeout := c.StartTimeout
	if timeout <= 0 {
		timeout = DefaultStartTimeout
	}
	deadline := time.Now().Add(timeout)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		conn, err = c.dial(ctx)
		if err == nil {
			return conn, true, nil
		}
		if !notRunning(err) || time.Now().After(deadline) {
			return nil, false, fmt.Errorf("%w: the daemon did not start within %s (see %s): %v", ErrUnavailable, timeout, filepath.Join(c.Dir, logName), err)
		}
		select {
		case <-ctx.Done():
			return nil, false, ctx.Err()
		case <-tick.C:
		}
	}
}

// notRunning reports a dial error that means no daemon listens.
func notRunning(err error) bool {
	return errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ENOENT)
}

// Do sends one request and returns the daemon's response. A local daemon
// that is not running is started first, unless the request is status or stop.
func (c *Client) Do(ctx context.Context, req *Request) (*Response, error) {
	req.V, req.Version, req.Token = ProtocolVersion, c.Version, c.Token
	if req.ID == "" {
		req.ID = newID()
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultCommandTimeout+30*time.Second)
		defer cancel()
	}
	start := req.Op != OpStatus && req.Op != OpStop && req.Op != OpSessions
	conn, _, err := c.connect(ctx, start)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	}
	if err := writeMessage(conn, req); err != nil {
		return nil, fmt.Errorf("%w: sending the request: %v", ErrUnavailable, err)
	}
	line, err := readLine(bufio.NewReaderSize(conn, 64<<10), MaxResponseBytes)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%w: the daemon closed the connection before answering (did it crash? the next command starts a new one): %v", ErrUnavailable, err)
	}
	var resp Response
	if err := json.Unmarshal(line, &resp); err != nil {
		return nil, fmt.Errorf("%w: malformed response: %v", ErrUnavailable, err)
	}
	if resp.Error != nil && resp.Error.Reason == drivers.ReasonVersionMismatch {
		return nil, &VersionError{Resp: &resp}
	}
	if resp.Error != nil && resp.Version == "" && resp.V == ProtocolVersion {
		// A refusal before the token check (unauthorized, malformed):
		// a TCP daemon names its build only to who has its token.
		return &resp, nil
	}
	if resp.V != ProtocolVersion || (resp.Version != c.Version && req.Op != OpStop) {
		return nil, &VersionError{Resp: versionMismatch(req, ProtocolVersion, c.Version, resp.V, resp.Version)}
	}
	if resp.ID != req.ID {
		return nil, fmt.Errorf("%w: response id %q does not answer request %q", ErrUnavailable, resp.ID, req.ID)
	}
	return &resp, nil
}

// Spawn starts `exe argv[1:]` (argv[0] as its name) as a detached daemon
// process: a session of its own, output appended to Dir/daemon.log.
func Spawn(dir, exe string, argv []string, env []string) error {
	if err := ensureDir(dir); err != nil {
		return err
	}
	log, err := os.OpenFile(filepath.Join(dir, logName), os.O_CREATE|os.O_WRONLY|os.O_TRUNC|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	defer log.Close()
	cmd := &exec.Cmd{Path: exe, Args: argv, Env: env, Dir: dir, Stdout: log, Stderr: log,
		SysProcAttr: &syscall.SysProcAttr{Setsid: true}}
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait() // reap it if this process outlives it
	return nil
}

// ReadToken reads the TCP token a daemon wrote to dir.
func ReadToken(dir string) (string, error) {
	b, err := os.ReadFile(filepath.Join(dir, tokenName))
	if err != nil {
		return "", err
	}
	return string(trimNL(b)), nil
}

func trimNL(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// TokenPath is the token file of a daemon directory.
func TokenPath(dir string) string { return filepath.Join(dir, tokenName) }

// LogPath is the log file of a daemon directory.
func LogPath(dir string) string { return filepath.Join(dir, logName) }

// WaitStopped waits until no daemon holds dir (its lock is free), that is
// until a stopping daemon has closed its sessions and browsers and exited.
func WaitStopped(ctx context.Context, dir string, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		f, err := os.OpenFile(filepath.Join(dir, lockName), os.O_RDWR, 0)
		if err != nil {
			return errors.Is(err, os.ErrNotExist)
		}
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		f.Close() // closing releases a lock we took
		if err == nil {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		select {
		case <-ctx.Done():
			return false
		case <-tick.C:
		}
	}
}

// Terminate sends SIGTERM to the daemon that holds dir (named by its
// daemon.json), for a daemon that does not speak this client's protocol.
// It reports false when no daemon holds the directory.
func Terminate(dir string) (bool, error) {
	f, err := os.OpenFile(filepath.Join(dir, lockName), os.O_RDWR, 0)
	if err != nil {
		return false, nil
	}
	defer f.Close()
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
		return false, nil // nobody holds it (closing f releases our lock)
	}
	b, err := os.ReadFile(filepath.Join(dir, infoName))
	if err != nil {
		return false, err
	}
	var in Info
	if err := json.Unmarshal(b, &in); err != nil || in.PID <= 0 {
		return false, fmt.Errorf("%s names no daemon pid", filepath.Join(dir, infoName))
	}
	return true, syscall.Kill(in.PID, syscall.SIGTERM)
}
