package suite

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/adtest/adtest/internal/scriptpath"
	"github.com/adtest/adtest/runner"
)

// ReadFS is what reading the last run's record and a test list needs of a
// filesystem (cmd's, which a test may replace).
type ReadFS interface {
	ReadFile(name string) ([]byte, error)
	Stat(name string) (fs.FileInfo, error)
}

// MarshalLastRun is the file's content.
func MarshalLastRun(lr LastRun) ([]byte, error) {
	b, err := json.MarshalIndent(lr, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// LastRun is .adtest/last-run.json: what `--last-failed` reruns. Every run
// writes it; a shard writes its own (last-run-shard-I-of-N.json), so that
// `--shard I/N --last-failed` reruns that shard's failures.
type LastRun struct {
	Status string `json:"status"` // passed, failed or interrupted
	RunID  string `json:"runId"`
	Shard  string `json:"shard,omitempty"`
	// FailedTests are the files of the tests that failed, timed out or did
	// not run, as reports show them.
	FailedTests []string `json:"failedTests"`
	// Durations are the tests' last durations in ms by file (a file run
	// several times: their mean), for the next run's order (schedule.go).
	// Files this run did not run keep what an earlier run timed.
	Durations Weights `json:"durations,omitempty"`
}

// LastRunPath is the record of the runs of shard (of no shard: zero) in
// cwd.
func LastRunPath(cwd string, shard ShardSpec) string {
	name := "last-run.json"
	if shard.Enabled() {
		name = fmt.Sprintf("last-run-shard-%d-of-%d.json", shard.Index, shard.Count)
	}
	return filepath.Join(cwd, ".adtest", name)
}

// NewLastRun is the record of a run's result.
func NewLastRun(res *runner.Result, runID string) LastRun {
	lr := LastRun{Status: "passed", RunID: runID, Shard: res.Shard, FailedTests: []string{}}
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
	lr.Durations = WeightsFromResult(res)
	return lr
}

// KeepDurations adds to lr the durations of prev (the record before it) of
// files lr did not time, when keep says the file is still there.
func KeepDurations(lr *LastRun, prev *LastRun, keep func(file string) bool) {
	if prev == nil {
		return
	}
	for f, d := range prev.Durations {
		if _, ok := lr.Durations[f]; ok || !keep(f) {
			continue
		}
		if lr.Durations == nil {
			lr.Durations = Weights{}
		}
		lr.Durations[f] = d
	}
}

// KeepLastFailed keeps the tests the previous run (of the same shard) left
// failed. It returns a usage error when there is no previous run.
func KeepLastFailed(fsys ReadFS, cwd string, shard ShardSpec, tests []*Test) ([]*Test, string, error) {
	lr, shown, err := ReadLastRun(fsys, cwd, shard)
	if err != nil {
		return nil, shown, err
	}
	failed := map[string]bool{}
	for _, f := range lr.FailedTests {
		failed[f] = true
	}
	var out []*Test
	for _, t := range tests {
		if failed[t.File] {
			out = append(out, t)
		}
	}
	return out, shown, nil
}

// ReadLastRun reads the last run's record (of the shard) and returns it with
// its path as shown to the user.
func ReadLastRun(fsys ReadFS, cwd string, shard ShardSpec) (*LastRun, string, error) {
	path := LastRunPath(cwd, shard)
	shown := scriptpath.Display(cwd, path)
	b, err := fsys.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, shown, fmt.Errorf("--last-failed: no previous run recorded (%s is missing); run the suite once without --last-failed", shown)
		}
		return nil, shown, fmt.Errorf("--last-failed: %v", err)
	}
	var lr LastRun
	if err := json.Unmarshal(b, &lr); err != nil {
		return nil, shown, fmt.Errorf("--last-failed: %s: %v (delete it and run the suite again)", shown, err)
	}
	return &lr, shown, nil
}

// ReadTestList reads --test-list FILE: one path, directory or glob a line,
// relative to the working directory; blank lines and `#` comments (a whole
// line, or after a space) are ignored. An entry that names nothing is an
// error at FILE:LINE.
func ReadTestList(fsys ReadFS, cwd, file string) ([]string, error) {
	b, err := fsys.ReadFile(scriptpath.Abs(cwd, file))
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
			if _, err := fsys.Stat(scriptpath.Abs(cwd, line)); err != nil {
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
