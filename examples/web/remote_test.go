package web_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers"
	webdrv "github.com/adtest/adtest/drivers/web"
	"github.com/adtest/adtest/runner/suite"
)

// localChromium starts a headless Chromium with a debugging port of its own
// choosing and returns its host:port and browser websocket path; the
// process and its profile go when the test ends.
func localChromium(t *testing.T) (hostPort, wsPath string) {
	t.Helper()
	bin := os.Getenv("ADTEST_CHROME")
	if bin == "" {
		var err error
		if bin, err = exec.LookPath("chromium"); err != nil {
			t.Fatalf("no chromium on PATH (scripts/setup.sh installs it): %v", err)
		}
	}
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", "--user-data-dir="+dir, "about:blank")
	// Its own process group, so that its helpers go with it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		cmd.Wait()
		deadline := time.Now().Add(5 * time.Second)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			left := webdrv.ProfileLeftovers([]string{dir})
			if !strings.Contains(left, "processes") {
				return
			}
			if time.Now().After(deadline) {
				t.Errorf("left after the test: %s", left)
				return
			}
			<-tick.C
		}
	})
	// Chromium writes "<port>\n<path>" once it listens.
	deadline := time.Now().Add(30 * time.Second)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		raw, err := os.ReadFile(filepath.Join(dir, "DevToolsActivePort"))
		if f := strings.Fields(string(raw)); err == nil && len(f) == 2 {
			return "127.0.0.1:" + f[0], f[1]
		}
		if time.Now().After(deadline) {
			t.Fatal("Chromium did not write DevToolsActivePort")
		}
		<-tick.C
	}
}

// tokenPool is a small stand-in for a hosted browser pool (browserless,
// Selenium Grid's se:cdp, Moon): it checks ?token= and forwards
// /json/version and the websocket at /chromium to one local Chromium.
type tokenPool struct {
	token   string
	chrome  string // host:port
	wsPath  string
	dials   atomic.Int32
	refused atomic.Int32
}

func (p *tokenPool) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Query().Get("token") != p.token {
		p.refused.Add(1)
		http.Error(w, "Unauthorized", http.StatusUnauthorized)
		return
	}
	switch r.URL.Path {
	case "/json/version":
		resp, err := http.Get("http://" + p.chrome + "/json/version")
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		var v map[string]any
		json.NewDecoder(resp.Body).Decode(&v)
		// As pools do: their own address, without the token.
		v["webSocketDebuggerUrl"] = "ws://" + r.Host + "/chromium"
		json.NewEncoder(w).Encode(v)
	case "/chromium":
		p.dials.Add(1)
		rp := &httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) {
			pr.Out.URL = &url.URL{Scheme: "http", Host: p.chrome, Path: p.wsPath}
			pr.Out.Host = p.chrome
		}}
		rp.ServeHTTP(w, r)
	default:
		http.NotFound(w, r)
	}
}

// TestSuiteThroughTokenGuardedPool runs a suite with -j 2 through a
// token-checking pool in front of a local Chromium, addressed the way pool
// users address it; a wrong token fails as infrastructure, saying
// authentication failed.
func TestSuiteThroughTokenGuardedPool(t *testing.T) {
	chrome, wsPath := localChromium(t)
	pool := &tokenPool{token: "s3cr3t", chrome: chrome, wsPath: wsPath}
	ps := httptest.NewServer(pool)
	defer ps.Close()
	host := strings.TrimPrefix(ps.URL, "http://")
	srv := regressServer(t)
	for _, tc := range []struct{ name, url string }{
		{"browserless websocket URL as given", "ws://" + host + "/chromium?token=s3cr3t"},
		{"http URL resolved, token carried over", "http://" + host + "/?token=s3cr3t"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := pool.dials.Load()
			res := regressRun(t, srv, suite.Config{
				Workers: 2,
				Providers: func(ctx context.Context, platform string) (drivers.Provider, error) {
					return webdrv.NewProvider(webdrv.Options{CDPURL: tc.url})
				},
			}, nil, discover(t, "late.ad", "form.ad", "nav.ad"))
			if res.Stats.Passed != 3 {
				t.Errorf("stats %+v:\n%s", res.Stats, failures(res))
			}
			if pool.dials.Load() == before {
				t.Error("the run did not go through the pool")
			}
		})
	}
	t.Run("wrong token", func(t *testing.T) {
		for _, u := range []string{"ws://" + host + "/chromium?token=nope", "http://" + host + "/?token=nope"} {
			p, err := webdrv.NewProvider(webdrv.Options{CDPURL: u})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			_, err = p.NewSession(ctx, drivers.SessionOptions{})
			cancel()
			p.Close()
			if !errors.Is(err, webdrv.ErrAuth) || !errors.Is(err, drivers.ErrInfrastructure) ||
				!strings.Contains(err.Error(), "authentication failed") || strings.Contains(err.Error(), "nope") {
				t.Errorf("%s: %v, want an infrastructure error saying authentication failed, token hidden", u, err)
			}
		}
	})
}
