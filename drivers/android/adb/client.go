// Package adb is a client of the ADB host protocol: it talks to an adb
// server (local or remote) over TCP, the way the adb command-line tool does,
// without spawning it. Every call takes a context; calls without a deadline
// of their own get DefaultTimeout.
//
// Requests are "smart socket" services: a 4-hex-digit length, the service
// name, then OKAY or FAIL<hex4><message>. Device services first select the
// device with host:transport:SERIAL on the same connection.
package adb

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// DefaultPort is the adb server's standard port.
const DefaultPort = 5037

// DefaultTimeout bounds a call whose context has no deadline.
const DefaultTimeout = 30 * time.Second

// Error is a failure with a typed reason and a hint for the user.
type Error struct {
	Op      string // the service or operation
	Reason  string // server_unavailable, adb_missing, device_not_found, server_failed, protocol, ...
	Message string
	Hint    string
	Err     error // the underlying error, if any
}

func (e *Error) Error() string {
	s := "adb " + e.Op + ": " + e.Message
	if e.Hint != "" {
		s += " (" + e.Hint + ")"
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// Reasons of Error.
const (
	ReasonServerUnavailable = "server_unavailable"
	ReasonADBMissing        = "adb_missing"
	ReasonDeviceNotFound    = "device_not_found"
	ReasonServerFailed      = "server_failed"
	ReasonProtocol          = "protocol"
)

// ReasonOf returns the reason of an *Error in err's chain, or "".
func ReasonOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Reason
	}
	return ""
}

// Options choose the server a Client talks to.
type Options struct {
	// Server is HOST:PORT (the --adb-server flag). It wins over the environment.
	Server string
	// Getenv reads ADB_SERVER_SOCKET (tcp:HOST:PORT) and ANDROID_ADB_SERVER_PORT; nil means os.Getenv.
	Getenv func(string) string
	// ADBPath is the adb binary used to start a local server; empty means "adb" on PATH.
	ADBPath string
	// NoStart never starts a server when none answers.
	NoStart bool
}

// Client talks to one adb server.
type Client struct {
	addr    string
	local   bool
	adbPath string
	noStart bool
	dialer  net.Dialer

	mu    sync.Mutex
	feats map[string][]string // features per serial, for the client's lifetime
	// started: EnsureServer started the server (StartedServer), whose
	// process is serverPID (0 when it was not found).
	started   bool
	serverPID int
}

// New returns a client of the server Options select: Server, else
// ADB_SERVER_SOCKET=tcp:HOST:PORT, else ANDROID_ADB_SERVER_PORT on
// localhost, else localhost:5037. It does not connect.
func New(opts Options) (*Client, error) {
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	addr := ""
	switch {
	case opts.Server != "":
		addr = opts.Server
		if !strings.Contains(addr, ":") {
			addr = net.JoinHostPort(addr, strconv.Itoa(DefaultPort))
		}
	case getenv("ADB_SERVER_SOCKET") != "":
		v := getenv("ADB_SERVER_SOCKET")
		if !strings.HasPrefix(v, "tcp:") {
			return nil, &Error{Op: "config", Reason: ReasonServerUnavailable, Message: fmt.Sprintf("ADB_SERVER_SOCKET=%q is not tcp:HOST:PORT", v), Hint: "set ADB_SERVER_SOCKET=tcp:HOST:PORT or use --adb-server HOST:PORT"}
		}
		addr = strings.TrimPrefix(v, "tcp:")
		if !strings.Contains(addr, ":") {
			addr = "localhost:" + addr
		}
	case getenv("ANDROID_ADB_SERVER_PORT") != "":
		v := getenv("ANDROID_ADB_SERVER_PORT")
		if n, err := strconv.Atoi(v); err != nil || n <= 0 || n > 65535 {
			return nil, &Error{Op: "config", Reason: ReasonServerUnavailable, Message: fmt.Sprintf("ANDROID_ADB_SERVER_PORT=%q is not a port", v), Hint: "set a port number between 1 and 65535"}
		}
		addr = "127.0.0.1:" + v
	default:
		addr = "127.0.0.1:" + strconv.Itoa(DefaultPort)
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, &Error{Op: "config", Reason: ReasonServerUnavailable, Message: fmt.Sprintf("bad server address %q: %v", addr, err), Hint: "give HOST:PORT"}
	}
	if _, err := strconv.Atoi(port); err != nil {
		return nil, &Error{Op: "config", Reason: ReasonServerUnavailable, Message: fmt.Sprintf("bad server port in %q", addr), Hint: "give HOST:PORT"}
	}
	local := host == "localhost" || host == "" || net.ParseIP(host).IsLoopback()
	return &Client{addr: addr, local: local, adbPath: opts.ADBPath, noStart: opts.NoStart, feats: map[string][]string{}}, nil
}

