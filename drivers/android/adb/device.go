package adb

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Shell protocol (v2) packet ids.
const (
	shStdin      = 0
	shStdout     = 1
	shStderr     = 2
	shExit       = 3
	shCloseStdin = 4
)

// ShellResult is the outcome of a shell command.
type ShellResult struct {
	Stdout, Stderr []byte
	// ExitCode is the command's status; -1 when the device has no shell_v2
	// (the v1 shell reports none).
	ExitCode int
}

func (c *Client) hasFeature(ctx context.Context, serial, f string) bool {
	c.mu.Lock()
	fs, ok := c.feats[serial]
	c.mu.Unlock()
	if !ok {
		var err error
		fs, err = c.Features(ctx, serial)
		if err != nil {
			return false
		}
		c.mu.Lock()
		c.feats[serial] = fs
		c.mu.Unlock()
	}
	for _, x := range fs {
		if x == f {
			return true
		}
	}
	return false
}

// ForgetFeatures drops the cached features of serial (a reconnected device).
func (c *Client) ForgetFeatures(serial string) {
	c.mu.Lock()
	delete(c.feats, serial)
	c.mu.Unlock()
}

// Shell runs cmd on the device and returns its output and exit code, using
// shell v2 when the device has it and the v1 shell otherwise.
func (c *Client) Shell(ctx context.Context, serial, cmd string) (ShellResult, error) {
	ctx, cancel := bound(ctx)
	defer cancel()
	if !c.hasFeature(ctx, serial, "shell_v2") {
		cn, err := c.device(ctx, serial, "shell:"+cmd)
		if err != nil {
			return ShellResult{}, err
		}
		defer cn.Close()
		out, err := io.ReadAll(cn.r)
		return ShellResult{Stdout: out, ExitCode: -1}, ctxErr(ctx, "shell", err)
	}
	cn, err := c.device(ctx, serial, "shell,v2,raw:"+cmd)
	if err != nil {
		return ShellResult{}, err
	}
	defer cn.Close()
	if _, err := cn.Write([]byte{shCloseStdin, 0, 0, 0, 0}); err != nil {
		return ShellResult{}, ctxErr(ctx, "shell", err)
	}
	var res ShellResult
	var out, errb bytes.Buffer
	for {
		id, data, err := readShellPacket(cn)
		if err != nil {
			if err == io.EOF {
				err = &Error{Op: "shell", Reason: ReasonProtocol, Message: "stream closed before the exit code"}
			}
			return res, ctxErr(ctx, "shell", err)
		}
		switch id {
		case shStdout:
			out.Write(data)
		case shStderr:
			errb.Write(data)
		case shExit:
			res.Stdout, res.Stderr = out.Bytes(), errb.Bytes()
			if len(data) > 0 {
				res.ExitCode = int(data[0])
			}
			return res, nil
		}
	}
}

