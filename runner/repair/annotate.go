package repair

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/internal/atomicfile"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner"
	"github.com/adtest/adtest/runner/match"
)

// Annotating a script that passed (`adtest annotate`, `run --annotate`):
// above each step that resolved a selector target, the target-v1 line of
// the element it acted on, the evidence the recorder writes and a later
// repair stands on (match.Evidence, the one place that names an element).
// Only the annotation lines are inserted: every line of the script stays
// byte for byte (${VAR} references included). An annotation already there
// that still matches its element is kept as it is; one that no longer
// matches is reported as a drift and left for a person (or a repair).

// Annotation statuses.
const (
	StatusAnnotated = "annotated" // lines were added
	StatusUnchanged = "unchanged" // nothing to add
)

// Annotation is what annotating one script did.
type Annotation struct {
	File    string `json:"file"`
	Status  string `json:"status"` // annotated, unchanged or refused
	Refusal string `json:"refusal,omitempty"`
	// Added are the lines written, Kept the steps whose annotation still
	// matches, Drifts those whose annotation no longer does, Skipped the
	// steps given none (and why).
	Added   []AnnotatedStep `json:"added"`
	Kept    []AnnotatedStep `json:"kept"`
	Drifts  []AnnotatedStep `json:"drifts"`
	Skipped []AnnotatedStep `json:"skipped"`
	// Patch is the unified diff that adds the lines; Source the annotated
	// script.
	Patch  string `json:"-"`
	Source []byte `json:"-"`
}

// AnnotatedStep is one step of an Annotation.
type AnnotatedStep struct {
	Step       int    `json:"step"`
	Line       int    `json:"line"`
	Annotation string `json:"annotation,omitempty"` // the line added
	Element    string `json:"element,omitempty"`    // the element the step acted on
	Why        string `json:"why,omitempty"`        // a drift's or a skip's reason
}

