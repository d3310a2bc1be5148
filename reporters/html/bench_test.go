package html

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/drivers/web"
	"github.com/adtest/adtest/runner"
)

// BenchmarkRender1000 renders a report of 1,000 tests of 12 steps each, one
// in ten failed with a screenshot, its script, snapshot and log read through
// ReadFile (from memory: the figure is the renderer's, not the disk's).
func BenchmarkRender1000(b *testing.B) {
	r, files := large(1000)
	read := readMap(files)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Render(r, Options{ReadFile: read}); err != nil {
			b.Fatal(err)
		}
	}
}

func large(n int) (*runner.Result, map[string][]byte) {
	files := map[string][]byte{}
	r := &runner.Result{Version: 1, StartedAt: start, DurationMs: int64(n) * 900, Tests: make([]runner.TestResult, 0, n)}
	var script strings.Builder
	script.WriteString("context platform=web\n")
	for i := 0; i < 12; i++ {
		fmt.Fprintf(&script, "click \"label=Button %d\"\n", i)
	}
	snapshot := strings.Repeat("[button] \"Some button\" id=some-button\n", 200)
	for i := 0; i < n; i++ {
		dir := fmt.Sprintf(".adtest/artifacts/run/suite__t%04d.ad/attempt-1", i)
		files[dir+"/script.ad"] = []byte(script.String())
		a := runner.AttemptResult{Status: runner.StatusPassed, DurationMs: 900, Worker: i % 4,
			StartedAt: start.Add(time.Duration(i/4*900) * time.Millisecond), ArtifactsDir: dir}
		for s := 1; s <= 12; s++ {
			a.Steps = append(a.Steps, runner.StepResult{Step: s, Line: s + 1, Command: "click", Status: runner.StatusPassed, DurationMs: 70})
		}
		status := runner.StatusPassed
		if i%10 == 3 {
			status = runner.StatusFailed
			a.Status = status
			a.Steps[11].Status = status
			a.Screenshot = dir + "/failure.png"
			files[a.Screenshot] = []byte(fmt.Sprintf("\x89PNG\r\n\x1a\n %d %s", i, strings.Repeat("x", 20000)))
			files[dir+"/snapshot.txt"] = []byte(snapshot)
			files[dir+"/log.txt"] = []byte(strings.Repeat("console.log: something happened\n", 200))
			a.Error = &runner.ErrorInfo{Code: "COMMAND_FAILED", Reason: "selector_not_found", Message: "Selector did not match", Step: 12, Line: 13, Command: "click"}
			r.Stats.Failed++
		} else {
			r.Stats.Passed++
		}
		r.Tests = append(r.Tests, runner.TestResult{File: fmt.Sprintf("suite/t%04d.ad", i), Name: fmt.Sprintf("t%04d", i),
			Platform: "web", Status: status, DurationMs: 900, Attempts: []runner.AttemptResult{a}})
	}
	r.Stats.Total = n
	return r, files
}

// BenchmarkWriteDir1000 is BenchmarkRender1000 plus writing the files.
func BenchmarkWriteDir1000(b *testing.B) {
	r, files := large(1000)
	read := readMap(files)
	dir := b.TempDir()
	for b.Loop() {
		if err := WriteDir(dir, r, Options{ReadFile: read}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpen1000 opens the report of 1,000 tests in headless Chromium
// from file://, up to the load event (the page has built its list by then:
// its script is inline). The browser and the session are started outside
// the timed part.
func BenchmarkOpen1000(b *testing.B) {
	r, files := large(1000)
	dir := b.TempDir()
	if err := WriteDir(dir, r, Options{ReadFile: readMap(files)}); err != nil {
		b.Fatal(err)
	}
	url := "file://" + filepath.ToSlash(filepath.Join(dir, "index.html"))
	benchOpen(b, url)
}

// BenchmarkOpenBlank is BenchmarkOpen1000's baseline: the same session
// opening a blank file, so the report's own cost is the difference.
func BenchmarkOpenBlank(b *testing.B) {
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte("<!doctype html><title>blank</title>"), 0o644); err != nil {
		b.Fatal(err)
	}
	benchOpen(b, "file://"+filepath.ToSlash(filepath.Join(dir, "index.html")))
}

// benchOpen times opening url in a fresh browser context (started untimed).
func benchOpen(b *testing.B, url string) {
	prov, err := web.NewProvider(web.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer prov.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	for b.Loop() {
		b.StopTimer()
		s, err := prov.NewSession(ctx, drivers.SessionOptions{})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if err := s.Open(ctx, drivers.OpenRequest{Target: url}); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		s.Close(ctx)
		b.StartTimer()
	}
}
