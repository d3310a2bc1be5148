package reporters

import (
	"fmt"
	"io"

	"github.com/adtest/adtest/internal/plural"
)

// Listed is a test as --list shows it: its file, and why it is skipped.
type Listed struct {
	File, SkipReason string
}

// WriteList prints what a run would execute, one file a line, in a form
// --test-list reads back: skipped tests carry their reason as a comment, and
// a last comment line counts them, naming the shard ("" for none).
func WriteList(w io.Writer, tests []Listed, shard string) {
	run := 0
	for _, t := range tests {
		// A file name may hold terminal escapes: shown, never obeyed.
		if t.SkipReason != "" {
			fmt.Fprintf(w, "%s  # skipped: %s\n", EscapeControl(t.File), EscapeControl(t.SkipReason))
			continue
		}
		run++
		fmt.Fprintln(w, EscapeControl(t.File))
	}
	where := ""
	if shard != "" {
		where = " in shard " + shard
	}
	fmt.Fprintf(w, "# %d %s%s", run, plural.Of(run, "test", "tests"), where)
	if skipped := len(tests) - run; skipped > 0 {
		fmt.Fprintf(w, ", %d skipped", skipped)
	}
	fmt.Fprintln(w)
}
