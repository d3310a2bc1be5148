package repair

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/adtest/adtest/internal/atomicfile"
	"github.com/adtest/adtest/runner"
)

// Publishing a repair: the patch and the JSON record under the run's
// artifacts, the repaired script with --apply, the report for reporters.

// ArtifactName is the path of a script's repair files below repairs/,
// without the extension: the script's path as the patch names it, kept
// inside repairs/ (an absolute or ../ path keeps its base name only).
func ArtifactName(path string) string {
	p := filepath.ToSlash(filepath.Clean(path))
	if filepath.IsAbs(path) || p == ".." || strings.HasPrefix(p, "../") {
		return filepath.Base(path)
	}
	return filepath.FromSlash(p)
}

// Write publishes repairs/<file>.json (always: a refusal says why) and,
// for a verified repair only, repairs/<file>.patch, below dir. It returns
// their paths ("" for a file not written).
func Write(dir string, res *Result) (patch, record string, err error) {
	base := filepath.Join(dir, "repairs", ArtifactName(res.File))
	if res.Verified && res.Patch != "" {
		patch = base + ".patch"
		if err := atomicfile.WriteFile(patch, []byte(res.Patch), atomicfile.Options{MkdirAll: true}); err != nil {
			return "", "", err
		}
	}
	masked := res.masked()
	b, err := json.MarshalIndent(masked, "", "  ")
	if err != nil {
		return patch, "", err
	}
	record = base + ".json"
	if err := atomicfile.WriteFile(record, append(b, '\n'), atomicfile.Options{MkdirAll: true}); err != nil {
		return patch, "", err
	}
	return patch, record, nil
}

// masked is a copy of res with the texts a screen gave masked (the lines
// themselves never hold a secret's value: such a candidate is refused).
func (res *Result) masked() *Result {
	m := res.red
	if m == nil {
		return res
	}
	c := *res
	c.Refusal = m.String(res.Refusal)
	c.Changes = make([]Change, len(res.Changes))
	for i, ch := range res.Changes {
		ch.Snapshot = m.Strings(ch.Snapshot)
		ch.OldLine, ch.NewLine = m.String(ch.OldLine), m.String(ch.NewLine)
		ch.Evidence.New.Label, ch.Evidence.New.Text = m.String(ch.Evidence.New.Label), m.String(ch.Evidence.New.Text)
		c.Changes[i] = ch
	}
	c.Tries = make([]Try, len(res.Tries))
	for i, t := range res.Tries {
		t.Outcome = m.String(t.Outcome)
		c.Tries[i] = t
	}
	return &c
}

// Apply writes the repaired script over path, atomically and with the
// file's mode; the target-v1 annotations of the changed lines carry the
// new element's evidence. Only a verified repair is applied.
func Apply(path string, res *Result) error {
	if !res.Verified || res.Source == nil {
		return fs.ErrInvalid
	}
	// A script reached through a symlink is written where the link points:
	// the link stays a link.
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	perm := fs.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		perm = st.Mode().Perm()
	}
	return atomicfile.WriteFile(path, res.Source, atomicfile.Options{Perm: perm, Sync: true})
}

// Report is the result as reporters show it.
func (res *Result) Report(patch, record string) *runner.RepairReport {
	r := &runner.RepairReport{Status: res.Status, Refusal: res.Refusal, Verified: res.Verified,
		Patch: patch, Record: record}
	if res.Verified {
		r.Diff, r.After = res.Patch, res.After
		if len(res.Changes) > 0 {
			r.Before = res.Changes[0].Screenshot
		}
	}
	for _, ch := range res.Changes {
		r.Changes = append(r.Changes, runner.RepairChange{File: res.File, Line: ch.Line, OldLine: ch.OldLine, NewLine: ch.NewLine, Basis: string(ch.Basis),
			StoodOn: ch.StoodOn, Caution: ch.Caution,
			OldElement: describe(ch.Evidence.Old), NewElement: describe(ch.Evidence.New)})
	}
	return r
}
