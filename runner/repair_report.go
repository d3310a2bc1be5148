package runner

import "github.com/adtest/adtest/drivers"

// RepairReport is what `adtest run --repair` left for a failed test
// (runner/repair builds it): the reporters show the diff under the failure.
// A repair never changes the test's status: the script as written failed.
type RepairReport struct {
	// Status is "repaired" (a verified patch was written) or "refused".
	Status   string `json:"status"`
	Refusal  string `json:"refusal,omitempty"`
	Verified bool   `json:"verified"`
	// Applied is set when --apply wrote the repaired script.
	Applied bool `json:"applied,omitempty"`
	// Patch and Record are the paths of repairs/<file>.patch and .json.
	Patch  string `json:"patch,omitempty"`
	Record string `json:"record,omitempty"`
	// ApplyCommand is the shell command (quoted for a POSIX shell) that
	// applies Patch from the directory the run was started in.
	ApplyCommand string `json:"applyCommand,omitempty"`
	// Diff is the patch's text.
	Diff    string         `json:"diff,omitempty"`
	Changes []RepairChange `json:"changes,omitempty"`
	// Before is the screenshot of the first repaired step's divergence
	// screen, After the one the verifying re-run ended on.
	Before string `json:"before,omitempty"`
	After  string `json:"after,omitempty"`
}

// RepairChange is one changed line of a repair.
type RepairChange struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	OldLine string `json:"oldLine"`
	NewLine string `json:"newLine"`
	Basis   string `json:"basis"`
	// StoodOn is the evidence the new line stands on (annotation, command
	// contract + id, command contract + words); Caution marks a line
	// proposed without the old element's identity.
	StoodOn string `json:"stoodOn,omitempty"`
	Caution bool   `json:"caution,omitempty"`
	// OldElement and NewElement are the element the step meant (its
	// target-v1 identity and selector) and the one it now hits.
	OldElement string `json:"oldElement,omitempty"`
	NewElement string `json:"newElement,omitempty"`
}

// mask masks every text of r in place.
func (r *RepairReport) mask(m *drivers.Masker) {
	if r == nil || m == nil {
		return
	}
	r.Refusal, r.Diff = m.String(r.Refusal), m.String(r.Diff)
	for i := range r.Changes {
		c := &r.Changes[i]
		c.OldLine, c.NewLine = m.String(c.OldLine), m.String(c.NewLine)
		c.OldElement, c.NewElement = m.String(c.OldElement), m.String(c.NewElement)
	}
}

// AnnotationReport is what `adtest annotate` (run --annotate) did for a
// passed test (runner/repair builds it): the target-v1 lines it added as a
// patch (or into the script with --apply), the annotations it kept, and
// the ones that no longer match (drifts).
type AnnotationReport struct {
	// Status is annotated (lines added), unchanged or refused.
	Status  string `json:"status"`
	Refusal string `json:"refusal,omitempty"`
	Applied bool   `json:"applied,omitempty"`
	// Patch and Record are the paths of annotations/<file>.patch and .json.
	Patch   string   `json:"patch,omitempty"`
	Record  string   `json:"record,omitempty"`
	Added   int      `json:"added"`
	Kept    int      `json:"kept"`
	Skipped int      `json:"skipped"`
	Drifts  []string `json:"drifts,omitempty"`
}

// mask masks every text of r in place.
func (r *AnnotationReport) mask(m *drivers.Masker) {
	if r == nil || m == nil {
		return
	}
	r.Refusal = m.String(r.Refusal)
	r.Drifts = m.Strings(r.Drifts)
}
