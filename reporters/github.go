package reporters

import (
	"fmt"
	"io"
	"strings"

	"github.com/adtest/adtest/runner"
)

// WriteGitHub writes GitHub Actions workflow commands: an ::error on the
// failing line of each failed or timed-out test and a ::warning for each
// flaky test. cmd enables it only when GITHUB_ACTIONS=true.
func WriteGitHub(w io.Writer, r *runner.Result) error {
	for _, t := range r.Tests {
		var kind string
		switch t.Status {
		case runner.StatusFailed, runner.StatusTimedOut:
			kind = "error"
		case runner.StatusFlaky:
			kind = "warning"
		default:
			continue
		}
		e, _ := lastError(t)
		props := "file=" + ghProp(t.File)
		if e != nil && e.Line > 0 {
			props += fmt.Sprintf(",line=%d", e.Line)
			if e.Column > 0 {
				props += fmt.Sprintf(",col=%d", e.Column)
			}
		}
		title := t.Name + " " + string(t.Status)
		msg := describe(e)
		if e != nil && e.Hint != "" {
			msg += "\nhint: " + e.Hint
		}
		if t.Status == runner.StatusFlaky {
			msg = fmt.Sprintf("passed on attempt %d; earlier failure: %s", len(t.Attempts), msg)
		}
		props += ",title=" + ghProp(title)
		if _, err := fmt.Fprintf(w, "::%s %s::%s\n", kind, props, ghData(msg)); err != nil {
			return err
		}
		if err := writeGitHubRepair(w, t); err != nil {
			return err
		}
	}
	return nil
}

func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func ghProp(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
