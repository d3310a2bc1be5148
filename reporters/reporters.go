// Package reporters renders suite results: console (streaming lines and a
// summary), json (design.md's result), junit (Surefire/Jenkins XML) and
// github (workflow-command annotations). Reporters are pure: they write to
// the io.Writer they are handed and read no environment; cmd decides where
// output goes and whether color is on.
package reporters

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/adtest/adtest/runner"
)

// Names of the reporters, in the order help lists them.
var Names = []string{"console", "json", "junit", "github", "html"}

// Spec is one --reporter NAME[=PATH].
type Spec struct {
	Name string
	Path string // empty: the reporter's default output
}

// ParseSpec parses NAME[=PATH]. An unknown name is an error that lists the
// known names; junit needs a path.
func ParseSpec(v string) (Spec, error) {
	name, path, _ := strings.Cut(v, "=")
	known := false
	for _, n := range Names {
		if n == name {
			known = true
		}
	}
	if !known {
		return Spec{}, fmt.Errorf("unknown reporter %q (known: %s)", name, strings.Join(Names, ", "))
	}
	if name == "junit" && path == "" {
		return Spec{}, fmt.Errorf("reporter junit needs a path: --reporter junit=PATH")
	}
	return Spec{Name: name, Path: path}, nil
}

// Render writes the final result with the reporter of the given name (the
// console renders its summary).
func Render(name string, w io.Writer, r *runner.Result, color bool) error {
	switch name {
	case "console":
		return WriteSummary(w, r, color)
	case "json":
		return WriteJSON(w, r)
	case "junit":
		return WriteJUnit(w, r)
	case "github":
		return WriteGitHub(w, r)
	case "html":
		return fmt.Errorf("reporter html writes a directory, not a stream")
	}
	return fmt.Errorf("unknown reporter %q (known: %s)", name, strings.Join(Names, ", "))
}

// Listeners fans suite events out to several listeners, in order.
type Listeners []runner.SuiteListener

func (ls Listeners) SuiteStarted(e runner.SuiteStarted) {
	for _, l := range ls {
		l.SuiteStarted(e)
	}
}

func (ls Listeners) StepStarted(e runner.StepEvent) {
	for _, l := range ls {
		l.StepStarted(e)
	}
}

func (ls Listeners) StepFinished(e runner.StepEvent) {
	for _, l := range ls {
		l.StepFinished(e)
	}
}

func (ls Listeners) AttemptFinished(e runner.AttemptFinished) {
	for _, l := range ls {
		l.AttemptFinished(e)
	}
}

func (ls Listeners) TestFinished(e runner.TestFinished) {
	for _, l := range ls {
		l.TestFinished(e)
	}
}

// WriteFileAtomic renders into a temporary file next to path and renames it
// into place, so a reader never sees a half-written report.
func WriteFileAtomic(path string, render func(io.Writer) error) error {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	if err := render(f); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Chmod(tmp, 0o644); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// lastError is the error of a test's last failed attempt.
func lastError(t runner.TestResult) (*runner.ErrorInfo, runner.AttemptResult) {
	for i := len(t.Attempts) - 1; i >= 0; i-- {
		if t.Attempts[i].Error != nil {
			return t.Attempts[i].Error, t.Attempts[i]
		}
	}
	return nil, runner.AttemptResult{}
}

// location is file:line of a failure (file alone without a line).
func location(file string, e *runner.ErrorInfo) string {
	if e != nil && e.Line > 0 {
		return fmt.Sprintf("%s:%d", file, e.Line)
	}
	return file
}

// describe is "step 3 click: message".
func describe(e *runner.ErrorInfo) string {
	if e == nil {
		return ""
	}
	if e.Step > 0 {
		cmd := e.Command
		if cmd != "" {
			cmd = " " + cmd
		}
		return fmt.Sprintf("step %d%s: %s", e.Step, cmd, e.Message)
	}
	return e.Message
}

// infrastructure reports an attempt error that is the device's fault, not the test's.
func infrastructure(e *runner.ErrorInfo) bool {
	return e.IsInfrastructure()
}

// FormatDuration prints ms as agent-device does: >= 10 s one decimal,
// >= 1 s two decimals, else up to three decimals.
func FormatDuration(ms int64) string {
	s := float64(ms) / 1000
	switch {
	case ms >= 10000:
		return fmt.Sprintf("%.1fs", s)
	case ms >= 1000:
		return fmt.Sprintf("%.2fs", s)
	}
	out := strings.TrimRight(fmt.Sprintf("%.3f", s), "0")
	out = strings.TrimSuffix(out, ".")
	return out + "s"
}
