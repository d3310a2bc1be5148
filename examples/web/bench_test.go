package web_test

// The login flow end to end: suite/login.ad (11 steps) replayed through the
// runner on the web driver against the embedded app on a loopback server.
//
//	go test -run '^$' -bench LoginFlow -benchtime 5x ./examples/web/
//
// BenchmarkLoginFlowEndToEnd starts a fresh browser every iteration
// (web.NewProvider, first NewSession launches Chromium) and closes it at the
// end of the iteration; BenchmarkLoginFlowWarm reuses one running browser and
// opens a fresh browser context per iteration. Both report the median
// iteration as median-ms next to the mean ns/op, and the medians of its
// phases: open-ms (NewSession, which starts Chromium when none runs),
// steps-ms (the replay) and close-ms (session and, cold, browser shutdown).
// Both fail when a Chromium process or profile directory survives its
// provider.

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers"
	webdrv "github.com/adtest/adtest/drivers/web"
	web "github.com/adtest/adtest/examples/web"
	"github.com/adtest/adtest/internal/testsupport/webtest"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner"
)

// loginFlow parses suite/login.ad and builds its variable scope for baseURL.
func loginFlow(b *testing.B, baseURL string) (*lang.Script, *lang.Scope) {
	b.Helper()
	src, err := os.ReadFile(filepath.Join("suite", "login.ad"))
	if err != nil {
		b.Fatal(err)
	}
	s, err := lang.Parse("suite/login.ad", src)
	if err != nil {
		b.Fatal(err)
	}
	if len(s.Actions) != 11 {
		b.Fatalf("login.ad has %d steps, want 11", len(s.Actions))
	}
	env := map[string]string{}
	for _, e := range s.Env {
		env[e.Key] = e.Value
	}
	return s, &lang.Scope{Script: env, BuiltIns: map[string]string{"AD_PLATFORM": drivers.PlatformWeb, "AD_BASE_URL": baseURL}}
}

// phases are the times of one iteration: the session opening (with the
// browser start when there is none), the 11 steps, and the closing.
type phases struct{ open, steps, close time.Duration }

// replayLogin runs the flow in a fresh session of prov and fails unless all
// 11 steps pass.
func replayLogin(ctx context.Context, b *testing.B, prov *webdrv.Provider, script *lang.Script, scope *lang.Scope) phases {
	b.Helper()
	var ph phases
	t0 := time.Now()
	d, err := prov.NewSession(ctx, drivers.SessionOptions{})
	if err != nil {
		b.Fatalf("NewSession (is Chromium installed? apt-get install chromium): %v", err)
	}
	t1 := time.Now()
	sess := runner.NewSession(d, runner.SessionConfig{File: script.File, ArtifactsDir: b.TempDir()})
	res := sess.Replay(ctx, script, runner.ReplayOptions{Scope: scope})
	t2 := time.Now()
	if err := sess.Close(ctx); err != nil {
		b.Fatalf("session close: %v", err)
	}
	ph.open, ph.steps, ph.close = t1.Sub(t0), t2.Sub(t1), time.Since(t2)
	if res.Status != runner.StatusPassed || len(res.Steps) != 11 {
		msg := ""
		if res.Error != nil {
			msg = res.Error.Message
		}
		b.Fatalf("login.ad: %s after %d steps: %s", res.Status, len(res.Steps), msg)
	}
	return ph
}

// report adds the medians of the iterations and of their phases.
func report(b *testing.B, times []time.Duration, ph []phases) {
	b.ReportMetric(medianMs(times), "median-ms")
	var open, steps, closing []time.Duration
	for _, p := range ph {
		open, steps, closing = append(open, p.open), append(steps, p.steps), append(closing, p.close)
	}
	b.ReportMetric(medianMs(open), "open-ms")
	b.ReportMetric(medianMs(steps), "steps-ms")
	b.ReportMetric(medianMs(closing), "close-ms")
}

// median of the iteration times, in milliseconds.
func medianMs(ds []time.Duration) float64 {
	s := slices.Clone(ds)
	slices.Sort(s)
	n := len(s)
	if n == 0 {
		return 0
	}
	m := s[n/2]
	if n%2 == 0 {
		m = (s[n/2-1] + s[n/2]) / 2
	}
	return float64(m) / float64(time.Millisecond)
}

// BenchmarkLoginFlowEndToEnd: browser start, the 11 steps and the browser
// shutdown, every iteration.
func BenchmarkLoginFlowEndToEnd(b *testing.B) {
	srv := httptest.NewServer(web.Handler())
	defer srv.Close()
	script, scope := loginFlow(b, srv.URL)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var times []time.Duration
	var ph []phases
	for b.Loop() {
		t0 := time.Now()
		rec := &webtest.ProfileRecorder{}
		prov, err := webdrv.NewProvider(webdrv.Options{Logf: rec.Logf})
		if err != nil {
			b.Fatalf("NewProvider (apt-get install chromium, or ADTEST_CHROME=PATH): %v", err)
		}
		p := replayLogin(ctx, b, prov, script, scope)
		p.open += time.Since(t0) - p.open - p.steps - p.close // plus NewProvider
		tc := time.Now()
		if err := prov.Close(); err != nil {
			b.Fatalf("provider close: %v", err)
		}
		p.close += time.Since(tc)
		times = append(times, time.Since(t0))
		ph = append(ph, p)
		b.StopTimer()
		if err := rec.Leaks(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	report(b, times, ph)
}

// BenchmarkLoginFlowWarm: the 11 steps in a fresh browser context of an
// already running browser.
func BenchmarkLoginFlowWarm(b *testing.B) {
	srv := httptest.NewServer(web.Handler())
	defer srv.Close()
	script, scope := loginFlow(b, srv.URL)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	rec := &webtest.ProfileRecorder{}
	prov, err := webdrv.NewProvider(webdrv.Options{Logf: rec.Logf})
	if err != nil {
		b.Fatalf("NewProvider (apt-get install chromium, or ADTEST_CHROME=PATH): %v", err)
	}
	defer func() {
		if err := prov.Close(); err != nil {
			b.Errorf("provider close: %v", err)
		}
		if err := rec.Leaks(); err != nil {
			b.Error(err)
		}
	}()
	replayLogin(ctx, b, prov, script, scope) // starts the browser
	var times []time.Duration
	var ph []phases
	for b.Loop() {
		t0 := time.Now()
		ph = append(ph, replayLogin(ctx, b, prov, script, scope))
		times = append(times, time.Since(t0))
	}
	report(b, times, ph)
}
