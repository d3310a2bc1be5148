package reporters

import (
	"fmt"
	"io"
	"path"
	"path/filepath"

	"github.com/adtest/adtest/internal/atomicfile"
	"github.com/adtest/adtest/internal/scriptpath"
	"github.com/adtest/adtest/internal/shellquote"
	"github.com/adtest/adtest/runner"
)

// Output is where WriteFinal writes and what it reads: stdout, the
// working directory that relative paths start from, the environment and
// the files the result names (its artifacts, for the html report).
type Output struct {
	Stdout   io.Writer
	Cwd      string
	Getenv   func(string) string // nil: an empty environment
	ReadFile func(string) ([]byte, error)
}

// WriteFinal writes the final result with the reporter table's row for
// s: to its path (a file, or a directory for html), else to stdout; color
// applies to stdout. A reporter that only writes under an environment
// variable (github) writes nothing without it.
func WriteFinal(o Output, s Spec, res *runner.Result, color bool) error {
	rep, ok := Lookup(s.Name)
	if !ok {
		return Render(s.Name, o.Stdout, res, color) // the unknown-reporter error
	}
	if rep.OnlyWhen != "" && (o.Getenv == nil || o.Getenv(rep.OnlyWhen) != "true") {
		return nil
	}
	if rep.Dir != nil {
		dir := s.Path
		if dir == "" {
			dir = rep.DefaultPath
		}
		// The artifacts the result names are read relative to cwd.
		return rep.Dir(scriptpath.Abs(o.Cwd, dir), res, func(name string) ([]byte, error) {
			return o.ReadFile(scriptpath.Abs(o.Cwd, filepath.FromSlash(name)))
		})
	}
	if s.Path == "" {
		return Render(s.Name, o.Stdout, res, color)
	}
	return atomicfile.Write(scriptpath.Abs(o.Cwd, s.Path), atomicfile.Options{MkdirAll: true}, func(w io.Writer) error {
		return Render(s.Name, w, res, false)
	})
}

// WriteReportPath tells where a report written to a file or a directory
// is (console and stdout reports are seen already), on w: "html report:
// .adtest/report/index.html (adtest show-report serves it)", paths shown
// relative to cwd. dirsOnly limits it to directory reports (html), the
// ones `run` names.
func WriteReportPath(w io.Writer, cwd string, s Spec, dirsOnly bool) {
	rep, ok := Lookup(s.Name)
	if !ok || rep.OnlyWhen != "" || dirsOnly && rep.Dir == nil {
		return
	}
	if rep.Dir == nil {
		if s.Path != "" {
			fmt.Fprintf(w, "%s report: %s\n", s.Name, scriptpath.Display(cwd, scriptpath.Abs(cwd, s.Path)))
		}
		return
	}
	dir := s.Path
	if dir == "" {
		dir = rep.DefaultPath
	}
	shown := scriptpath.Display(cwd, scriptpath.Abs(cwd, dir))
	serve := "adtest show-report"
	if filepath.Clean(dir) != filepath.Clean(rep.DefaultPath) {
		serve += " " + shellquote.Word(shown)
	}
	fmt.Fprintf(w, "%s report: %s (%s serves it)\n", s.Name, path.Join(shown, "index.html"), serve)
}