// Annotate annotates script (read from src, named path in the patch) from
// the journal entries of its replay ended in ar. A run that did not pass
// annotates nothing. ro carries the run's scope and secrets: no annotation
// holds a secret's value (the step is skipped instead).
func Annotate(script *lang.Script, src []byte, path string, ar runner.AttemptResult, entries []runner.JournalEntry, ro runner.ReplayOptions) *Annotation {
	res := &Annotation{File: path, Status: StatusRefused, Added: []AnnotatedStep{}, Kept: []AnnotatedStep{}, Drifts: []AnnotatedStep{}, Skipped: []AnnotatedStep{}}
	if ar.Status != runner.StatusPassed {
		res.Refusal = "the run did not pass (" + failure(ar) + "): a failing run annotates nothing"
		if fe := ar.Error; fe != nil && fe.Reason == drivers.ReasonIdentityMismatch {
			// Replay checks each annotation: one that no longer matches
			// its element fails the run, and is the drift to report.
			res.Drifts = append(res.Drifts, AnnotatedStep{Step: fe.Step, Line: fe.Line,
				Why: "the target-v1 annotation no longer matches its element: a drift (adtest repair proposes the new line)"})
		}
		return res
	}
	red := secretMasker(ro)
	lines, final := splitLines(src)
	insert := map[int]string{} // line -> the annotation above it
	seen := map[*lang.Action]bool{}
	for _, e := range entries {
		if e.Step < 1 || e.Step > len(script.Actions) || e.Error != nil || e.Resolution == nil || lang.TargetKind(e.Resolution.Kind) != lang.TargetSelector || e.Bound == nil {
			continue
		}
		a := script.Actions[e.Step-1]
		if a.Line() != e.Line || seen[a] {
			continue
		}
		seen[a] = true
		// The step's binding (of the action as bound) is on its entry; the
		// action as written is bound apart only when interpolation changed it.
		bargs := e.Args
		wargs, werr := bargs, error(nil)
		if e.Bound != a {
			wargs, werr = lang.Bind(a)
		}
		wt, wok := wargs.(lang.TargetArgs)
		bt, bok := bargs.(lang.TargetArgs)
		if werr != nil || !wok || !bok || wt.Target.Kind != lang.TargetSelector || bt.Target.Kind != lang.TargetSelector {
			continue // not a target step (a wait, a read), or not a selector as written
		}
		tree, idx := e.Resolution.Tree, e.Resolution.Index
		if tree == nil || idx < 0 || idx >= len(tree.Nodes) {
			continue
		}
		n := &tree.Nodes[idx]
		st := AnnotatedStep{Step: e.Step, Line: a.Line(), Element: red.String(match.Describe(match.CanonRole(n.Role), n.Label, n.Text, n.ID))}
		if ev := a.TargetEvidence; ev != nil {
			if match.HasIdentity(tree, idx, ev) && match.Binds(tree, bt.Target.Selector, ev, idx, true) {
				res.Kept = append(res.Kept, st)
			} else {
				st.Why = "the annotation no longer matches the element the step acted on: a drift (adtest repair, or delete the line and annotate again)"
				res.Drifts = append(res.Drifts, st)
			}
			continue
		}
		if a.Targets != nil {
			continue // a two-target step keeps what it has
		}
		if strings.Contains(wt.Target.Raw, "${") {
			// The evidence would pin the value the reference had in this
			// run; the next run may give it another.
			st.Why = "its selector holds a ${VAR} reference: the evidence would pin this run's value"
			res.Skipped = append(res.Skipped, st)
			continue
		}
		ev := match.Evidence(tree, idx, bt.Target.Selector, true, red.Finds)
		if ev == nil {
			st.Why = "no target-v1 evidence isolates this element for its selector"
			if match.Evidence(tree, idx, bt.Target.Selector, true, nil) != nil {
				st.Why = "its evidence would hold a secret's value"
			}
			res.Skipped = append(res.Skipped, st)
			continue
		}
		c := *a
		c.TargetEvidence = ev
		ann, _, _ := strings.Cut(lang.FormatAction(&c), "\n")
		if red.Finds(ann) {
			st.Why = "its evidence would hold a secret's value"
			res.Skipped = append(res.Skipped, st)
			continue
		}
		if a.Line() < 1 || a.Line() > len(lines) {
			continue
		}
		cmd := lines[a.Line()-1]
		indent := cmd[:len(cmd)-len(strings.TrimLeft(cmd, " \t"))]
		insert[a.Line()] = indent + ann
		st.Annotation = ann
		res.Added = append(res.Added, st)
	}
	if len(insert) == 0 {
		res.Status = StatusUnchanged
		return res
	}
	var next []string
	for i, l := range lines {
		if ann, ok := insert[i+1]; ok {
			next = append(next, ann)
		}
		next = append(next, l)
	}
	out := joinLines(next, final)
	// The annotated script must read back as the same steps, each
	// annotated one carrying its evidence.
	again, err := lang.Parse(script.File, out)
	if err != nil || len(again.Actions) != len(script.Actions) {
		res.Status, res.Added = StatusRefused, []AnnotatedStep{}
		res.Refusal = fmt.Sprintf("the annotated script does not read back as the same steps: %v", err)
		return res
	}
	for _, st := range res.Added {
		if again.Actions[st.Step-1].TargetEvidence == nil {
			res.Status, res.Added = StatusRefused, []AnnotatedStep{}
			res.Refusal = fmt.Sprintf("line %d's annotation does not read back", st.Line)
			return res
		}
	}
	res.Status, res.Source = StatusAnnotated, out
	for ctx := 3; ctx >= 0; ctx-- {
		res.Patch = patchOf(path, src, out, ctx)
		if !red.Finds(res.Patch) {
			break
		}
	}
	return res
}

// WriteAnnotation publishes annotations/<file>.json (always) and, when
// lines were added, annotations/<file>.patch below dir.
func WriteAnnotation(dir string, res *Annotation) (patch, record string, err error) {
	base := filepath.Join(dir, "annotations", ArtifactName(res.File))
	if res.Status == StatusAnnotated && res.Patch != "" {
		patch = base + ".patch"
		if err := atomicfile.WriteFile(patch, []byte(res.Patch), atomicfile.Options{MkdirAll: true}); err != nil {
			return "", "", err
		}
	}
	b, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return patch, "", err
	}
	record = base + ".json"
	if err := atomicfile.WriteFile(record, append(b, '\n'), atomicfile.Options{MkdirAll: true}); err != nil {
		return patch, "", err
	}
	return patch, record, nil
}

// ApplyAnnotation writes the annotated script over path, atomically and
// with the file's mode.
func ApplyAnnotation(path string, res *Annotation) error {
	if res.Status != StatusAnnotated || res.Source == nil {
		return fs.ErrInvalid
	}
	perm := fs.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		perm = st.Mode().Perm()
	}
	return atomicfile.WriteFile(path, res.Source, atomicfile.Options{Perm: perm, Sync: true})
}

// Report is the annotation as reporters show it.
func (res *Annotation) Report(patch, record string) *runner.AnnotationReport {
	r := &runner.AnnotationReport{Status: res.Status, Refusal: res.Refusal, Patch: patch, Record: record,
		Added: len(res.Added), Kept: len(res.Kept), Skipped: len(res.Skipped)}
	for _, d := range res.Drifts {
		r.Drifts = append(r.Drifts, fmt.Sprintf("line %d: %s", d.Line, d.Why))
	}
	return r
}
