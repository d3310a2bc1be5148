package reporters

import (
	"fmt"
	"io"
	"strings"

	"github.com/fatih/color"

	"github.com/adtest/adtest/runner"
)

// Console streams one line per finished test and prints a summary at the
// end. It implements runner.SuiteListener; the suite runner serialises calls.
type Console struct {
	w       io.Writer
	color   bool
	palette palette
	err     error
}

// NewConsole writes to w; colorOn is decided by cmd (TTY, NO_COLOR, --no-color).
func NewConsole(w io.Writer, colorOn bool) *Console {
	return &Console{w: w, color: colorOn, palette: newPalette(colorOn)}
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
	shard := ""
	if e.Shard != "" {
		shard = ", shard " + e.Shard
	}
	c.printf("Running %d %s using %d %s%s\n", e.Total, plural(e.Total, "test", "tests"), e.Workers, plural(e.Workers, "worker", "workers"), shard)
}

// StepStarted is ignored: the console prints finished tests only.
func (c *Console) StepStarted(runner.StepEvent) {}

// StepFinished is ignored: the console prints finished tests only.
func (c *Console) StepFinished(runner.StepEvent) {}

// AttemptFinished prints a line for an attempt that will be retried.
func (c *Console) AttemptFinished(e runner.AttemptFinished) {
	if !e.WillRetry {
		return
	}
	c.printf("      %s %s attempt %d/%d %s: %s\n", c.palette.dim.Sprint("retry"), e.Name, e.Attempt, e.Of, e.Result.Status, describe(e.Result.Error))
}

// TestFinished prints `[k/N] status name (file) duration`.
func (c *Console) TestFinished(e runner.TestFinished) {
	t := e.Test
	extra := ""
	switch t.Status {
	case runner.StatusFlaky:
		extra = fmt.Sprintf(" (passed on attempt %d)", len(t.Attempts))
	case runner.StatusSkipped, runner.StatusNotRun:
		extra = " (" + t.Reason + ")"
	}
	c.printf("[%d/%d] %s %s (%s) %s%s\n", e.Index, e.Total, c.palette.status(t.Status), t.Name, t.File, FormatDuration(t.DurationMs), extra)
}

// Summary prints the final summary; it returns the first write error.
func (c *Console) Summary(r *runner.Result) error {
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
			fmt.Fprintf(&b, "  %d) %s %s\n", i+1, p.fail.Sprint(location(t.File, e)), t.Name)
			if e != nil {
				reason := e.Reason
				if reason == "" {
					reason = e.Code
				}
				fmt.Fprintf(&b, "     %s [%s]\n", describe(e), reason)
				if e.Hint != "" {
					fmt.Fprintf(&b, "     hint: %s\n", e.Hint)
				}
			}
			if len(t.Attempts) > 1 {
				fmt.Fprintf(&b, "     attempts: %d\n", len(t.Attempts))
			}
			if a.ArtifactsDir != "" {
				fmt.Fprintf(&b, "     artifacts: %s\n", a.ArtifactsDir)
			}
			if a.Screenshot != "" {
				fmt.Fprintf(&b, "     screenshot: %s\n", a.Screenshot)
			}
		}
	}
	if len(flaky) > 0 {
		fmt.Fprintf(&b, "\n%s\n", p.bold.Sprint("Flaky:"))
		for _, t := range flaky {
			e, _ := lastError(t)
			fmt.Fprintf(&b, "  - %s %s: passed on attempt %d; first failure at %s: %s\n",
				p.flaky.Sprint(t.File), t.Name, len(t.Attempts), location(t.File, e), describe(e))
		}
	}
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

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
