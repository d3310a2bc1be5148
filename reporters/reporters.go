// Package reporters renders suite results. The reporter table (this file:
// one row per reporter, looked up by name, --reporter NAME[=PATH] parsed by
// ParseSpec) holds console (streaming lines and a summary, live progress on
// a terminal), json (design.md's result), junit (Surefire/Jenkins XML),
// github (workflow-command annotations) and html (reporters/html, a
// directory). repair.go shows a suggested repair in the console, JUnit and
// GitHub output (json carries it in the result; the page shows it with
// reporters/html/assets/repair.js); annotate.go shows the --annotate
// results in the console summary; escape.go makes names and text safe for
// a terminal. Reporters are pure: they write to the io.Writer they
// are handed and read no environment; cmd decides where output goes and
// whether color is on.
package reporters

import (
	"fmt"
	"io"
	"strings"

	"github.com/adtest/adtest/reporters/html"
	"github.com/adtest/adtest/runner"
)

// Reporter is one row of the reporter table: a new reporter is one row.
type Reporter struct {
	Name string
	// NeedsPath: the reporter writes a file, and --reporter NAME=PATH must
	// name it.
	NeedsPath bool
	// OnlyWhen names an environment variable that must be "true" for the
	// reporter to write at all (github: GITHUB_ACTIONS); cmd reads it.
	OnlyWhen string
	// Stream builds the streaming side of a reporter that follows the run
	// (console); nil for a pure renderer of the final result.
	Stream func(w io.Writer, o StreamOptions) Streamer
	// Render writes the final result to a stream.
	Render func(w io.Writer, r *runner.Result, color bool) error
	// Dir, when set, writes the final result as a directory instead (html):
	// at the spec's path, else DefaultPath; readFile reads the artifacts the
	// result names.
	Dir         func(dir string, r *runner.Result, readFile func(name string) ([]byte, error)) error
	DefaultPath string
}

// StreamOptions are decided by cmd for a streaming reporter.
type StreamOptions struct {
	Color bool
	// Live: the output is a terminal, so the reporter may redraw a status
	// area (Width() columns wide) on Tick.
	Live  bool
	Width func() int
}

// Streamer is a reporter that follows the run's events and ends with a
// summary of the final result. One that redraws also has Tick().
type Streamer interface {
	runner.Observer
	Summary(r *runner.Result) error
}

var (
	table  []*Reporter
	byName = map[string]*Reporter{}
	// Names of the reporters, in the order help lists them.
	Names []string
)

// add registers a reporter; it panics at start-up on a duplicate name or a
// row without a renderer.
func add(r Reporter) {
	if _, dup := byName[r.Name]; dup || r.Name == "" || (r.Render == nil && r.Dir == nil) {
		panic(fmt.Sprintf("reporters: bad or duplicate row %q", r.Name))
	}
	table = append(table, &r)
	byName[r.Name] = &r
	Names = append(Names, r.Name)
}

func init() {
	add(Reporter{Name: "console", Render: WriteSummary,
		Stream: func(w io.Writer, o StreamOptions) Streamer {
			if o.Live {
				return NewLiveConsole(w, o.Color, LiveOptions{Width: o.Width})
			}
			return NewConsole(w, o.Color)
		}})
	add(Reporter{Name: "json", Render: func(w io.Writer, r *runner.Result, _ bool) error { return WriteJSON(w, r) }})
	add(Reporter{Name: "junit", NeedsPath: true, Render: func(w io.Writer, r *runner.Result, _ bool) error { return WriteJUnit(w, r) }})
	add(Reporter{Name: "github", OnlyWhen: "GITHUB_ACTIONS", Render: func(w io.Writer, r *runner.Result, _ bool) error { return WriteGitHub(w, r) }})
	add(Reporter{Name: "html", DefaultPath: html.DefaultDir,
		Dir: func(dir string, r *runner.Result, readFile func(string) ([]byte, error)) error {
			return html.WriteDir(dir, r, html.Options{ReadFile: readFile})
		}})
}

// Lookup returns the row of a reporter name.
func Lookup(name string) (*Reporter, bool) {
	r, ok := byName[name]
	return r, ok
}

func unknown(name string) error {
	return fmt.Errorf("unknown reporter %q (known: %s)", name, strings.Join(Names, ", "))
}

// Spec is one --reporter NAME[=PATH].
type Spec struct {
	Name string
	Path string // empty: the reporter's default output
}

// ParseSpec parses NAME[=PATH]. An unknown name is an error that lists the
// known names; a reporter that writes a file needs a path.
func ParseSpec(v string) (Spec, error) {
	name, path, _ := strings.Cut(v, "=")
	r, ok := Lookup(name)
	if !ok {
		return Spec{}, unknown(name)
	}
	if r.NeedsPath && path == "" {
		return Spec{}, fmt.Errorf("reporter %s needs a path: --reporter %s=PATH", name, name)
	}
	return Spec{Name: name, Path: path}, nil
}

// Render writes the final result with the reporter of the given name (the
// console renders its summary). A reporter that writes a directory cannot.
func Render(name string, w io.Writer, r *runner.Result, color bool) error {
	rep, ok := Lookup(name)
	if !ok {
		return unknown(name)
	}
	if rep.Render == nil {
		return fmt.Errorf("reporter %s writes a directory, not a stream", name)
	}
	return rep.Render(w, r, color)
}

// Listeners fans suite events out to several listeners, in order.
type Listeners []runner.Observer

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
