package reporters

import (
	"fmt"
	"io"

	"github.com/adtest/adtest/internal/plural"
	"github.com/adtest/adtest/runner/suite"
)

// WriteList prints what a run would execute, one file a line, in a form
// --test-list reads back: skipped tests carry their reason as a comment, and
// a last comment line counts them.
func WriteList(w io.Writer, tests []*suite.Test, shard suite.ShardSpec) {
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
	if shard.Enabled() {
		where = " in shard " + shard.String()
	}
	fmt.Fprintf(w, "# %d %s%s", run, plural.Of(run, "test", "tests"), where)
	if skipped := len(tests) - run; skipped > 0 {
		fmt.Fprintf(w, ", %d skipped", skipped)
	}
	fmt.Fprintln(w)
}
