package main

import (
	"flag"
	"fmt"
	"sort"
	"strings"

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

// flagNames are the spellings of a flag set's flags as its usage writes them:
// -x for one letter, --name otherwise.
func flagNames(fs *flag.FlagSet) []string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) {
		if hiddenFlags[f.Name] {
			return
		}
		names = append(names, dashed(f.Name))
	})
	sort.Strings(names)
	return names
}

func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// flagError rewrites the flag package's "flag provided but not defined:
// -retris" as "unknown flag --retris (did you mean --retries?)"; other errors
// pass unchanged.
func flagError(fs *flag.FlagSet, err error) error {
	const undefined = "flag provided but not defined: "
	msg := err.Error()
	name, ok := strings.CutPrefix(msg, undefined)
	if !ok {
		return err
	}
	bare := strings.TrimLeft(name, "-")
	return fmt.Errorf("unknown flag %s%s", dashed(bare), suggestFlag("--"+bare, flagNames(fs)))
}

// suggestFlag is didYouMean for a flag: it compares the names without their
// dashes, so -retris and --retris both find --retries.
func suggestFlag(given string, known []string) string {
	bare := strings.TrimLeft(given, "-")
	if k, _, ok := strings.Cut(bare, "="); ok {
		bare = k
	}
	byBare := map[string]string{}
	var cands []string
	for _, k := range known {
		b := strings.TrimLeft(k, "-")
		if _, dup := byBare[b]; !dup {
			byBare[b] = k
			cands = append(cands, b)
		}
	}
	if best, ok := lang.Closest(bare, cands, lang.SuggestionDistance(bare)); ok {
		return fmt.Sprintf(" (did you mean %s?)", byBare[best])
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
		msg = fmt.Sprintf("unknown flag %s%s", word, suggestFlag(word, []string{"--version", "--help"}))
	} else {
		names := make([]string, 0, len(cmds))
		for n := range cmds {
			names = append(names, n)
		}
		sort.Strings(names)
		msg = fmt.Sprintf("unknown command %q%s", word, didYouMean(word, names))
	}
	if wantsJSON(args) {
		writeJSONLine(env.Stdout, map[string]any{"ok": false, "error": &runner.ErrorInfo{
			Code: runner.CodeInvalidArgs, Reason: drivers.ReasonUnknownCommand, Message: "adtest: " + msg,
			Hint: "Run `adtest --help` for the commands."}})
		return ExitUsage
	}
	fmt.Fprintf(env.Stderr, "adtest: %s\n", msg)
	fmt.Fprintln(env.Stderr, "run 'adtest --help' for the commands")
	return ExitUsage
}

// wantsJSON reports a --json among the arguments (before a `--`).
func wantsJSON(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "--json" {
			return true
		}
	}
	return false
}
