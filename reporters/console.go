package reporters

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/fatih/color"

	"github.com/adtest/adtest/internal/plural"
	"github.com/adtest/adtest/runner"
)

// Console streams one line per finished test and prints a summary at the
// end. It implements runner.Observer. With live progress on (a
// terminal), a status area below the finished lines shows each worker's
// test, its current step and elapsed time, and the counts so far; Tick
// redraws it. Calls may come from the suite's workers and from a ticker: the
// Console serialises them itself.
type Console struct {
	mu      sync.Mutex
	w       io.Writer
	color   bool
	palette palette
	err     error
	live    *liveArea // nil: line by line
}

// NewConsole writes to w; colorOn is decided by cmd (TTY, NO_COLOR, --no-color).
func NewConsole(w io.Writer, colorOn bool) *Console {
	return &Console{w: w, color: colorOn, palette: newPalette(colorOn)}
}

// LiveOptions turn on the live status area; cmd decides (the output is a
// terminal that understands cursor movement) and measures the width.
type LiveOptions struct {
	// Width is the terminal's width in columns; status lines are cut to
	// fit so that none wraps (80 when 0).
	Width func() int
	// Now is the clock of the elapsed times (time.Now when nil).
	Now func() time.Time
}

// NewLiveConsole is a Console with the live status area.
func NewLiveConsole(w io.Writer, colorOn bool, opts LiveOptions) *Console {
	c := NewConsole(w, colorOn)
	if opts.Now == nil {
		opts.Now = time.Now
	}
	c.live = &liveArea{opts: opts, workers: map[int]*liveWorker{}}
	return c
}

type palette struct {
	pass, fail, flaky, dim, bold *color.Color
}

func newPalette(on bool) palette {
	p := palette{
		pass:  color.New(color.FgGreen),
		fail:  color.New(color.FgRed),
		flaky: color.New(color.FgYellow),
		dim:   color.New(color.Faint),
		bold:  color.New(color.Bold),
	}
	for _, c := range []*color.Color{p.pass, p.fail, p.flaky, p.dim, p.bold} {
		if on {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
	}
	return p
}

func (p palette) status(s runner.Status) string {
	word := fmt.Sprintf("%-8s", s)
	switch s {
	case runner.StatusPassed:
		return p.pass.Sprint(word)
	case runner.StatusFailed, runner.StatusTimedOut:
		return p.fail.Sprint(word)
	case runner.StatusFlaky:
		return p.flaky.Sprint(word)
	}
	return p.dim.Sprint(word)
}

func (c *Console) printf(format string, a ...any) {
	if c.err == nil {
		_, c.err = fmt.Fprintf(c.w, format, a...)
	}
}

// SuiteStarted prints the run's header.
func (c *Console) SuiteStarted(e runner.SuiteStarted) {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer c.redraw()
	c.erase()
	if c.live != nil {
		c.live.total = e.Total
		c.live.start = c.live.opts.Now()
	}
	shard := ""
	if e.Shard != "" {
		shard = ", shard " + e.Shard
	}
	c.printf("Running %d %s using %d %s%s\n", e.Total, plural.Of(e.Total, "test", "tests"), e.Workers, plural.Of(e.Workers, "worker", "workers"), shard)
}

// StepStarted moves the worker's line of the live status area to the step
// (nothing without live progress: the console prints finished tests).
func (c *Console) StepStarted(e runner.StepEvent) {
	c.stepStarted(e.Worker, e.Attempt, e.File, e.Name, e.Step, e.Total, e.Action)
}

// StepFinished is ignored: the area shows the step until the next starts.
func (c *Console) StepFinished(runner.StepEvent) {}

// AttemptFinished prints a line for an attempt that will be retried.
func (c *Console) AttemptFinished(e runner.AttemptFinished) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !e.WillRetry {
		return
	}
	defer c.redraw()
	c.erase()
	if c.live != nil {
		if w := c.live.workers[e.Result.Worker]; w != nil {
			w.step, w.action, w.attempt = 0, "", e.Attempt+1
		}
	}
	c.printf("      %s %s attempt %d/%d %s: %s\n", c.palette.dim.Sprint("retry"), EscapeControl(e.Name), e.Attempt, e.Of, e.Result.Status, EscapeText(describe(e.Result.Error)))
}

