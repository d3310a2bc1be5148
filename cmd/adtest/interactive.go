package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/adtest/adtest/cmd/internal/agentdevice"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/adtest/adtest/cmd/internal/cmdline"
	"github.com/adtest/adtest/daemon"
	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner"
)

// interactiveCommands are the `adtest NAME ...` session commands, one per
// command of the table marked interactive.
func interactiveCommands() map[string]command {
	out := map[string]command{}
	for _, c := range lang.Commands {
		if !c.Interactive {
			continue
		}
		name := c.Name
		out[name] = command{
			run:         func(ctx context.Context, env *Env) int { return runInteractive(ctx, env, name) },
			summary:     c.Summary,
			interactive: true,
		}
	}
	return out
}

// sessionFlags are the flags adtest itself reads from an interactive command
// line; everything else is the command's own script arguments.
type sessionFlags struct {
	session    string
	json       bool
	help       bool
	platform   string
	device     string
	saveScript bool
	scriptPath string
	force      bool
	recordAs   string
	diff       bool
	// traceDir is open --trace: the trace's directory (absolute).
	traceDir string
	argv     []string
}

var recordAsRe = regexp.MustCompile(`^[A-Z_][A-Z0-9_]*$`)

// sessionFlagSet is the flags adtest reads from the command line of the
// interactive command name (or `session list|save-script`): its own
// for the command; every other --flag is an error unless the command's
// script line has it (`click --count`), and everything else is the
// command's own arguments, as typed.
func sessionFlagSet(name string) *cmdline.Set {
	flags := []cmdline.Flag{
		{Name: "session", Kind: cmdline.Value},
		{Name: "json", Kind: cmdline.Bool},
		{Name: "help", Short: "h", Kind: cmdline.Bool},
	}
	switch name {
	case "open":
		flags = append(flags, cmdline.Flag{Name: "platform", Kind: cmdline.Value}, cmdline.Flag{Name: "device", Kind: cmdline.Value},
			cmdline.Flag{Name: "save-script", Kind: cmdline.OptPath}, cmdline.Flag{Name: "force", Kind: cmdline.Bool},
			cmdline.Flag{Name: "trace", Kind: cmdline.Value})
	case "close":
		flags = append(flags, cmdline.Flag{Name: "save-script", Kind: cmdline.OptPath}, cmdline.Flag{Name: "force", Kind: cmdline.Bool})
	case "session save-script":
		flags = append(flags, cmdline.Flag{Name: "force", Kind: cmdline.Bool})
	case "snapshot":
		flags = append(flags, cmdline.Flag{Name: "diff", Kind: cmdline.Bool})
	case "fill":
		flags = append(flags, cmdline.Flag{Name: "record-as", Kind: cmdline.Value})
	}
	set := &cmdline.Set{Flags: flags, Keep: func(a string) bool { return !strings.HasPrefix(a, "--") || scriptFlag(name, a) }}
	if c, ok := lang.LookupCommand(name); ok {
		for _, f := range c.Flags {
			set.Suggest = append(set.Suggest, f.Names...)
		}
	}
	return set
}

// parseSessionFlags separates adtest's flags from the command's arguments.
// `--` ends adtest's flags: the rest is passed on verbatim.
func parseSessionFlags(name string, args []string, cwd string) (*sessionFlags, error) {
	a, err := sessionFlagSet(name).Parse(args)
	var unknown *cmdline.UnknownFlagError
	if errors.As(err, &unknown) {
		// A misspelt flag must not become typed text or act on another
		// session: text that starts with -- goes after `--`.
		return nil, fmt.Errorf("%v; text that starts with -- goes after a `--` argument (adtest %s ... -- %s)", unknown, name, unknown.Flag)
	}
	if err != nil {
		return nil, err
	}
	f := &sessionFlags{session: "default", json: a.Has("json"), help: a.Has("help"),
		platform: a.Last("platform"), device: a.Last("device"), saveScript: a.Has("save-script"),
		force: a.Has("force"), diff: a.Has("diff"), recordAs: a.Last("record-as"), argv: a.Pos}
	if a.Has("session") {
		f.session = a.Last("session")
	}
	if a.Has("platform") && f.platform != "web" && f.platform != "android" {
		return nil, fmt.Errorf("--platform %q: interactive sessions run on web or android", f.platform)
	}
	if p := a.Last("save-script"); p != "" {
		f.scriptPath = abs(cwd, p)
	}
	if a.Has("trace") {
		f.traceDir = openTraceDir(cwd, f.session, a.Last("trace"))
	}
	if a.Has("record-as") && (!recordAsRe.MatchString(f.recordAs) || strings.HasPrefix(f.recordAs, "AD_")) {
		return nil, fmt.Errorf("invalid --record-as variable %q: use [A-Z_][A-Z0-9_]* not starting with AD_", f.recordAs)
	}
	if name == "open" {
		if err := agentdevice.CheckOpenTargets(f.argv); err != nil {
			return nil, err
		}
	}
	if name == "close" && f.saveScript && f.scriptPath == "" {
		return nil, errors.New("close --save-script needs =PATH (the recording's path was set by open)")
	}
	return f, nil
}