// Addr returns the server address HOST:PORT.
func (c *Client) Addr() string { return c.addr }

// bound returns ctx with DefaultTimeout when it has no deadline.
func bound(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, DefaultTimeout)
}

// conn is one connection to the server, closed when its context ends.
type conn struct {
	net.Conn
	r    *bufio.Reader
	stop func() bool
}

func (c *conn) Close() error {
	c.stop()
	return c.Conn.Close()
}

func (c *Client) dial(ctx context.Context) (*conn, error) {
	nc, err := c.dialer.DialContext(ctx, "tcp", c.addr)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &Error{Op: "connect", Reason: ReasonServerUnavailable, Message: fmt.Sprintf("no adb server at %s: %v", c.addr, err),
			Hint: "start one with `adb start-server`, or point --adb-server / ADB_SERVER_SOCKET at a running server", Err: err}
	}
	if dl, ok := ctx.Deadline(); ok {
		nc.SetDeadline(dl)
	}
	cn := &conn{Conn: nc, r: bufio.NewReaderSize(nc, 64<<10)}
	cn.stop = context.AfterFunc(ctx, func() { nc.Close() })
	return cn, nil
}

// ctxErr prefers the context's error to the I/O error it caused.
func ctxErr(ctx context.Context, op string, err error) error {
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return fmt.Errorf("adb %s: %w", op, ctx.Err())
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		// The connection's deadline is the context's: it may fire first.
		return fmt.Errorf("adb %s: %w", op, context.DeadlineExceeded)
	}
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	return &Error{Op: op, Reason: ReasonProtocol, Message: err.Error(), Err: err}
}

func (cn *conn) send(service string) error {
	if len(service) > 0xffff {
		return fmt.Errorf("service too long")
	}
	_, err := fmt.Fprintf(cn, "%04x%s", len(service), service)
	return err
}

// status reads OKAY, or FAIL and its message as an *Error.
func (cn *conn) status(op string) error {
	var st [4]byte
	if _, err := io.ReadFull(cn.r, st[:]); err != nil {
		return err
	}
	switch string(st[:]) {
	case "OKAY":
		return nil
	case "FAIL":
		msg, err := cn.readHex()
		if err != nil {
			return err
		}
		reason := ReasonServerFailed
		if strings.Contains(msg, "not found") || strings.Contains(msg, "offline") || strings.Contains(msg, "no devices") {
			reason = ReasonDeviceNotFound
		}
		return &Error{Op: op, Reason: reason, Message: msg}
	}
	return &Error{Op: op, Reason: ReasonProtocol, Message: fmt.Sprintf("unexpected status %q", st[:])}
}