// TestFinished prints `[k/N] status name (file) duration`.
func (c *Console) TestFinished(e runner.TestFinished) {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer c.redraw()
	c.erase()
	t := e.Test
	if c.live != nil {
		c.live.count(t.Status)
		if n := len(t.Attempts); n > 0 {
			if w := c.live.workers[t.Attempts[n-1].Worker]; w != nil && w.file == t.File {
				delete(c.live.workers, t.Attempts[n-1].Worker)
			}
		}
	}
	extra := ""
	switch t.Status {
	case runner.StatusFlaky:
		extra = fmt.Sprintf(" (passed on attempt %d)", len(t.Attempts))
	case runner.StatusSkipped, runner.StatusNotRun:
		extra = " (" + EscapeText(t.Reason) + ")"
	}
	c.printf("[%d/%d] %s %s (%s) %s%s\n", e.Index, e.Total, c.palette.status(t.Status), EscapeControl(t.Name), EscapeControl(t.File), FormatDuration(t.DurationMs), extra)
}

// Summary prints the final summary; it returns the first write error. The
// status area is gone for good.
func (c *Console) Summary(r *runner.Result) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.erase()
	c.live = nil
	if c.err != nil {
		return c.err
	}
	return WriteSummary(c.w, r, c.color)
}

// WriteSummary writes the failures (file:line, step, reason, hint,
// artifacts), the flaky tests, the tests not run, and the counts. The last
// line is exactly `P passed, F failed`, followed by `, K flaky, S skipped,
// T timed out` when any of those is non-zero.
func WriteSummary(w io.Writer, r *runner.Result, colorOn bool) error {
	p := newPalette(colorOn)
	var b strings.Builder
	var failed, flaky []runner.TestResult
	for _, t := range r.Tests {
		switch t.Status {
		case runner.StatusFailed, runner.StatusTimedOut:
			failed = append(failed, t)
		case runner.StatusFlaky:
			flaky = append(flaky, t)
		}
	}
	if len(failed) > 0 {
		fmt.Fprintf(&b, "\n%s\n", p.bold.Sprint("Failures:"))
		for i, t := range failed {
			e, a := lastError(t)
			fmt.Fprintf(&b, "  %d) %s %s\n", i+1, p.fail.Sprint(EscapeControl(location(t.File, e))), EscapeControl(t.Name))
			if e != nil {
				reason := reasonOf(e)
				fmt.Fprintf(&b, "     %s [%s]\n", EscapeText(describe(e)), EscapeControl(reason))
				if e.Hint != "" {
					fmt.Fprintf(&b, "     hint: %s\n", EscapeText(e.Hint))
				}
			}
			if len(t.Attempts) > 1 {
				fmt.Fprintf(&b, "     attempts: %d\n", len(t.Attempts))
			}
			if a.ArtifactsDir != "" {
				fmt.Fprintf(&b, "     artifacts: %s\n", EscapeControl(a.ArtifactsDir))
			}
			if a.Screenshot != "" {
				fmt.Fprintf(&b, "     screenshot: %s\n", EscapeControl(a.Screenshot))
			}
			writeConsoleRepair(&b, a.Repair, p)
		}
	}
	if len(flaky) > 0 {
		fmt.Fprintf(&b, "\n%s\n", p.bold.Sprint("Flaky:"))
		for _, t := range flaky {
			e, _ := lastError(t)
			fmt.Fprintf(&b, "  - %s %s: passed on attempt %d; first failure at %s: %s\n",
				p.flaky.Sprint(EscapeControl(t.File)), EscapeControl(t.Name), len(t.Attempts), EscapeControl(location(t.File, e)), EscapeText(describe(e)))
		}
	}
	writeConsoleAnnotations(&b, r, p)
	st := r.Stats
	if st.NotRun > 0 {
		why := "not run"
		if r.Interrupted {
			why = "not run (interrupted)"
		}
		fmt.Fprintf(&b, "\n%d %s", st.NotRun, why)
	}
	b.WriteString("\n")
	line := fmt.Sprintf("%d passed, %d failed", st.Passed, st.Failed)
	if st.Flaky+st.Skipped+st.TimedOut > 0 {
		line += fmt.Sprintf(", %d flaky, %d skipped, %d timed out", st.Flaky, st.Skipped, st.TimedOut)
	}
	b.WriteString(line + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// stepStarted moves a worker's status line to the step that starts.
func (c *Console) stepStarted(worker, attempt int, file, name string, step, total int, action string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.live == nil {
		return
	}
	now := c.live.opts.Now()
	w := c.live.workers[worker]
	if w == nil || w.file != file {
		w = &liveWorker{file: file, name: name, since: now}
		c.live.workers[worker] = w
	}
	w.attempt, w.step, w.total, w.action = attempt, step, total, action
	c.erase()
	c.redraw()
}

// Tick redraws the status area (the elapsed times move on). cmd calls it
// from a ticker while the run lasts.
func (c *Console) Tick() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.live == nil || c.live.drawn == 0 {
		return
	}
	c.erase()
	c.redraw()
}

// maxLiveWorkers bounds the status area's worker lines, so that it stays
// a few lines tall with many workers.
const maxLiveWorkers = 8

// liveArea is the status area's state: the lines it drew last, what each
// worker runs, and the counts so far.
type liveArea struct {
	opts    LiveOptions
	drawn   int // lines on screen, below the cursor's line start
	total   int
	done    int
	start   time.Time
	counts  map[runner.Status]int
	workers map[int]*liveWorker
}

type liveWorker struct {
	file, name  string
	attempt     int
	step, total int
	action      string
	since       time.Time
}

func (l *liveArea) count(s runner.Status) {
	if l.counts == nil {
		l.counts = map[runner.Status]int{}
	}
	l.counts[s]++
	l.done++
}

// erase moves the cursor up over the status area and clears it.
func (c *Console) erase() {
	if c.live == nil || c.live.drawn == 0 {
		return
	}
	c.printf("\x1b[%dA\r\x1b[J", c.live.drawn)
	c.live.drawn = 0
}

// redraw prints the status area below the cursor: one line per busy worker,
// then the counts.
func (c *Console) redraw() {
	l := c.live
	if l == nil {
		return
	}
	width := 80
	if l.opts.Width != nil {
		if w := l.opts.Width(); w > 0 {
			width = w
		}
	}
	now := l.opts.Now()
	ids := make([]int, 0, len(l.workers))
	for id := range l.workers {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	var lines []string
	more := 0
	if len(ids) > maxLiveWorkers {
		ids, more = ids[:maxLiveWorkers], len(ids)-maxLiveWorkers
	}
	for _, id := range ids {
		w := l.workers[id]
		line := fmt.Sprintf("  worker %d  %s", id, EscapeControl(w.name))
		if w.attempt > 1 {
			line += fmt.Sprintf(" (attempt %d)", w.attempt)
		}
		if w.step > 0 {
			line += fmt.Sprintf("  step %d/%d %s", w.step, w.total, EscapeControl(w.action))
		}
		lines = append(lines, fitLine(line, "  "+FormatDuration(now.Sub(w.since).Milliseconds()), width))
	}
	if more > 0 {
		lines = append(lines, fitLine(fmt.Sprintf("  … and %d more %s", more, plural.Of(more, "worker", "workers")), "", width))
	}
	counts := fmt.Sprintf("  [%d/%d] %d passed, %d failed", l.done, l.total, l.counts[runner.StatusPassed], l.counts[runner.StatusFailed])
	if n := l.counts[runner.StatusFlaky]; n > 0 {
		counts += fmt.Sprintf(", %d flaky", n)
	}
	if n := l.counts[runner.StatusTimedOut]; n > 0 {
		counts += fmt.Sprintf(", %d timed out", n)
	}
	if n := l.counts[runner.StatusSkipped]; n > 0 {
		counts += fmt.Sprintf(", %d skipped", n)
	}
	if !l.start.IsZero() {
		counts += "  " + FormatDuration(now.Sub(l.start).Milliseconds())
	}
	lines = append(lines, fitLine(counts, "", width))
	var b strings.Builder
	for _, line := range lines {
		b.WriteString(c.palette.dim.Sprint(line))
		b.WriteByte('\n')
	}
	c.printf("%s", b.String())
	l.drawn = len(lines)
}

// fitLine cuts text so that text+tail fits in width-1 columns (a line that
// filled the last column would wrap on some terminals).
func fitLine(text, tail string, width int) string {
	room := width - 1 - len([]rune(tail))
	if r := []rune(text); len(r) > room {
		if room < 1 {
			return string([]rune(text + tail)[:max(width-1, 0)])
		}
		text = string(r[:room-1]) + "…"
	}
	return text + tail
}
