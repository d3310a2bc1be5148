package main

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/adtest/adtest/daemon"
	exampleweb "github.com/adtest/adtest/examples/web"
)

// benchCLI is a built adtest binary with its own daemon directory, serving
// the example app, with one session open on its sign-in page.
type benchCLI struct {
	bin, dir string
	env      []string
}

func newBenchCLI(b *testing.B) *benchCLI {
	b.Helper()
	tmp, err := os.MkdirTemp("", "adtb")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.RemoveAll(tmp) })
	c := &benchCLI{bin: filepath.Join(tmp, "adtest"), dir: filepath.Join(tmp, "run", "adtest")}
	build := exec.Command("go", "build", "-o", c.bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	c.env = append(os.Environ(), "XDG_RUNTIME_DIR="+filepath.Join(tmp, "run"), "NO_COLOR=1")
	if p, err := exec.LookPath("chromium"); err == nil {
		c.env = append(c.env, "ADTEST_CHROME="+p)
	}
	srv := httptest.NewServer(exampleweb.Handler())
	b.Cleanup(srv.Close)
	b.Cleanup(func() {
		c.run(b, "daemon", "stop")
		if !daemon.WaitStopped(context.Background(), c.dir, 30*time.Second) {
			b.Error("the daemon did not stop")
		}
	})
	c.run(b, "open", srv.URL+"/login.html")
	return c
}

// run runs one adtest command and returns its wall time.
func (c *benchCLI) run(b *testing.B, args ...string) time.Duration {
	b.Helper()
	cmd := exec.Command(c.bin, args...)
	cmd.Env = c.env
	start := time.Now()
	out, err := cmd.CombinedOutput()
	d := time.Since(start)
	if err != nil {
		b.Fatalf("adtest %v: %v\n%s", args, err, out)
	}
	return d
}

func median(ds []time.Duration) float64 {
	s := slices.Clone(ds)
	slices.Sort(s)
	return float64(s[len(s)/2].Microseconds()) / 1000
}

// BenchmarkInteractiveCLI measures, side by side in one loop, the wall time
// of `adtest --version` (process start), `adtest click id=email` and
// `adtest snapshot -i` against a warm daemon on the example app's sign-in
// page, each a new process as from a shell. It reports each median in ms
// and the ratios to --version.
//
//	go test -run '^$' -bench InteractiveCLI -benchtime 200x ./cmd/adtest/
func BenchmarkInteractiveCLI(b *testing.B) {
	c := newBenchCLI(b)
	var ver, click, snap []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ver = append(ver, c.run(b, "--version"))
		click = append(click, c.run(b, "click", "id=email"))
		snap = append(snap, c.run(b, "snapshot", "-i"))
	}
	b.StopTimer()
	v, k, s := median(ver), median(click), median(snap)
	b.ReportMetric(v, "version-ms")
	b.ReportMetric(k, "click-ms")
	b.ReportMetric(s, "snapshot-i-ms")
	b.ReportMetric(k/v, "click/version")
	b.ReportMetric(s/v, "snapshot/version")
}

// BenchmarkDaemonMemory runs 1,000 interactive commands (clicks and
// snapshots, alternating) against one warm daemon and reports its RSS after
// 0, 500 and 1,000 of them, in MiB.
//
//	go test -run '^$' -bench DaemonMemory -benchtime 1x ./cmd/adtest/
func BenchmarkDaemonMemory(b *testing.B) {
	c := newBenchCLI(b)
	rss := func() float64 {
		cmd := exec.Command(c.bin, "daemon", "status", "--json")
		cmd.Env = c.env
		out, err := cmd.Output()
		if err != nil {
			b.Fatalf("daemon status: %v", err)
		}
		var st struct {
			Data struct {
				Daemon daemon.Info `json:"daemon"`
			} `json:"data"`
		}
		if err := json.Unmarshal(out, &st); err != nil {
			b.Fatal(err)
		}
		return float64(st.Data.Daemon.RSSBytes) / (1 << 20)
	}
	for i := 0; i < b.N; i++ {
		r0 := rss()
		var r500 float64
		for k := 1; k <= 1000; k++ {
			if k%2 == 0 {
				c.run(b, "snapshot", "-i")
			} else {
				c.run(b, "click", "id=email")
			}
			if k == 500 {
				r500 = rss()
			}
		}
		r1000 := rss()
		b.ReportMetric(r0, "rss0-MiB")
		b.ReportMetric(r500, "rss500-MiB")
		b.ReportMetric(r1000, "rss1000-MiB")
	}
}
