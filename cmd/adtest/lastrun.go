package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/adtest/adtest/internal/plural"
	"github.com/adtest/adtest/internal/scriptpath"
	"github.com/adtest/adtest/internal/shellquote"
	"github.com/adtest/adtest/reporters"
	"github.com/adtest/adtest/runner"
	"github.com/adtest/adtest/runner/suite"
)

// lastRun is .adtest/last-run.json: what `--last-failed` reruns. Every run
// writes it; a shard writes its own (last-run-shard-I-of-N.json), so that
// `--shard I/N --last-failed` reruns that shard's failures.
type lastRun struct {
	Status string `json:"status"` // passed, failed or interrupted
	RunID  string `json:"runId"`
	Shard  string `json:"shard,omitempty"`
	// FailedTests are the files of the tests that failed, timed out or did
	// not run, as reports show them.
	FailedTests []string `json:"failedTests"`
}

func lastRunPath(cwd string, shard suite.ShardSpec) string {
	name := "last-run.json"
	if shard.Enabled() {
		name = fmt.Sprintf("last-run-shard-%d-of-%d.json", shard.Index, shard.Count)
	}
	return filepath.Join(cwd, ".adtest", name)
}

func newLastRun(res *runner.Result, runID string) lastRun {
	lr := lastRun{Status: "passed", RunID: runID, Shard: res.Shard, FailedTests: []string{}}
	for _, t := range res.Tests {
		switch t.Status {
		case runner.StatusFailed, runner.StatusTimedOut, runner.StatusNotRun:
			lr.FailedTests = append(lr.FailedTests, t.File)
			lr.Status = "failed"
		}
	}
	if res.Interrupted {
		lr.Status = "interrupted"
	}
	return lr
}

func writeLastRun(fsys FS, path string, lr lastRun) error {
	if err := fsys.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(lr, "", "  ")
	if err != nil {
		return err
	}
	return fsys.ReplaceFile(path, append(b, '\n'), 0o644)
}

// keepLastFailed keeps the tests the previous run (of the same shard) left
// failed. It returns a usage error when there is no previous run.
func keepLastFailed(fsys FS, cwd string, shard suite.ShardSpec, tests []*suite.Test) ([]*suite.Test, string, error) {
	lr, shown, err := readLastRun(fsys, cwd, shard)
	if err != nil {
		return nil, shown, err
	}
	failed := map[string]bool{}
	for _, f := range lr.FailedTests {
		failed[f] = true
	}
	var out []*suite.Test
	for _, t := range tests {
		if failed[t.File] {
			out = append(out, t)
		}
	}
	return out, shown, nil
}

// readLastRun reads the last run's record (of the shard) and returns it with
// its path as shown to the user.
func readLastRun(fsys FS, cwd string, shard suite.ShardSpec) (*lastRun, string, error) {
	path := lastRunPath(cwd, shard)
	shown := scriptpath.Display(cwd, path)
	b, err := fsys.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, shown, fmt.Errorf("--last-failed: no previous run recorded (%s is missing); run the suite once without --last-failed", shown)
		}
		return nil, shown, fmt.Errorf("--last-failed: %v", err)
	}
	var lr lastRun
	if err := json.Unmarshal(b, &lr); err != nil {
		return nil, shown, fmt.Errorf("--last-failed: %s: %v (delete it and run the suite again)", shown, err)
	}
	return &lr, shown, nil
}

// readTestList reads --test-list FILE: one path, directory or glob a line,
// relative to the working directory; blank lines and `#` comments (a whole
// line, or after a space) are ignored. An entry that names nothing is an
// error at FILE:LINE.
func readTestList(fsys FS, cwd, file string) ([]string, error) {
	b, err := fsys.ReadFile(abs(cwd, file))
	if err != nil {
		return nil, fmt.Errorf("--test-list: %v", err)
	}
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if i := strings.Index(line, " #"); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !strings.ContainsAny(line, "*?[") {
			if _, err := fsys.Stat(abs(cwd, line)); err != nil {
				return nil, fmt.Errorf("%s:%d: test input not found: %s", file, n, line)
			}
		}
		out = append(out, line)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("--test-list %s: %v", file, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--test-list %s: the list names no test", file)
	}
	return out, nil
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
