// Command adtest is the test runner and toolchain of the .ad scripting
// language. main builds the process state and calls Main; nothing else in the
// command touches os directly, so every subcommand is testable end to end.
package main

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"syscall"
	"time"

	"github.com/mattn/go-isatty"

	"github.com/adtest/adtest/internal/atomicfile"
	"github.com/adtest/adtest/runner"
	"github.com/adtest/adtest/runner/suite"
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
	// FS is the filesystem and Now the clock of the subcommands.
	FS  FS
	Now func() time.Time
}

// Exit codes of design.md: runner's, where the rules that pick one live.
const (
	ExitOK          = runner.ExitOK
	ExitFailed      = runner.ExitFailed
	ExitUsage       = runner.ExitUsage
	ExitInfra       = runner.ExitInfra
	ExitInterrupted = runner.ExitInterrupted
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
		"show-trace":    {run: runShowTrace, summary: "write and serve the HTML report of one attempt's trace (--trace)"},
		"help":          {run: runHelp, summary: "show commands, or the .ad command reference (help commands)"},
		"android":       {run: runAndroid, summary: "android setup: fetch and verify the on-device snapshot helper"},
		"daemon":        {run: runDaemon, summary: "status or stop the warm daemon that holds interactive sessions"},
		"session":       {run: runSession, summary: "list interactive sessions; save-script publishes a recording"},
		"test":          {run: runTest, summary: "agent-device's test: run a suite with its flags (--retries, --report-junit, --shard-split ...)"},
		"annotate":      {run: runAnnotate, summary: "run scripts and, when they pass, write each selector step's target-v1 evidence as a patch (run --annotate)"},
		"repair":        {run: runRepair, summary: "run scripts and suggest a verified patch for each target divergence (run --repair)"},
		"replay":        {run: runReplay, summary: "agent-device's replay: run one script in a session (--from/--plan-digest resume)"},
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
		return unknownCommand(env, args, cmds)
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
		FS:        osFS{},
		Now:       time.Now,
	}
	if exe, err := os.Executable(); err == nil {
		env.Exe = exe
	}
	os.Exit(Main(ctx, os.Args[1:], env))
}

// osFS is the operating system's filesystem.
type osFS struct{}

func (osFS) ReadFile(name string) ([]byte, error)   { return os.ReadFile(name) }
func (osFS) ReadScript(name string) ([]byte, error) { return suite.ReadScript(name) }
func (osFS) WriteFile(name string, data []byte, perm fs.FileMode) error {
	return os.WriteFile(name, data, perm)
}
func (osFS) Stat(name string) (fs.FileInfo, error)        { return os.Stat(name) }
func (osFS) MkdirAll(name string, perm fs.FileMode) error { return os.MkdirAll(name, perm) }
func (osFS) Open(name string) (io.ReadCloser, error)      { return os.Open(name) }
func (osFS) Create(name string) (io.WriteCloser, error)   { return os.Create(name) }
func (osFS) Sub(dir string) fs.FS                         { return os.DirFS(dir) }

// ReplaceFile replaces path (the file a symlink at path points to, not the
// link) atomically with data, given mode and synced to the disk.
func (osFS) ReplaceFile(path string, data []byte, mode fs.FileMode) error {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	return atomicfile.WriteFile(path, data, atomicfile.Options{Perm: mode, Sync: true})
}

// executableStamp is the size and modification time of this executable
// (version() appends them, so a rebuilt adtest never talks to a daemon of
// the previous build).
func executableStamp() (size, mod int64, ok bool) {
	exe, err := os.Executable()
	if err != nil {
		return 0, 0, false
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return 0, 0, false
	}
	return fi.Size(), fi.ModTime().UnixNano(), true
}
