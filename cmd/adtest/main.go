// Command adtest is the test runner and toolchain of the .ad scripting
// language. main builds the process state and calls Main; nothing else in the
// command touches os directly, so every subcommand is testable end to end.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"

	"github.com/mattn/go-isatty"
)

// Env is the process state a subcommand may use.
type Env struct {
	Args    []string // arguments after the subcommand name
	Stdin   io.Reader
	Stdout  io.Writer
	Stderr  io.Writer
	Getenv  func(string) string
	Environ func() []string
	Cwd     string
	// Color is decided once here (TTY, NO_COLOR, TERM=dumb) and handed down;
	// --no-color / --color flags of a subcommand may override it.
	Color bool
	// Terminal is true when Stdout is a terminal that moves its cursor (not
	// TERM=dumb): `run` then shows live progress. TermWidth measures it.
	Terminal  bool
	TermWidth func() int
	// Exe and Argv0 re-run this adtest (the warm daemon is started that way);
	// empty Exe means no daemon can be started.
	Exe, Argv0 string
}

// Exit codes of design.md.
const (
	ExitOK          = 0
	ExitFailed      = 1
	ExitUsage       = 2
	ExitInfra       = 3
	ExitInterrupted = 130
)

type command struct {
	run     func(ctx context.Context, env *Env) int
	summary string
	// interactive marks the session commands generated from the command table.
	interactive bool
}

func commands() map[string]command {
	cmds := map[string]command{
		"parse":         {run: runParse, summary: "print agent-device's compat JSON parse of each file"},
		"check":         {run: runCheck, summary: "parse and statically check scripts; file:line:col diagnostics"},
		"fmt":           {run: runFmt, summary: "format scripts canonically (-w write, -l list, -d diff)"},
		"run":           {run: runRun, summary: "run .ad test suites and write reports"},
		"merge-reports": {run: runMergeReports, summary: "merge JSON results of CI shards into one set of reports"},
		"show-report":   {run: runShowReport, summary: "serve an HTML report on 127.0.0.1 and print its URL"},
		"help":          {run: runHelp, summary: "show commands, or the .ad command reference (help commands)"},
		"android":       {run: runAndroid, summary: "android setup: fetch and verify the on-device snapshot helper"},
		"daemon":        {run: runDaemon, summary: "status or stop the warm daemon that holds interactive sessions"},
		"session":       {run: runSession, summary: "list interactive sessions; save-script publishes a recording"},
	}
	for name, c := range interactiveCommands() {
		cmds[name] = c
	}
	return cmds
}

// Main runs adtest with args (without the program name) and returns the exit code.
func Main(ctx context.Context, args []string, env *Env) int {
	if len(args) > 0 && (args[0] == "--version" || args[0] == "version") {
		fmt.Fprintln(env.Stdout, "adtest", version())
		return ExitOK
	}
	cmds := commands()
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		usage(env.Stderr, cmds)
		if len(args) == 0 {
			return ExitUsage
		}
		return ExitOK
	}
	c, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(env.Stderr, "adtest: unknown command %q\n", args[0])
		usage(env.Stderr, cmds)
		return ExitUsage
	}
	env.Args = args[1:]
	return c.run(ctx, env)
}

func usage(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "usage: adtest <command> [flags] [PATH...]")
	fmt.Fprintln(w, "\ncommands:")
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if !cmds[n].interactive {
			fmt.Fprintf(w, "  %-14s %s\n", n, cmds[n].summary)
		}
	}
	fmt.Fprintln(w, "\ninteractive session commands (through the warm daemon; each takes --session NAME and --json):")
	for _, n := range names {
		if cmds[n].interactive {
			fmt.Fprintf(w, "  %-14s %s\n", n, cmds[n].summary)
		}
	}
}

func colorDefault(out *os.File, getenv func(string) string) bool {
	if getenv("NO_COLOR") != "" || getenv("TERM") == "dumb" {
		return false
	}
	return isatty.IsTerminal(out.Fd()) || isatty.IsCygwinTerminal(out.Fd())
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cwd, _ := os.Getwd()
	env := &Env{
		Stdin:     os.Stdin,
		Stdout:    os.Stdout,
		Stderr:    os.Stderr,
		Getenv:    os.Getenv,
		Environ:   os.Environ,
		Cwd:       cwd,
		Color:     colorDefault(os.Stdout, os.Getenv),
		Terminal:  os.Getenv("TERM") != "dumb" && isatty.IsTerminal(os.Stdout.Fd()),
		TermWidth: func() int { return termWidth(os.Stdout.Fd()) },
		Argv0:     os.Args[0],
	}
	if exe, err := os.Executable(); err == nil {
		env.Exe = exe
	}
	os.Exit(Main(ctx, os.Args[1:], env))
}