// readHex reads a hex4 length and that many bytes.
func (cn *conn) readHex() (string, error) {
	var h [4]byte
	if _, err := io.ReadFull(cn.r, h[:]); err != nil {
		return "", err
	}
	n, err := strconv.ParseUint(string(h[:]), 16, 16)
	if err != nil {
		return "", fmt.Errorf("bad length %q", h[:])
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(cn.r, b); err != nil {
		return "", err
	}
	return string(b), nil
}

// request opens a connection and sends one service, checking its status.
func (c *Client) request(ctx context.Context, service string) (*conn, error) {
	cn, err := c.dial(ctx)
	if err != nil {
		return nil, err
	}
	if err := cn.send(service); err != nil {
		cn.Close()
		return nil, ctxErr(ctx, service, err)
	}
	if err := cn.status(service); err != nil {
		cn.Close()
		return nil, ctxErr(ctx, service, err)
	}
	return cn, nil
}

// hostString sends a host service and returns its hex4-framed answer.
func (c *Client) hostString(ctx context.Context, service string) (string, error) {
	ctx, cancel := bound(ctx)
	defer cancel()
	cn, err := c.request(ctx, service)
	if err != nil {
		return "", err
	}
	defer cn.Close()
	s, err := cn.readHex()
	return s, ctxErr(ctx, service, err)
}

// device opens a connection bound to serial's transport ("" = the only device).
func (c *Client) device(ctx context.Context, serial, service string) (*conn, error) {
	cn, err := c.dial(ctx)
	if err != nil {
		return nil, err
	}
	tr := "host:transport-any"
	if serial != "" {
		tr = "host:transport:" + serial
	}
	for _, s := range []string{tr, service} {
		if err := cn.send(s); err != nil {
			cn.Close()
			return nil, ctxErr(ctx, s, err)
		}
		if err := cn.status(s); err != nil {
			cn.Close()
			return nil, ctxErr(ctx, s, err)
		}
	}
	return cn, nil
}

// Version returns the server's protocol version (41 for adb 29-35).
func (c *Client) Version(ctx context.Context) (int, error) {
	s, err := c.hostString(ctx, "host:version")
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(s, 16, 32)
	if err != nil {
		return 0, &Error{Op: "host:version", Reason: ReasonProtocol, Message: fmt.Sprintf("bad version %q", s)}
	}
	return int(n), nil
}

// EnsureServer checks that the server answers; when it does not and it is
// local, it runs `adb -P PORT start-server` and checks again. A missing adb
// binary is an *Error with reason adb_missing and an install hint.
func (c *Client) EnsureServer(ctx context.Context) error {
	_, err := c.Version(ctx)
	if err == nil || ReasonOf(err) != ReasonServerUnavailable || !c.local || c.noStart {
		return err
	}
	path := c.adbPath
	if path == "" {
		path = "adb"
	}
	bin, lerr := exec.LookPath(path)
	if lerr != nil {
		return &Error{Op: "start-server", Reason: ReasonADBMissing, Message: fmt.Sprintf("no adb server at %s and no adb binary to start one (%v)", c.addr, lerr),
			Hint: "install adb (Debian/Ubuntu: `apt-get install adb`; macOS: `brew install android-platform-tools`; or the Android SDK platform-tools), or point --adb-server at a running server", Err: lerr}
	}
	_, port, _ := net.SplitHostPort(c.addr)
	sctx, cancel := bound(ctx)
	defer cancel()
	cmd := exec.CommandContext(sctx, bin, "-P", port, "start-server")
	cmd.Env = append(os.Environ(), "ANDROID_ADB_SERVER_PORT="+port)
	if out, err := cmd.CombinedOutput(); err != nil {
		return &Error{Op: "start-server", Reason: ReasonServerUnavailable, Message: fmt.Sprintf("adb -P %s start-server: %v: %s", port, err, strings.TrimSpace(string(out))), Hint: "run `adb start-server` yourself and retry", Err: err}
	}
	pid := serverProcess(port)
	c.mu.Lock()
	c.started, c.serverPID = true, pid
	c.mu.Unlock()
	_, err = c.Version(ctx)
	return err
}

// StartedServer reports whether EnsureServer started the server this client
// talks to (whoever started it owns it: a failed attempt kills it again).
func (c *Client) StartedServer() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.started
}

