package reporters

import (
	"fmt"
	"strings"

	"github.com/adtest/adtest/internal/plural"
	"github.com/adtest/adtest/runner"
)

// Where --annotate shows: one line per test under "Annotations:" in the
// console summary (the patch to review, or the script it wrote), with each
// annotation that no longer matches its element (a drift) below it.

// writeConsoleAnnotations writes the annotations of the tests' last
// attempts, if any test has one.
func writeConsoleAnnotations(b *strings.Builder, r *runner.Result, p palette) {
	head := false
	for _, t := range r.Tests {
		n := len(t.Attempts)
		if n == 0 || t.Attempts[n-1].Annotation == nil {
			continue
		}
		a := t.Attempts[n-1].Annotation
		if !head {
			fmt.Fprintf(b, "\n%s\n", p.bold.Sprint("Annotations:"))
			head = true
		}
		kept := ""
		if a.Kept > 0 {
			kept = fmt.Sprintf(", %d kept", a.Kept)
		}
		skipped := ""
		if a.Skipped > 0 {
			skipped = fmt.Sprintf(", %d skipped (see %s)", a.Skipped, EscapeControl(a.Record))
		}
		file := EscapeControl(t.File)
		switch {
		case a.Status == "refused":
			fmt.Fprintf(b, "  %s: not annotated: %s\n", file, EscapeText(a.Refusal))
		case a.Status != "annotated":
			fmt.Fprintf(b, "  %s: nothing to add%s%s\n", file, kept, skipped)
		case a.Applied:
			fmt.Fprintf(b, "  %s: %d target-v1 %s written into the script%s%s\n", file, a.Added, plural.Of(a.Added, "line", "lines"), kept, skipped)
		default:
			fmt.Fprintf(b, "  %s: %d target-v1 %s added%s%s\n", file, a.Added, plural.Of(a.Added, "line", "lines"), kept, skipped)
			if a.Patch != "" {
				fmt.Fprintf(b, "     patch: %s   (review, then from here: git apply -p0 %s)\n", EscapeControl(a.Patch), EscapeControl(a.Patch))
			}
		}
		for _, d := range a.Drifts {
			fmt.Fprintf(b, "     drift: %s\n", EscapeText(d))
		}
	}
}