// scriptFlag reports a flag of the command's script line (`click --count`,
// `snapshot --raw`): it is passed on to the session as typed.
func scriptFlag(name, a string) bool {
	c, ok := lang.LookupCommand(name)
	if !ok {
		return false
	}
	_, ok = c.Flag(a)
	return ok
}

func interactiveUsage(w io.Writer, name string) {
	c, _ := lang.LookupCommand(name)
	extra := ""
	switch name {
	case "open":
		extra = " [--platform web|android] [--device SERIAL] [--save-script[=PATH]] [--force] [--trace DIR|on]"
	case "close":
		extra = " [--save-script=PATH] [--force]"
	case "fill":
		extra = " [--record-as NAME]"
	case "snapshot":
		extra = " [--diff]"
	}
	usage := c.Usage
	if name == "open" {
		// adtest's --platform picks the driver; the script's runtime hints do not apply.
		usage = "open TARGET [--relaunch]"
	}
	fmt.Fprintf(w, "usage: adtest %s%s [--session NAME] [--json]\n\n", usage, extra)
	fmt.Fprintf(w, "%s, on a live session held by adtest's warm daemon (started by the first command).\n", upper(c.Summary))
	fmt.Fprintln(w, "\n  --session NAME   the session (default \"default\")")
	fmt.Fprintln(w, "  --json           one JSON object: {\"ok\":true,\"data\":{...}} or {\"ok\":false,\"error\":{code,reason,message,hint}}")
	switch name {
	case "open":
		fmt.Fprintln(w, "  --platform P     web (default) or android, for a new session")
		fmt.Fprintln(w, "  --device SERIAL  the device of a new Android session")
		fmt.Fprintln(w, "  --save-script[=PATH]  record the session; close writes the .ad script (refuses an existing file)")
		fmt.Fprintln(w, "  --force          replace an existing script file")
		fmt.Fprintln(w, "  --trace DIR|on   trace the new session's steps into DIR (on: .adtest/traces/<session>-<time>); close writes it")
	case "close":
		fmt.Fprintln(w, "  --save-script=PATH  write the recording to PATH instead")
		fmt.Fprintln(w, "  --force          replace an existing script file")
	case "fill":
		fmt.Fprintln(w, "  --record-as NAME the recording writes ${NAME} instead of the text (replay: -e NAME=...)")
	case "snapshot":
		fmt.Fprintln(w, "  --diff           only what changed since the last capture; its refs are pinned (diff snapshot)")
	}
	fmt.Fprintln(w, "  --               the rest is passed as typed: text that starts with -- goes after it")
	fmt.Fprintln(w, "\nAn unknown --flag is an error (with the nearest flag), never text for the session.")
	fmt.Fprintf(w, "\nThe script form and its flags: adtest help %s\n", name)
}

