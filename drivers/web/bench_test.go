package web

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/internal/proc"
	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
)

// go test -run '^$' -bench . -benchtime 20x ./drivers/web/

func BenchmarkClick(b *testing.B) { benchClicks(b, false) }

// BenchmarkClickTraced is BenchmarkClick with a trace picture after each
// click, as `--trace on` takes it: the cost of a step's picture.
func BenchmarkClickTraced(b *testing.B) { benchClicks(b, true) }

// benchClicks clicks the Count button b.N times, with a trace picture after
// each click when traced, and reports Chromium's CPU per click.
func benchClicks(b *testing.B, traced bool) {
	s := session(b, "basic.html")
	n := find(b, snap(b, s, drivers.SnapshotOptions{}), "button", "Count")
	ctx := context.Background()
	c0 := chromiumCPUByType(s)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := s.Act(ctx, tap(n)); err != nil {
			b.Fatal(err)
		}
		if !traced {
			continue
		}
		if pic, err := s.TraceShot(ctx, drivers.TraceShotOptions{}); err != nil || len(pic) == 0 {
			b.Fatalf("TraceShot: %d bytes, %v", len(pic), err)
		}
	}
	b.StopTimer()
	reportChromiumCPU(b, s, c0)
	if got, want := textByID(b, s, "clicks"), "Clicked "+strconv.Itoa(b.N); got != want {
		b.Fatalf("%q, want %q", got, want)
	}
}

// BenchmarkClickLive is a live click as the runner makes it once the
// target is resolved: Preflight (before the seam), then Act (actionability
// checks, the press, its guard, the settle frame) on a still page. It
// reports where the time went: the Preflight check, the settle (the frame
// the page renders after the press) and the rest of Act.
//
// Clicks made back to back lock to the page's frame clock: each one ends on
// a rendered frame and the next one's settle waits for the frame after its
// press, so a click cannot take less than a frame (16.7 ms at 60 frames a
// second; see BenchmarkAnimationFrame) however little the rest costs.
func BenchmarkClickLive(b *testing.B) {
	s := session(b, "basic.html")
	n := find(b, snap(b, s, drivers.SnapshotOptions{}), "button", "Count")
	ctx := context.Background()
	var pre, settle time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		a := tap(n)
		t0 := time.Now()
		if err := s.Preflight(ctx, a); err != nil {
			b.Fatal(err)
		}
		pre += time.Since(t0)
		if err := s.Act(ctx, a); err != nil {
			b.Fatal(err)
		}
		settle += s.LastSettle()
	}
	b.StopTimer()
	perClick := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N) }
	b.ReportMetric(perClick(pre), "preflight-ms")
	b.ReportMetric(perClick(settle), "settle-ms")
	if got, want := textByID(b, s, "clicks"), "Clicked "+strconv.Itoa(b.N); got != want {
		b.Fatalf("%q, want %q", got, want)
	}
}

