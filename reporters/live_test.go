package reporters

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/adtest/adtest/runner"
)

// TestLiveConsole drives the status area through a run of two workers and
// pins every byte it writes: the area is erased (cursor up, clear to the end)
// before anything scrolls above it, redrawn below, cut to the terminal's
// width, and gone before the summary.
func TestLiveConsole(t *testing.T) {
	now := time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	var out bytes.Buffer
	c := NewLiveConsole(&out, false, LiveOptions{Width: func() int { return 60 }, Now: clock})
	c.Tick() // nothing drawn yet: nothing to redraw
	c.SuiteStarted(runner.SuiteStarted{StartedAt: now, Total: 3, Workers: 2})
	c.StepStarted(runner.StepEvent{Worker: 0, Attempt: 1, File: "suite/login.ad", Name: "login", Step: 1, Total: 3, Action: "open ${AD_BASE_URL}/login.html"})
	now = now.Add(300 * time.Millisecond)
	c.StepStarted(runner.StepEvent{Worker: 1, Attempt: 1, File: "suite/a-very-long-name-for-a-test.ad", Name: "a-very-long-name-for-a-test", Step: 2, Total: 9, Action: `click "label=Something long"`})
	now = now.Add(1200 * time.Millisecond)
	c.Tick()
	login := runner.TestResult{File: "suite/login.ad", Name: "login", Platform: "web", Status: runner.StatusPassed, DurationMs: 1500,
		Attempts: []runner.AttemptResult{{Status: runner.StatusPassed, Worker: 0, DurationMs: 1500}}}
	c.TestFinished(runner.TestFinished{Index: 1, Total: 3, Test: login})
	c.AttemptFinished(runner.AttemptFinished{File: "suite/a-very-long-name-for-a-test.ad", Name: "a-very-long-name-for-a-test", Attempt: 1, Of: 2,
		Result: runner.AttemptResult{Status: runner.StatusFailed, Worker: 1}, WillRetry: true})
	c.StepStarted(runner.StepEvent{Worker: 1, Attempt: 2, File: "suite/a-very-long-name-for-a-test.ad", Name: "a-very-long-name-for-a-test", Step: 1, Total: 9, Action: "open demo"})
	res := &runner.Result{Stats: runner.Stats{Total: 1, Passed: 1}, Tests: []runner.TestResult{login}}
	if err := c.Summary(res); err != nil {
		t.Fatal(err)
	}
	c.Tick() // after the summary: nothing
	got := strings.ReplaceAll(out.String(), "\x1b", "<ESC>")
	golden(t).Assert(t, "live", []byte(got))
	for _, line := range strings.Split(out.String(), "\n") {
		if i := strings.LastIndex(line, "\x1b[J"); i >= 0 {
			line = line[i+len("\x1b[J"):]
		}
		status := strings.HasPrefix(line, "  worker ") || strings.HasPrefix(line, "  [")
		if status && len([]rune(line)) >= 60 {
			t.Errorf("status line of %d columns on a 60-column terminal: %q", len([]rune(line)), line)
		}
	}
}

// TestConsoleNotLive: without live progress no cursor movement is written.
func TestConsoleNotLive(t *testing.T) {
	var out bytes.Buffer
	c := NewConsole(&out, false)
	c.SuiteStarted(runner.SuiteStarted{Total: 1, Workers: 1})
	c.StepStarted(runner.StepEvent{Worker: 0, Attempt: 1, File: "a.ad", Name: "a", Step: 1, Total: 1, Action: "open demo"})
	c.Tick()
	c.TestFinished(runner.TestFinished{Index: 1, Total: 1, Test: runner.TestResult{File: "a.ad", Name: "a", Status: runner.StatusPassed}})
	if err := c.Summary(&runner.Result{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "\x1b") {
		t.Errorf("escape sequences without live progress: %q", out.String())
	}
}

// TestLiveConsoleManyWorkers: the area shows at most maxLiveWorkers worker
// lines and counts the rest.
func TestLiveConsoleManyWorkers(t *testing.T) {
	var out bytes.Buffer
	c := NewLiveConsole(&out, false, LiveOptions{Now: func() time.Time { return time.Time{} }})
	c.SuiteStarted(runner.SuiteStarted{Total: 12, Workers: 12})
	for w := 0; w < 12; w++ {
		c.StepStarted(runner.StepEvent{Worker: w, Attempt: 1, File: "t.ad", Name: "t", Step: 1, Total: 1, Action: "open demo"})
	}
	out.Reset()
	c.Tick()
	got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(got) != maxLiveWorkers+2 || got[maxLiveWorkers] != "  … and 4 more workers" {
		t.Errorf("area of %d lines:\n%s", len(got), out.String())
	}
}
