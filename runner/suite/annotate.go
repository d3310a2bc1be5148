package suite

// --annotate: the steps of a passed attempt are heard by a journal; their
// resolved elements become target-v1 lines (runner/repair's Annotate): a
// patch under the run's annotations/, or the script itself with Apply. A
// failed attempt annotates nothing.

import (
	"sync"

	"github.com/adtest/adtest/internal/scriptpath"
	"github.com/adtest/adtest/runner"
	"github.com/adtest/adtest/runner/repair"
	"github.com/adtest/adtest/runner/runctx"
)

// AnnotateConfig turns --annotate on.
type AnnotateConfig struct {
	// Apply writes the annotations into the script file (--apply).
	Apply bool
}

// stepJournal keeps the step records of one attempt.
type stepJournal struct {
	mu      sync.Mutex
	entries []runner.JournalEntry
}

func (j *stepJournal) Record(e runner.JournalEntry) {
	j.mu.Lock()
	j.entries = append(j.entries, e)
	j.mu.Unlock()
}

func (j *stepJournal) all() []runner.JournalEntry {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]runner.JournalEntry(nil), j.entries...)
}

// annotateAttempt annotates t from its passed attempt ar, whose steps j
// heard, and attaches the report to ar.
func (s *scheduler) annotateAttempt(t *Test, j *stepJournal, ar *runner.AttemptResult, rc *runctx.Run) {
	ac := s.cfg.Annotate
	if ac == nil || t.Script == nil || j == nil {
		return
	}
	ro := runner.ReplayOptions{Scope: rc.Scope, Secrets: rc.Secrets}
	res := repair.Annotate(t.Script, t.Source, t.File, *ar, j.all(), ro)
	var patch, record string
	if s.cfg.RunDir != "" {
		var err error
		patch, record, err = repair.WriteAnnotation(s.cfg.RunDir, res)
		if err != nil {
			ar.Warnings = append(ar.Warnings, "annotate: "+err.Error())
		}
	}
	report := res.Report(scriptpath.Display(s.cfg.Cwd, patch), scriptpath.Display(s.cfg.Cwd, record))
	if patch == "" {
		report.Patch = ""
	}
	if record == "" {
		report.Record = ""
	}
	if ac.Apply && res.Status == repair.StatusAnnotated && t.Path != "" {
		if err := repair.ApplyAnnotation(t.Path, res); err != nil {
			ar.Warnings = append(ar.Warnings, "annotate --apply: "+err.Error())
		} else {
			report.Applied = true
		}
	}
	ar.Annotation = report
}
