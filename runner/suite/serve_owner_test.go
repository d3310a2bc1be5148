//go:build linux

package suite

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/adtest/adtest/internal/testsupport/adbtest"
)

// TestHelperWebServe is the --web-server command of the tests below (this
// binary again): it serves on the port in ADTEST_HELPER_WEBSERVE until killed.
func TestHelperWebServe(t *testing.T) {
	p := os.Getenv("ADTEST_HELPER_WEBSERVE")
	if p == "" {
		return
	}
	ln, err := net.Listen("tcp", "127.0.0.1:"+p)
	if err != nil {
		fmt.Fprintln(os.Stderr, "webserve:", err)
		os.Exit(1)
	}
	http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "ours") }))
}

// foreign is someone else's server on port: its first answer takes
// firstDelay (longer than StartCommand's 1 s probe), the later ones none.
func foreign(port int, firstDelay time.Duration) (*http.Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		return nil, err
	}
	first := make(chan struct{}, 1)
	first <- struct{}{}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-first:
			select {
			case <-time.After(firstDelay): // a slow server's first answer
			case <-r.Context().Done():
			}
		default:
		}
		fmt.Fprintln(w, "theirs")
	})}
	go srv.Serve(ln)
	return srv, nil
}

// TestWebServerRunsOnlyAgainstItsOwnServer: issue 36 bug 5. The run goes
// on only when the answer comes from the command's own process group; a
// server someone else runs on the port is refused and named, whether it
// answers slower than the probe or starts after the command did.
func TestWebServerRunsOnlyAgainstItsOwnServer(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	pid := fmt.Sprintf("held by pid %d (", os.Getpid())
	for _, tc := range []struct {
		name    string
		command func(port int, dir string) string
		setup   func(t *testing.T, port int, dir string)
		want    error  // nil: the server is accepted
		wantMsg string // in the error
	}{
		{
			name: "its own server",
			command: func(port int, _ string) string {
				return fmt.Sprintf("ADTEST_HELPER_WEBSERVE=%d exec %s -test.run='^TestHelperWebServe$'", port, self)
			},
		},
		{
			name: "a slow foreign server that holds the port before the command starts",
			// The command would only die with "address in use".
			command: func(port int, _ string) string {
				return fmt.Sprintf("ADTEST_HELPER_WEBSERVE=%d exec %s -test.run='^TestHelperWebServe$'", port, self)
			},
			setup: func(t *testing.T, port int, _ string) {
				srv, err := foreign(port, 1500*time.Millisecond)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { srv.Close() })
			},
			want: ErrURLInUse, wantMsg: pid,
		},
		{
			name: "a foreign server that binds after the command started",
			// The command runs but never binds; someone else does meanwhile.
			command: func(_ int, dir string) string { return "touch " + filepath.Join(dir, "started") + "; exec sleep 60" },
			setup: func(t *testing.T, port int, dir string) {
				bound := make(chan *http.Server, 1)
				t.Cleanup(func() {
					if srv := <-bound; srv != nil {
						srv.Close()
					}
				})
				go func() {
					for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); {
						if _, err := os.Stat(filepath.Join(dir, "started")); err == nil {
							break
						}
						<-time.After(10 * time.Millisecond)
					}
					srv, err := foreign(port, 0)
					if err != nil {
						t.Errorf("the foreign server: %v", err)
					}
					bound <- srv
				}()
			},
			want: ErrNotOurServer, wantMsg: pid,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			port, err := adbtest.FreePort()
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			if tc.setup != nil {
				tc.setup(t, port, dir)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			srv, err := StartCommand(ctx, WebServer{Command: tc.command(port, dir), Dir: dir,
				URL: fmt.Sprintf("http://127.0.0.1:%d/", port), Timeout: 30 * time.Second})
			if tc.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				if err := srv.Close(); err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil {
				srv.Close()
				t.Fatalf("the run would go on against someone else's server; want %v", tc.want)
			}
			t.Log(err)
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.wantMsg) {
				t.Fatalf("got %v, want %v naming %q", err, tc.want, tc.wantMsg)
			}
		})
	}
}