func upper(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// daemonClient is the client of the daemon this process talks to: the local
// one (started on demand) or a remote one (ADTEST_DAEMON_ADDR + token).
func daemonClient(env *Env) *daemon.Client {
	c := &daemon.Client{Dir: daemonDir(env), Version: version()}
	if addr := getenv(env, "ADTEST_DAEMON_ADDR"); addr != "" {
		c.Addr, c.Token = addr, getenv(env, "ADTEST_DAEMON_TOKEN")
		return c
	}
	if env.Exe != "" {
		argv0 := env.Argv0
		if argv0 == "" {
			argv0 = env.Exe
		}
		c.Start = func() error {
			var environ []string
			if env.Environ != nil {
				environ = env.Environ()
			}
			return daemon.Spawn(c.Dir, env.Exe, []string{argv0, "daemon", "serve", "--dir", c.Dir}, environ)
		}
	}
	return c
}

func getenv(env *Env, k string) string {
	if env.Getenv == nil {
		return ""
	}
	return env.Getenv(k)
}

func daemonDir(env *Env) string {
	if d := getenv(env, "ADTEST_DAEMON_DIR"); d != "" {
		return abs(env.Cwd, d)
	}
	return daemon.DefaultDir(env.Getenv)
}

// runInteractive runs one session command through the daemon.
func runInteractive(ctx context.Context, env *Env, name string) int {
	f, err := parseSessionFlags(name, env.Args, env.Cwd)
	if err != nil && cmdline.Mentions(env.Args, "json") {
		printError(env, name, &runner.ErrorInfo{Code: runner.CodeInvalidArgs, Reason: drivers.ReasonInvalidArgs,
			Message: err.Error(), Hint: fmt.Sprintf("Run `adtest %s -h` for its flags.", name)}, true)
		return ExitUsage
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "adtest %s: %v\n", name, err)
		fmt.Fprintf(env.Stderr, "run 'adtest %s -h' for usage\n", name)
		return ExitUsage
	}
	if f.help {
		interactiveUsage(env.Stdout, name)
		return ExitOK
	}
	c := daemonClient(env)
	if c.Remote() && f.traceDir != "" {
		fmt.Fprintf(env.Stderr, "adtest %s: --trace is refused with a remote daemon (ADTEST_DAEMON_ADDR): the trace would be written on the daemon's host\n", name)
		return ExitUsage
	}
	if c.Remote() && f.saveScript {
		fmt.Fprintf(env.Stderr, "adtest %s: --save-script is refused with a remote daemon (ADTEST_DAEMON_ADDR): the file would be written on the daemon's host\n", name)
		return ExitUsage
	}
	command, argv := name, f.argv
	if f.diff {
		// snapshot --diff is the table's `diff snapshot` (a partial publication).
		command, argv = "diff", []string{"snapshot"}
	}
	req := &daemon.Request{Op: daemon.OpCommand, Session: f.session, Command: command, Argv: argv,
		Platform: f.platform, Device: f.device, SaveScript: f.saveScript && name == "open", ScriptPath: f.scriptPath,
		Force: f.force, RecordAs: f.recordAs, JSON: f.json, Cwd: env.Cwd, TraceDir: f.traceDir}
	if name == "open" {
		req.ADBServer, _ = adbServerFromEnv(env)
	}
	return respond(ctx, env, c, req, name, f.json)
}

// respond sends req and prints the answer: the daemon's text, or one JSON
// object with --json. It returns the exit code.
func respond(ctx context.Context, env *Env, c *daemon.Client, req *daemon.Request, name string, asJSON bool) int {
	ctx, cancel := context.WithTimeout(ctx, daemon.DefaultCommandTimeout+30*time.Second)
	defer cancel()
	resp, err := c.Do(ctx, req)
	if err != nil {
		ei := daemon.ClientError(ctx, c, err)
		printError(env, name, ei, asJSON)
		return ei.Exit()
	}
	if resp.Error != nil {
		printError(env, name, resp.Error, asJSON)
		return resp.Error.Exit()
	}
	if asJSON {
		data := resp.Data
		if data == nil {
			data = map[string]any{}
		}
		if _, ok := data["nodes"].([]any); !ok && resp.Text != "" {
			data["text"] = resp.Text
		}
		out := map[string]any{"ok": true, "data": data}
		if resp.Warning != "" {
			out["warning"] = resp.Warning
		}
		writeJSONLine(env.Stdout, out)
		return ExitOK
	}
	if resp.Text != "" {
		fmt.Fprint(env.Stdout, resp.Text)
		if !strings.HasSuffix(resp.Text, "\n") {
			fmt.Fprintln(env.Stdout)
		}
	}
	if resp.Warning != "" {
		fmt.Fprintf(env.Stderr, "adtest %s: warning: %s\n", name, resp.Warning)
	}
	return ExitOK
}

func writeJSONLine(w io.Writer, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(map[string]any{"ok": false, "error": map[string]any{"code": runner.CodeUnknown, "message": err.Error()}})
	}
	fmt.Fprintf(w, "%s\n", b)
}

func printError(env *Env, name string, e *runner.ErrorInfo, asJSON bool) {
	if asJSON {
		writeJSONLine(env.Stdout, map[string]any{"ok": false, "error": e})
		return
	}
	fmt.Fprintf(env.Stderr, "adtest %s: %s\n", name, e.Message)
	if e.Reason != "" {
		fmt.Fprintf(env.Stderr, "  reason: %s (%s)\n", e.Reason, e.Code)
	}
	if e.Hint != "" {
		fmt.Fprintf(env.Stderr, "  hint: %s\n", e.Hint)
	}
}

// openTraceDir is the directory of open --trace v: v itself, or for "on"
// a new one under .adtest/traces named after the session and the time (as
// a failed replay's trace).
func openTraceDir(cwd, session, v string) string {
	if v != "on" {
		return abs(cwd, v)
	}
	safe := regexp.MustCompile(`[^A-Za-z0-9._-]`).ReplaceAllString(session, "_")
	return abs(cwd, filepath.Join(".adtest", "traces", safe+"-"+time.Now().UTC().Format("20060102-150405.000")))
}
