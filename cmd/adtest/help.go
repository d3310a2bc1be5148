package main

import (
	"context"
	"fmt"
	"sort"

	"github.com/adtest/adtest/cmd/internal/cmdline"
	"github.com/adtest/adtest/lang"
)

// markdownOnly is the flags of help commands.
var markdownOnly = cmdline.Set{AnyDashes: true, Flags: []cmdline.Flag{{Name: "markdown", Kind: cmdline.Bool}}}

// runHelp implements `adtest help`, `adtest help COMMAND` and
// `adtest help commands [--markdown]`, all rendered from the command table.
func runHelp(ctx context.Context, env *Env) int {
	args := env.Args
	if len(args) == 1 && (args[0] == "--help" || args[0] == "-h" || args[0] == "-help") {
		args = nil // help about help is help
	}
	if len(args) == 0 {
		usage(env.Stdout, commands())
		fmt.Fprintln(env.Stdout, "\nadtest help commands      the .ad script commands")
		fmt.Fprintln(env.Stdout, "adtest help COMMAND       one script command or adtest subcommand")
		return ExitOK
	}
	if args[0] == "commands" {
		a, err := markdownOnly.Parse(args[1:])
		if err == nil && len(a.Pos) > 0 {
			err = fmt.Errorf("unknown argument %q", a.Pos[0])
		}
		if err != nil {
			fmt.Fprintf(env.Stderr, "adtest help commands: %v\nusage: adtest help commands [--markdown]\n", err)
			return ExitUsage
		}
		if a.Bool("markdown") {
			err = lang.WriteCommandsMarkdown(env.Stdout)
		} else {
			err = lang.WriteCommandsText(env.Stdout)
		}
		if err != nil {
			fmt.Fprintf(env.Stderr, "adtest help: %v\n", err)
			return ExitFailed
		}
		return ExitOK
	}
	if len(args) > 1 {
		fmt.Fprintln(env.Stderr, "usage: adtest help [COMMAND | commands [--markdown]]")
		return ExitUsage
	}
	name := args[0]
	if c, ok := lang.LookupCommand(name); ok {
		if err := lang.WriteCommandHelp(env.Stdout, c); err != nil {
			fmt.Fprintf(env.Stderr, "adtest help: %v\n", err)
			return ExitFailed
		}
		return ExitOK
	}
	subs := commands()
	if s, ok := subs[name]; ok {
		fmt.Fprintf(env.Stdout, "adtest %s — %s\n\nRun \"adtest %s -h\" for its flags.\n", name, s.summary, name)
		return ExitOK
	}
	candidates := lang.CommandNames()
	for n := range subs {
		candidates = append(candidates, n)
	}
	sort.Strings(candidates)
	msg := fmt.Sprintf("adtest help: unknown command %q", name)
	if best, ok := lang.Closest(name, candidates, lang.SuggestionDistance(name)); ok {
		msg += fmt.Sprintf(" (did you mean %q?)", best)
	}
	fmt.Fprintln(env.Stderr, msg)
	fmt.Fprintln(env.Stderr, "Run \"adtest help commands\" for the list of script commands.")
	return ExitUsage
}
