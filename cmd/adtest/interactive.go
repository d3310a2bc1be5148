package main

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/adtest/adtest/cmd/internal/agentdevice"
	"github.com/adtest/adtest/internal/scriptpath"
	"io"
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
		return scriptpath.Abs(env.Cwd, d)
	}
	return daemon.DefaultDir(env.Getenv)
}

// runInteractive runs one session command through the daemon.
func runInteractive(ctx context.Context, env *Env, name string) int {
	f, err := agentdevice.ParseSessionLine(name, env.Args, env.Cwd)
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
	if f.Help {
		agentdevice.SessionUsage(env.Stdout, name)
		return ExitOK
	}
	c := daemonClient(env)
	if c.Remote() && f.TraceDir != "" {
		fmt.Fprintf(env.Stderr, "adtest %s: --trace is refused with a remote daemon (ADTEST_DAEMON_ADDR): the trace would be written on the daemon's host\n", name)
		return ExitUsage
	}
	if c.Remote() && f.SaveScript {
		fmt.Fprintf(env.Stderr, "adtest %s: --save-script is refused with a remote daemon (ADTEST_DAEMON_ADDR): the file would be written on the daemon's host\n", name)
		return ExitUsage
	}
	command, argv := name, f.Argv
	if f.Diff {
		// snapshot --diff is the table's `diff snapshot` (a partial publication).
		command, argv = "diff", []string{"snapshot"}
	}
	req := &daemon.Request{Op: daemon.OpCommand, Session: f.Session, Command: command, Argv: argv,
		Platform: f.Platform, Device: f.Device, SaveScript: f.SaveScript && name == "open", ScriptPath: f.ScriptPath,
		Force: f.Force, RecordAs: f.RecordAs, JSON: f.JSON, Cwd: env.Cwd, TraceDir: f.TraceDir}
	if name == "open" {
		req.ADBServer, _ = adbServerFromEnv(env)
	}
	return respond(ctx, env, c, req, name, f.JSON)
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
