package reporters

import (
	"fmt"
	"io"
	"strings"

	"github.com/adtest/adtest/runner"
)

// Where a --repair suggestion shows: the diff under the failure in the
// console, the patch as a JUnit attachment, a GitHub notice per changed
// line. A repaired test is still reported failed.

// repairOf is the repair of a test's last attempt (nil when none).
func repairOf(t runner.TestResult) *runner.RepairReport {
	if n := len(t.Attempts); n > 0 {
		return t.Attempts[n-1].Repair
	}
	return nil
}

// writeConsoleRepair writes the repair under a failure, indented as the
// failure's own lines.
func writeConsoleRepair(b *strings.Builder, r *runner.RepairReport, p palette) {
	if r == nil {
		return
	}
	if r.Status != "repaired" {
		fmt.Fprintf(b, "     repair: refused: %s\n", EscapeText(r.Refusal))
		return
	}
	what := "suggested repair (verified by a re-run from the start; the test stays failed)"
	if r.Applied {
		what = "repair applied to the script (verified by a re-run from the start; this run stays failed)"
	}
	fmt.Fprintf(b, "     %s: %s\n", p.bold.Sprint("repair"), what)
	for _, c := range r.Changes {
		if c.Caution {
			fmt.Fprintf(b, "     caution: line %d stands on the %s, not on the old element's identity (no target-v1 annotation): read it before applying\n", c.Line, EscapeText(c.StoodOn))
		}
	}
	if r.Patch != "" {
		fmt.Fprintf(b, "     patch: %s\n", EscapeControl(r.Patch))
		if r.ApplyCommand != "" {
			fmt.Fprintf(b, "     review, then from here: %s\n", EscapeControl(r.ApplyCommand))
		}
	}
	for _, l := range strings.Split(strings.TrimSuffix(r.Diff, "\n"), "\n") {
		line := EscapeControl(l)
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
		case strings.HasPrefix(l, "+"):
			line = p.pass.Sprint(line)
		case strings.HasPrefix(l, "-"):
			line = p.fail.Sprint(line)
		}
		fmt.Fprintf(b, "       %s\n", line)
	}
}

// junitRepair is the system-out lines of a repair: the patch attached.
func junitRepair(r *runner.RepairReport) string {
	if r == nil {
		return ""
	}
	if r.Status != "repaired" {
		return "repair: refused: " + r.Refusal + "\n"
	}
	out := "repair: suggested, verified\n"
	if r.Patch != "" {
		out += "[[ATTACHMENT|" + r.Patch + "]]\n"
	}
	if r.ApplyCommand != "" {
		out += "apply: " + r.ApplyCommand + "\n"
	}
	if r.Record != "" {
		out += "[[ATTACHMENT|" + r.Record + "]]\n"
	}
	return out
}

// writeGitHubRepair writes a ::notice on each line a repair changes.
func writeGitHubRepair(w io.Writer, t runner.TestResult) error {
	r := repairOf(t)
	if r == nil || r.Status != "repaired" {
		return nil
	}
	for _, c := range r.Changes {
		props := fmt.Sprintf("file=%s,line=%d,title=%s", ghProp(c.File), c.Line, ghProp("adtest suggested repair ("+c.Basis+")"))
		msg := fmt.Sprintf("%s\nbecomes\n%s\npatch: %s", c.OldLine, c.NewLine, r.Patch)
		if r.ApplyCommand != "" {
			msg += "\napply: " + r.ApplyCommand
		}
		if _, err := fmt.Fprintf(w, "::notice %s::%s\n", props, ghData(msg)); err != nil {
			return err
		}
	}
	return nil
}
