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

// StartCommand starts cmd (through `sh -c`) in dir and waits until url
// answers an HTTP GET with a status below 500, polling until timeout. The
// command is killed by Close.
func StartCommand(ctx context.Context, command, dir, url string, timeout time.Duration) (*Server, error) {
	cctx, kill := context.WithCancel(context.WithoutCancel(ctx))
	c := exec.CommandContext(cctx, "sh", "-c", command)
	c.Dir = dir
	c.WaitDelay = 2 * time.Second
	if err := c.Start(); err != nil {
		kill()
		return nil, fmt.Errorf("--web-server: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- c.Wait() }()
	stop := func() error {
		kill()
		<-exited
		return nil
	}
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	client := &http.Client{Timeout: time.Second}
	for {
		if req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil); err == nil {
			if resp, err := client.Do(req); err == nil {
				resp.Body.Close()
				if resp.StatusCode < 500 {
					return &Server{URL: url, stop: stop}, nil
				}
			}
		}
		select {
		case err := <-exited:
			kill()
			return nil, fmt.Errorf("--web-server %q exited before %s answered: %v", command, url, err)
		case <-deadline.C:
			stop()
			return nil, fmt.Errorf("--web-server: %s did not answer within %s", url, timeout)
		case <-ctx.Done():
			stop()
			return nil, errors.Join(ctx.Err(), errors.New("--web-server: interrupted while waiting"))
		case <-tick.C:
		}
	}
}