// KillServer asks the server to exit.
func (c *Client) KillServer(ctx context.Context) error {
	ctx, cancel := bound(ctx)
	defer cancel()
	cn, err := c.dial(ctx)
	if err != nil {
		return err
	}
	defer cn.Close()
	if err := cn.send("host:kill"); err != nil {
		return ctxErr(ctx, "host:kill", err)
	}
	cn.status("host:kill") // the server may close before answering
	io.Copy(io.Discard, cn.r)
	return nil
}

// Device is one line of host:devices-l.
type Device struct {
	Serial      string
	State       string // device, offline, unauthorized, ...
	Product     string
	Model       string
	DeviceName  string
	TransportID string
}

// ParseDevices reads the lines of host:devices(-l) and host:track-devices.
func ParseDevices(s string) []Device {
	var out []Device
	for _, line := range strings.Split(s, "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		d := Device{Serial: f[0], State: f[1]}
		for _, kv := range f[2:] {
			k, v, _ := strings.Cut(kv, ":")
			switch k {
			case "product":
				d.Product = v
			case "model":
				d.Model = v
			case "device":
				d.DeviceName = v
			case "transport_id":
				d.TransportID = v
			}
		}
		out = append(out, d)
	}
	return out
}

// Devices lists the devices the server sees.
func (c *Client) Devices(ctx context.Context) ([]Device, error) {
	s, err := c.hostString(ctx, "host:devices-l")
	if err != nil {
		return nil, err
	}
	return ParseDevices(s), nil
}

// TrackDevices streams the device list on every change until ctx ends; the
// channel is closed when the stream ends (ctx, or the server went away).
func (c *Client) TrackDevices(ctx context.Context) (<-chan []Device, error) {
	cn, err := c.request(ctx, "host:track-devices")
	if err != nil {
		return nil, err
	}
	ch := make(chan []Device, 1)
	go func() {
		defer close(ch)
		defer cn.Close()
		cn.SetDeadline(time.Time{})
		for {
			s, err := cn.readHex()
			if err != nil {
				return
			}
			select {
			case ch <- ParseDevices(s):
			case <-ctx.Done():
				return
			}
		}
	}()
	return ch, nil
}

// Connect asks the server to connect to a TCP device HOST:PORT. The server
// answers before the handshake ends: wait for the device to be listed.
func (c *Client) Connect(ctx context.Context, hostport string) (string, error) {
	s, err := c.hostString(ctx, "host:connect:"+hostport)
	if err != nil {
		return "", err
	}
	if strings.HasPrefix(s, "failed") || strings.HasPrefix(s, "cannot") {
		return s, &Error{Op: "connect", Reason: ReasonDeviceNotFound, Message: s}
	}
	return s, nil
}

// Disconnect drops a TCP device.
func (c *Client) Disconnect(ctx context.Context, hostport string) error {
	_, err := c.hostString(ctx, "host:disconnect:"+hostport)
	return err
}

// WaitDevice polls until serial is listed in state "device".
func (c *Client) WaitDevice(ctx context.Context, serial string) error {
	ctx, cancel := bound(ctx)
	defer cancel()
	ch, err := c.TrackDevices(ctx)
	if err != nil {
		return err
	}
	for list := range ch {
		for _, d := range list {
			if d.Serial == serial && d.State == "device" {
				return nil
			}
		}
	}
	if ctx.Err() != nil {
		return &Error{Op: "wait-for-device", Reason: ReasonDeviceNotFound, Message: fmt.Sprintf("%s did not come online: %v", serial, ctx.Err()), Err: ctx.Err()}
	}
	return &Error{Op: "wait-for-device", Reason: ReasonServerUnavailable, Message: "the server closed the device stream"}
}

// Features returns the features of the device's transport.
func (c *Client) Features(ctx context.Context, serial string) ([]string, error) {
	svc := "host:features"
	if serial != "" {
		svc = "host-serial:" + serial + ":features"
	}
	s, err := c.hostString(ctx, svc)
	if err != nil {
		return nil, err
	}
	return strings.Split(strings.TrimSpace(s), ","), nil
}

// le32 decodes a little-endian uint32.
func le32(b []byte) uint32 { return binary.LittleEndian.Uint32(b) }