// BenchmarkAnimationFrame is one animation frame of a still page awaited
// back to back (a requestAnimationFrame callback, as the settle and the
// stability check wait for): the period of the page's frame clock.
func BenchmarkAnimationFrame(b *testing.B) {
	s := session(b, "basic.html")
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := s.awaitFrame(ctx, oneFrameExpr); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFill(b *testing.B) {
	s := session(b, "basic.html")
	n := find(b, snap(b, s, drivers.SnapshotOptions{}), "textbox", "Email")
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := s.Act(ctx, drivers.Action{Kind: drivers.ActFill, Target: &drivers.Target{Node: n}, Text: "ada@example.com"}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSnapshot1000(b *testing.B) {
	s := session(b, "many?n=1000")
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sn, err := s.Snapshot(ctx, drivers.SnapshotOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if len(sn.Nodes) != 2001 { // main + 1000 × (text, button)
			b.Fatalf("%d nodes", len(sn.Nodes))
		}
	}
}

func BenchmarkSnapshot1000Interactive(b *testing.B) {
	s := session(b, "many?n=1000")
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sn, err := s.Snapshot(ctx, drivers.SnapshotOptions{Interactive: true})
		if err != nil {
			b.Fatal(err)
		}
		if len(sn.Nodes) != 1000 {
			b.Fatalf("%d nodes", len(sn.Nodes))
		}
	}
}

// BenchmarkSnapshotApp is a snapshot of each page of the example app
// (examples/web/app), the pages the example suite runs on.
func BenchmarkSnapshotApp(b *testing.B) {
	pages, err := filepath.Glob("../../examples/web/app/*.html")
	if err != nil || len(pages) == 0 {
		b.Fatalf("no example app pages: %v", err)
	}
	s := session(b, "")
	ctx := context.Background()
	for _, p := range pages {
		name := filepath.Base(p)
		open(b, s, "ex/app/"+name)
		b.Run(strings.TrimSuffix(name, ".html"), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := s.Snapshot(ctx, drivers.SnapshotOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSnapshot1000AXTree is the plain full accessibility-tree fetch on
// the same page, for comparison.
func BenchmarkSnapshot1000AXTree(b *testing.B) {
	s := session(b, "many?n=1000")
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var n int
		err := s.do(ctx, "ax tree", func(ctx context.Context, t *chromedp.Target) error {
			r, err := cdp.Call(ctx, t, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
			n = len(r.Nodes)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
		if n < 2000 {
			b.Fatalf("%d AX nodes", n)
		}
	}
}

// BenchmarkSession is the cost of a fresh isolated session (browser context
// and page) plus its teardown on the warm browser.
func BenchmarkSession(b *testing.B) {
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		d, err := prov.NewSession(ctx, drivers.SessionOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if err := d.Close(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpen is one `open` of a small page in a live session: the
// navigation, the load event and the wait for late scripts (loading.go).
func BenchmarkOpen(b *testing.B) {
	s := session(b, "basic.html")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		open(b, s, "basic.html")
	}
}

// BenchmarkTraceShotStill is a trace picture of a page that does not
// change, with the CPU time per picture of the session's Chromium processes
// by type.
func BenchmarkTraceShotStill(b *testing.B) {
	s := session(b, "basic.html")
	ctx := context.Background()
	c0 := chromiumCPUByType(s)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if pic, err := s.TraceShot(ctx, drivers.TraceShotOptions{}); err != nil || len(pic) == 0 {
			b.Fatalf("TraceShot: %d bytes, %v", len(pic), err)
		}
	}
	b.StopTimer()
	reportChromiumCPU(b, s, c0)
}

// BenchmarkTraceShotMasked is a trace picture with a secret on screen (a
// field holding it and a line of text showing it): TraceShot, which paints
// over the areas in the scaled JPEG Chromium encodes, against the way it
// was taken before, a full-size masked PNG (Screenshot) scaled and encoded
// by adtest.
func BenchmarkTraceShotMasked(b *testing.B) {
	mask := []string{"hunter2x"}
	for _, c := range []struct {
		name string
		shot func(ctx context.Context, s *Session) ([]byte, error)
	}{
		{"scaled-jpeg", func(ctx context.Context, s *Session) ([]byte, error) {
			return s.TraceShot(ctx, drivers.TraceShotOptions{Mask: mask})
		}},
		{"full-png", func(ctx context.Context, s *Session) ([]byte, error) {
			png, err := s.Screenshot(ctx, drivers.ScreenshotOptions{Mask: mask})
			if err != nil {
				return nil, err
			}
			return drivers.TraceJPEG(png, drivers.TraceShotOptions{})
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			s := session(b, "secret_pixels.html")
			ctx := context.Background()
			field := find(b, snap(b, s, drivers.SnapshotOptions{}), "textbox", "Token")
			if err := s.Act(ctx, drivers.Action{Kind: drivers.ActFill, Target: &drivers.Target{Node: field}, Text: mask[0]}); err != nil {
				b.Fatal(err)
			}
			c0 := chromiumCPUByType(s)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if pic, err := c.shot(ctx, s); err != nil || len(pic) == 0 {
					b.Fatalf("%d bytes, %v", len(pic), err)
				}
			}
			b.StopTimer()
			reportChromiumCPU(b, s, c0)
		})
	}
}

// reportChromiumCPU reports the CPU time per op of the Chromium processes
// of s by type since c0 (and in all, "chromium-cpu-ms/op").
func reportChromiumCPU(b *testing.B, s *Session, c0 map[string]time.Duration) {
	var all time.Duration
	for k, v := range chromiumCPUByType(s) {
		if k == "browser" || k == "renderer" || k == "gpu-process" {
			b.ReportMetric(float64(v-c0[k])/float64(b.N)/1e6, k+"-cpu-ms/op")
		}
		all += v - c0[k]
	}
	b.ReportMetric(float64(all)/float64(b.N)/1e6, "chromium-cpu-ms/op")
}

// chromiumCPUByType is the CPU time so far of the Chromium processes of
// the browser s runs in, summed by process type (browser, renderer,
// gpu-process, ...): the members of the browser's process group (it leads
// one, see browserCmd), so the other Chromiums of a shared machine do not
// count. A browser of unknown pid (a remote one) counts every Chromium.
func chromiumCPUByType(s *Session) map[string]time.Duration {
	out := map[string]time.Duration{}
	group := s.b.pid
	for _, p := range proc.All() {
		if group != 0 && p.PGRP != group {
			continue
		}
		args := proc.Args(p.PID)
		if len(args) == 0 || !strings.Contains(filepath.Base(args[0]), "chrom") {
			continue
		}
		kind := "browser"
		for _, a := range args[1:] {
			if t, ok := strings.CutPrefix(a, "--type="); ok {
				kind = t
			}
		}
		out[kind] += time.Duration(p.CPUTicks) * 10 * time.Millisecond
	}
	return out
}
