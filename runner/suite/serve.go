package suite

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os/exec"
	"time"
)

// Server is a web server started for the app under test.
type Server struct {
	URL  string
	stop func() error
}

// Close stops the server (and kills its command).
func (s *Server) Close() error {
	if s == nil || s.stop == nil {
		return nil
	}
	return s.stop()
}

// ServeFS serves fsys on 127.0.0.1 at a free port.
func ServeFS(fsys fs.FS) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: http.FileServerFS(fsys), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	return &Server{
		URL: "http://" + ln.Addr().String(),
		stop: func() error {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			return srv.Shutdown(ctx)
		},
	}, nil
}

// WebServer is the --web-server of a run: Command (run through `sh -c` in
// Dir, in a process group of its own) serves URL.
type WebServer struct {
	Command, Dir, URL string
	// Timeout bounds the wait for URL to answer.
	Timeout time.Duration
	// Reuse runs against a server that already answers at URL instead of
	// starting Command (Playwright's reuseExistingServer); without it such
	// a server is an error, so a run never tests someone else's app.
	Reuse bool
}

// ErrURLInUse is returned when the web server's URL answers, or its port is
// bound, before its command started.
var ErrURLInUse = errors.New("is already in use")

// ErrNotOurServer is returned when the web server's URL answers from a
// process that is not the command's.
var ErrNotOurServer = errors.New("answered from another process")

// StopGrace is how long a web server's process group has to exit after
// SIGTERM before it is sent SIGKILL.
const StopGrace = 5 * time.Second

// StartCommand starts the web server's command and waits until its URL
// answers an HTTP GET with a status below 500, polling until the timeout.
// The run goes on only against the command's own server: the port must be
// free before the command starts, and the answer must come while the
// command runs, from a socket its process group holds (where /proc tells;
// elsewhere the free port speaks for it). Errors name who holds the port.
// Close stops the command's whole process group (whatever it forked: npm,
// shims, `cd x && …`): SIGTERM, then SIGKILL after StopGrace.
func StartCommand(ctx context.Context, ws WebServer) (*Server, error) {
	pt, err := urlPort(ctx, ws.URL)
	if err != nil {
		return nil, err
	}
	client := &http.Client{Timeout: time.Second}
	answers := func() bool {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, ws.URL, nil)
		if err != nil {
			return false
		}
		resp, err := client.Do(req)
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode < 500
	}
	deadline := time.NewTimer(ws.Timeout)
	defer deadline.Stop()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	// Someone else's server, answering or not yet (slow, still starting).
	if answers() || pt.bound(ctx) {
		if !ws.Reuse {
			return nil, fmt.Errorf("--web-server: %s %w before %q started%s: another server listens there; stop it, choose another port, or pass --reuse-web-server to run against it",
				ws.URL, ErrURLInUse, ws.Command, pt.heldBy())
		}
		for !answers() {
			select {
			case <-deadline.C:
				return nil, fmt.Errorf("--reuse-web-server: %s is in use%s but did not answer within %s", ws.URL, pt.heldBy(), ws.Timeout)
			case <-ctx.Done():
				return nil, errors.Join(ctx.Err(), errors.New("--web-server: interrupted while waiting"))
			case <-tick.C:
			}
		}
		return &Server{URL: ws.URL}, nil
	}
	c := exec.Command("sh", "-c", ws.Command)
	c.Dir = ws.Dir
	setProcessGroup(c)
	if err := c.Start(); err != nil {
		return nil, fmt.Errorf("--web-server: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- c.Wait() }()
	stop := func() error { return stopGroup(c.Process.Pid, exited, StopGrace) }
	died := func(err error) error {
		exited <- err // for stop's own wait
		stop()
		held := ""
		if pt.bound(context.WithoutCancel(ctx)) {
			held = "; the port is in use" + pt.heldBy()
		}
		return fmt.Errorf("--web-server %q exited before %s answered: %v%s", ws.Command, ws.URL, err, held)
	}
	for {
		if answers() {
			select {
			case err := <-exited:
				return nil, died(err)
			default:
			}
			if owned, known := pt.ownedBy(c.Process.Pid); owned || !known {
				return &Server{URL: ws.URL, stop: stop}, nil
			}
			holders := pt.heldBy()
			stop()
			return nil, fmt.Errorf("--web-server: %s %w%s, not from %q: stop that server or choose another port", ws.URL, ErrNotOurServer, holders, ws.Command)
		}
		select {
		case err := <-exited:
			return nil, died(err)
		case <-deadline.C:
			stop()
			return nil, fmt.Errorf("--web-server: %s did not answer within %s", ws.URL, ws.Timeout)
		case <-ctx.Done():
			stop()
			return nil, errors.Join(ctx.Err(), errors.New("--web-server: interrupted while waiting"))
		case <-tick.C:
		}
	}
}