func readShellPacket(cn *conn) (byte, []byte, error) {
	var h [5]byte
	if _, err := io.ReadFull(cn.r, h[:]); err != nil {
		return 0, nil, err
	}
	n := binary.LittleEndian.Uint32(h[1:])
	if n > 16<<20 {
		return 0, nil, fmt.Errorf("shell packet of %d bytes", n)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(cn.r, b); err != nil {
		return 0, nil, err
	}
	return h[0], b, nil
}

// Process is a long-running shell command (am instrument).
type Process struct {
	cn     *conn
	out    *io.PipeReader
	done   chan struct{}
	mu     sync.Mutex
	code   int
	exited bool
}

// Start runs cmd on the device without a deadline of its own: it lives until
// ctx ends, Kill is called, or it exits. Its stdout is read from Stdout.
func (c *Client) Start(ctx context.Context, serial, cmd string) (*Process, error) {
	octx, cancel := bound(ctx)
	v2 := c.hasFeature(octx, serial, "shell_v2")
	svc := "shell:" + cmd
	if v2 {
		svc = "shell,v2,raw:" + cmd
	}
	cn, err := c.device(octx, serial, svc)
	if err != nil {
		cancel()
		return nil, err
	}
	// Re-arm: the opening deadline no longer applies, ctx still does.
	cn.stop()
	cancel()
	cn.SetDeadline(time.Time{})
	cn.stop = context.AfterFunc(ctx, func() { cn.Conn.Close() })
	pr, pw := io.Pipe()
	p := &Process{cn: cn, out: pr, done: make(chan struct{}), code: -1}
	if v2 {
		cn.Write([]byte{shCloseStdin, 0, 0, 0, 0})
	}
	go func() {
		defer close(p.done)
		defer cn.Close()
		if !v2 {
			_, err := io.Copy(pw, cn.r)
			pw.CloseWithError(err)
			return
		}
		for {
			id, data, err := readShellPacket(cn)
			if err != nil {
				pw.CloseWithError(err)
				return
			}
			switch id {
			case shStdout:
				if _, err := pw.Write(data); err != nil {
					// Nobody reads any more: keep draining to see the exit.
					continue
				}
			case shExit:
				p.mu.Lock()
				p.exited = true
				if len(data) > 0 {
					p.code = int(data[0])
				}
				p.mu.Unlock()
				pw.Close()
				return
			}
		}
	}()
	return p, nil
}

// Stdout is the process's standard output.
func (p *Process) Stdout() io.Reader { return p.out }

// Done is closed when the process exits or its stream ends.
func (p *Process) Done() <-chan struct{} { return p.done }

// ExitCode returns the exit code and whether the process reported one.
func (p *Process) ExitCode() (int, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.code, p.exited
}

// Kill closes the stream (adbd then hangs up on the command).
func (p *Process) Kill() {
	p.cn.Close()
	p.out.Close()
}

// Exec runs cmd through exec: (raw stdout, no shell protocol); stdin, when
// not nil, is written first.
func (c *Client) Exec(ctx context.Context, serial, cmd string, stdin io.Reader) ([]byte, error) {
	ctx, cancel := bound(ctx)
	defer cancel()
	cn, err := c.device(ctx, serial, "exec:"+cmd)
	if err != nil {
		return nil, err
	}
	defer cn.Close()
	if stdin != nil {
		if _, err := io.Copy(cn, stdin); err != nil {
			return nil, ctxErr(ctx, "exec", err)
		}
	}
	out, err := io.ReadAll(cn.r)
	return out, ctxErr(ctx, "exec", err)
}

// Install streams an APK to `cmd package install -S SIZE ARGS...` (args such
// as -r -t) and checks that the package manager answers Success.
func (c *Client) Install(ctx context.Context, serial string, apk []byte, args ...string) error {
	cmd := "cmd package install -S " + strconv.Itoa(len(apk))
	for _, a := range args {
		cmd += " " + Quote(a)
	}
	out, err := c.Exec(ctx, serial, cmd, bytes.NewReader(apk))
	if err != nil {
		return err
	}
	s := strings.TrimSpace(string(out))
	if !strings.HasPrefix(s, "Success") {
		return &Error{Op: "install", Reason: ReasonServerFailed, Message: s}
	}
	return nil
}

// Quote single-quotes s for the device shell unless it is plainly safe.
func Quote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Forward is one forward (or reverse) rule.
type Forward struct {
	Serial, Local, Remote string
}

// Forward makes the server listen on local (tcp:N, tcp:0 = any) and connect
// each accepted connection to remote on the device. It returns the local
// port the server listens on.
func (c *Client) Forward(ctx context.Context, serial, local, remote string, norebind bool) (string, error) {
	verb := "forward:"
	if norebind {
		verb = "forward:norebind:"
	}
	return c.twoStatus(ctx, "host-serial:"+serial+":"+verb+local+";"+remote, local, nil)
}

// KillForward removes the forward on local.
func (c *Client) KillForward(ctx context.Context, serial, local string) error {
	_, err := c.twoStatus(ctx, "host-serial:"+serial+":killforward:"+local, "", nil)
	return err
}

// ListForwards lists every forward of the server.
func (c *Client) ListForwards(ctx context.Context) ([]Forward, error) {
	s, err := c.hostString(ctx, "host:list-forward")
	if err != nil {
		return nil, err
	}
	return parseForwards(s), nil
}

func parseForwards(s string) []Forward {
	var out []Forward
	for _, line := range strings.Split(s, "\n") {
		if f := strings.Fields(line); len(f) == 3 {
			out = append(out, Forward{Serial: f[0], Local: f[1], Remote: f[2]})
		}
	}
	return out
}

// Reverse makes the device listen on remote and connect back to local on
// this side of the server.
func (c *Client) Reverse(ctx context.Context, serial, remote, local string) error {
	_, err := c.twoStatus(ctx, "reverse:forward:"+remote+";"+local, remote, &serial)
	return err
}

// KillReverse removes the reverse rule on remote.
func (c *Client) KillReverse(ctx context.Context, serial, remote string) error {
	_, err := c.twoStatus(ctx, "reverse:killforward:"+remote, "", &serial)
	return err
}

// ListReverses lists the device's reverse rules.
func (c *Client) ListReverses(ctx context.Context, serial string) ([]Forward, error) {
	ctx, cancel := bound(ctx)
	defer cancel()
	cn, err := c.device(ctx, serial, "reverse:list-forward")
	if err != nil {
		return nil, err
	}
	defer cn.Close()
	if err := cn.status("reverse:list-forward"); err != nil {
		return nil, ctxErr(ctx, "reverse:list-forward", err)
	}
	s, err := cn.readHex()
	if err != nil {
		return nil, ctxErr(ctx, "reverse:list-forward", err)
	}
	return parseForwards(s), nil
}

// twoStatus runs a forward-style service: OKAY for the request, then OKAY
// or FAIL for the result, then (sometimes) the hex4-framed port. A device
// service (reverse) goes through serial's transport.
func (c *Client) twoStatus(ctx context.Context, svc, local string, serial *string) (string, error) {
	ctx, cancel := bound(ctx)
	defer cancel()
	var cn *conn
	var err error
	if serial != nil {
		cn, err = c.device(ctx, *serial, svc)
	} else {
		cn, err = c.request(ctx, svc)
	}
	if err != nil {
		return "", err
	}
	defer cn.Close()
	if err := cn.status(svc); err != nil {
		return "", ctxErr(ctx, svc, err)
	}
	if serial != nil {
		// adbd answers a reverse request with two statuses of its own.
		if err := cn.status(svc); err != nil {
			return "", ctxErr(ctx, svc, err)
		}
	}
	port := strings.TrimPrefix(local, "tcp:")
	if s, err := cn.readHex(); err == nil && s != "" {
		port = s
	}
	return port, nil
}
