package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/adtest/adtest/cmd/internal/cmdline"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner"

	"github.com/adtest/adtest/drivers"
)

// didYouMean is " (did you mean X?)" for the candidate nearest to word by
// edit distance, or "" when none is near enough.
func didYouMean(word string, candidates []string) string {
	if best, ok := lang.Closest(word, candidates, lang.SuggestionDistance(word)); ok {
		return fmt.Sprintf(" (did you mean %s?)", best)
	}
	return ""
}

// unknownCommand answers `adtest rn` or `adtest --verison`: the error with
// the nearest command or flag, as one JSON object when the line asks for
// --json (an agent reads only stdout), else with the usage on stderr.
func unknownCommand(env *Env, args []string, cmds map[string]command) int {
	word := args[0]
	var msg string
	if strings.HasPrefix(word, "-") {
		written, _, _ := strings.Cut(word, "=")
		msg = (&cmdline.UnknownFlagError{Flag: written, Suggestion: cmdline.Nearest(written, []string{"--version", "--help"})}).Error()
	} else {
		names := make([]string, 0, len(cmds))
		for n := range cmds {
			names = append(names, n)
		}
		sort.Strings(names)
		msg = fmt.Sprintf("unknown command %q%s", word, didYouMean(word, names))
	}
	if cmdline.Mentions(args, "json") {
		writeJSONLine(env.Stdout, map[string]any{"ok": false, "error": &runner.ErrorInfo{
			Code: runner.CodeInvalidArgs, Reason: drivers.ReasonUnknownCommand, Message: "adtest: " + msg,
			Hint: "Run `adtest --help` for the commands."}})
		return ExitUsage
	}
	fmt.Fprintf(env.Stderr, "adtest: %s\n", msg)
	fmt.Fprintln(env.Stderr, "run 'adtest --help' for the commands")
	return ExitUsage
}
