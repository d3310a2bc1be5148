package daemon

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/adtest/adtest/runner"

	"github.com/adtest/adtest/drivers"
)

// checkScriptTarget refuses, before anything is closed or opened, a
// recording path that can never be written: an existing directory, or a
// path below something that is not a directory. --force does not change
// that (it replaces a file, it cannot replace a directory).
func checkScriptTarget(path string) *runner.ErrorInfo {
	st, err := os.Lstat(path)
	if err == nil && st.IsDir() {
		return &runner.ErrorInfo{Code: runner.CodeInvalidArgs, Reason: drivers.ReasonScriptTargetIsDirectory,
			Message: fmt.Sprintf("The recording path %s is a directory", path),
			Hint:    "Pass a file path such as --save-script=" + filepath.Join(path, "flow.ad") + ".", Details: map[string]any{"path": path}}
	}
	for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
		st, err := os.Stat(dir)
		if err == nil && !st.IsDir() {
			return &runner.ErrorInfo{Code: runner.CodeInvalidArgs, Reason: drivers.ReasonScriptTargetUnwritable,
				Message: fmt.Sprintf("The recording path %s is below %s, which is not a directory", path, dir),
				Hint:    "Pass --save-script=<a path in a directory>.", Details: map[string]any{"path": path}}
		}
		if err == nil || filepath.Dir(dir) == dir {
			return nil
		}
	}
}

// noteScript remembers the file this session just published at path, so
// that a later publish (close, another save-script) may replace it: it is
// the session's own file, not someone else's. Called with the session held.
func (e *entry) noteScript(path string) {
	st, err := os.Lstat(path)
	if err != nil {
		return
	}
	if e.written == nil {
		e.written = map[string]fs.FileInfo{}
	}
	e.written[path] = st
}

// ownsScript reports whether the file at path is still the one this session
// wrote there (same file, size and modification time): anything else there
// is foreign and is replaced only with --force.
func (e *entry) ownsScript(path string) bool {
	prev, ok := e.written[path]
	if !ok {
		return false
	}
	st, err := os.Lstat(path)
	return err == nil && os.SameFile(prev, st) && st.Size() == prev.Size() && st.ModTime().Equal(prev.ModTime())
}

// rescueScript keeps a recording whose publication failed after its session
// was closed (the recording would be lost otherwise): it writes it to a new
// file in the script directory and returns the path, or "" if that failed
// too.
func (r *registry) rescueScript(e *entry) string {
	dir := r.srv.cfg.ScriptDir
	if dir == "" {
		dir = os.TempDir()
	}
	script, err := e.rec.Script()
	if err != nil || r.srv.cfg.WriteScript == nil {
		return ""
	}
	path := defaultScriptPath(dir, e.name+"-unsaved", e.created)
	if r.srv.cfg.WriteScript(path, script, false) != nil {
		return ""
	}
	return path
}

// keptErr amends the error of a failed publication at close with where the
// recording was kept instead.
func keptErr(ei *runner.ErrorInfo, path, rescued string) *runner.ErrorInfo {
	if ei.Details == nil {
		ei.Details = map[string]any{}
	}
	if rescued == "" {
		ei.Message += "; the session is closed and its recording could not be kept"
		return ei
	}
	ei.Details["keptAt"] = rescued
	ei.Message += fmt.Sprintf("; the session is closed, its recording was kept at %s", rescued)
	ei.Hint = fmt.Sprintf("Move it where you wanted it: mv %s %s", rescued, path)
	return ei
}
