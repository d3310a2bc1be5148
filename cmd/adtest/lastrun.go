package main

import (
	"fmt"
	"io"
	"path"
	"path/filepath"

	"github.com/adtest/adtest/internal/plural"
	"github.com/adtest/adtest/internal/scriptpath"
	"github.com/adtest/adtest/internal/shellquote"
	"github.com/adtest/adtest/reporters"
	"github.com/adtest/adtest/runner/suite"
)

// writeLastRun writes .adtest/last-run.json (suite.LastRun): what
// --last-failed reruns.
func writeLastRun(fsys FS, path string, lr suite.LastRun) error {
	if err := fsys.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	b, err := suite.MarshalLastRun(lr)
	if err != nil {
		return err
	}
	return fsys.ReplaceFile(path, b, 0o644)
}

// writeList prints what a run would execute, one file a line, in a form
// --test-list reads back: skipped tests carry their reason as a comment, and
// a last comment line counts them.
func writeList(w io.Writer, tests []*suite.Test, shard suite.ShardSpec) {
	run := 0
	for _, t := range tests {
		// A file name may hold terminal escapes: shown, never obeyed.
		if t.SkipReason != "" {
			fmt.Fprintf(w, "%s  # skipped: %s\n", reporters.EscapeControl(t.File), reporters.EscapeControl(t.SkipReason))
			continue
		}
		run++
		fmt.Fprintln(w, reporters.EscapeControl(t.File))
	}
	where := ""
	if shard.Enabled() {
		where = " in shard " + shard.String()
	}
	fmt.Fprintf(w, "# %d %s%s", run, plural.Of(run, "test", "tests"), where)
	if skipped := len(tests) - run; skipped > 0 {
		fmt.Fprintf(w, ", %d skipped", skipped)
	}
	fmt.Fprintln(w)
}

// printReportPath tells where a report written to a file or a directory is
// (console and stdout reports are seen already), on w: "html report:
// .adtest/report/index.html (adtest show-report serves it)". dirsOnly limits
// it to directory reports (html), the ones `run` names.
func printReportPath(env *Env, w io.Writer, s reporters.Spec, dirsOnly bool) {
	rep, ok := reporters.Lookup(s.Name)
	if !ok || rep.OnlyWhen != "" || dirsOnly && rep.Dir == nil {
		return
	}
	if rep.Dir == nil {
		if s.Path != "" {
			fmt.Fprintf(w, "%s report: %s\n", s.Name, scriptpath.Display(env.Cwd, abs(env.Cwd, s.Path)))
		}
		return
	}
	dir := s.Path
	if dir == "" {
		dir = rep.DefaultPath
	}
	shown := scriptpath.Display(env.Cwd, abs(env.Cwd, dir))
	serve := "adtest show-report"
	if filepath.Clean(dir) != filepath.Clean(rep.DefaultPath) {
		serve += " " + shellquote.Word(shown)
	}
	fmt.Fprintf(w, "%s report: %s (%s serves it)\n", s.Name, path.Join(shown, "index.html"), serve)
}

// reportPathWriter is where report paths go: stdout, unless a report other
// than the console streams there (a JSON or JUnit document on stdout must
// stay whole), then stderr.
func reportPathWriter(env *Env, specs []reporters.Spec) io.Writer {
	for _, s := range specs {
		if s.Path == "" && s.Name != "console" && s.Name != "github" && s.Name != "html" {
			return env.Stderr
		}
	}
	return env.Stdout
}
