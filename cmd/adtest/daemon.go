package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/adtest/adtest/cmd/internal/agentdevice"
	"github.com/adtest/adtest/internal/scriptpath"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/adtest/adtest/cmd/internal/cmdline"
	"github.com/adtest/adtest/daemon"
	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/drivers/web"
	"github.com/adtest/adtest/internal/userdir"
	"github.com/adtest/adtest/recorder"
	"github.com/adtest/adtest/runner"
)

// runDaemon implements `adtest daemon status|stop|serve`.
func runDaemon(ctx context.Context, env *Env) int {
	if len(env.Args) == 0 || env.Args[0] == "-h" || env.Args[0] == "--help" {
		daemonUsage(env.Stderr)
		if len(env.Args) == 0 {
			return ExitUsage
		}
		return ExitOK
	}
	sub, args := env.Args[0], env.Args[1:]
	switch sub {
	case "status":
		return daemonStatus(ctx, env, args)
	case "stop":
		return daemonStop(ctx, env, args)
	case "serve":
		return runDaemonServe(ctx, env, args)
	}
	fmt.Fprintf(env.Stderr, "adtest daemon: unknown sub-command %q\n", sub)
	daemonUsage(env.Stderr)
	return ExitUsage
}

// daemonStatus is `adtest daemon status [--json]`.
func daemonStatus(ctx context.Context, env *Env, args []string) int {
	asJSON, code := onlyJSONFlag(env, "daemon status", args)
	if code >= 0 {
		return code
	}
	c := daemonClient(env)
	resp, err := c.Do(ctx, &daemon.Request{Op: daemon.OpStatus})
	if err != nil {
		if errors.Is(err, daemon.ErrUnavailable) && !c.Remote() {
			if asJSON {
				writeJSONLine(env.Stdout, map[string]any{"ok": true, "data": map[string]any{"running": false, "dir": c.Dir}})
			} else {
				fmt.Fprintf(env.Stdout, "adtest daemon: not running (directory %s)\n", c.Dir)
			}
			return ExitOK
		}
		ei := daemon.ClientError(ctx, c, err)
		printError(env, "daemon status", ei, asJSON)
		return ei.Exit()
	}
	if resp.Error != nil {
		printError(env, "daemon status", resp.Error, asJSON)
		return resp.Error.Exit()
	}
	if asJSON {
		d := resp.Data
		d["running"] = true
		writeJSONLine(env.Stdout, map[string]any{"ok": true, "data": d})
		return ExitOK
	}
	daemon.WriteStatus(env.Stdout, resp.Data["daemon"])
	return ExitOK
}

// daemonStop is `adtest daemon stop [--json]`: stopped means gone (its
// sessions, browsers and the process itself).
func daemonStop(ctx context.Context, env *Env, args []string) int {
	asJSON, code := onlyJSONFlag(env, "daemon stop", args)
	if code >= 0 {
		return code
	}
	c := daemonClient(env)
	resp, err := c.Do(ctx, &daemon.Request{Op: daemon.OpStop})
	if err != nil && errors.Is(err, daemon.ErrUnavailable) && !c.Remote() {
		if asJSON {
			writeJSONLine(env.Stdout, map[string]any{"ok": true, "data": map[string]any{"running": false}})
		} else {
			fmt.Fprintln(env.Stdout, "adtest daemon: not running")
		}
		return ExitOK
	}
	var ve *daemon.VersionError
	if errors.As(err, &ve) && !c.Remote() {
		// A daemon of another protocol: stop it by its pid.
		if _, terr := daemon.Terminate(c.Dir); terr == nil {
			err, resp = nil, &daemon.Response{OK: true}
		}
	}
	if err != nil {
		ei := daemon.ClientError(ctx, c, err)
		printError(env, "daemon stop", ei, asJSON)
		return ei.Exit()
	}
	if resp.Error != nil {
		printError(env, "daemon stop", resp.Error, asJSON)
		return resp.Error.Exit()
	}
	if !c.Remote() {
		// Stopped means gone: sessions, browsers and the process itself.
		if !daemon.WaitStopped(ctx, c.Dir, 30*time.Second) {
			fmt.Fprintln(env.Stderr, "adtest daemon stop: the daemon did not exit within 30s")
			return ExitInfra
		}
	}
	if asJSON {
		writeJSONLine(env.Stdout, map[string]any{"ok": true, "data": map[string]any{"stopped": true}})
	} else {
		fmt.Fprintln(env.Stdout, "adtest daemon: stopped")
	}
	return ExitOK
}

func daemonUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: adtest daemon status [--json] | stop [--json] | serve [flags]")
	fmt.Fprintln(w, "\nThe warm daemon holds interactive sessions and their browser or device. The first")
	fmt.Fprintln(w, "interactive command starts it; it exits after 15 minutes without sessions.")
	fmt.Fprintln(w, "\nserve flags (run it in the foreground):")
	fmt.Fprintln(w, "  --dir DIR             daemon directory (default $XDG_RUNTIME_DIR/adtest, else ~/.local/state/adtest)")
	fmt.Fprintln(w, "  --listen HOST:PORT    also listen on TCP for remote clients; they need the token written to DIR/token")
	fmt.Fprintln(w, "                        (clients: ADTEST_DAEMON_ADDR=HOST:PORT ADTEST_DAEMON_TOKEN=...). Loopback only: the")
	fmt.Fprintln(w, "                        traffic is not encrypted; from another machine use ssh -L PORT:127.0.0.1:PORT HOST")
	fmt.Fprintln(w, "  --listen-remote-insecure  allow a non-loopback --listen (clear-text token and text; trusted networks only)")
	fmt.Fprintln(w, "  --idle-timeout D      exit after D without sessions (default 15m, or ADTEST_DAEMON_IDLE_TIMEOUT; 0 = never)")
	fmt.Fprintln(w, "  --browser PATH        Chromium binary (else ADTEST_CHROME, else PATH)")
	fmt.Fprintln(w, "  --cdp-url URL         attach to a remote browser over CDP")
	fmt.Fprintln(w, "  --grid URL            take the browser from a Selenium Grid 4 (else ADTEST_GRID; with")
	fmt.Fprintln(w, "                        --grid-capabilities JSON|@FILE, --grid-timeout DURATION)")
	fmt.Fprintln(w, "  --adb-server HOST:PORT  the adb server of Android sessions (else ADB_SERVER_SOCKET, else a local one)")
}

// jsonOnly is the flags of daemon status and stop.
var jsonOnly = cmdline.Set{Flags: []cmdline.Flag{{Name: "json", Kind: cmdline.Bool}}}

func onlyJSONFlag(env *Env, name string, args []string) (asJSON bool, code int) {
	a, err := jsonOnly.Parse(args)
	if err == nil && len(a.Pos) > 0 {
		err = fmt.Errorf("unknown argument %q", a.Pos[0])
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "adtest %s: %v\n", name, err)
		return false, ExitUsage
	}
	return a.Has("json"), -1
}

// runDaemonServe runs the daemon in the foreground (the first interactive
// command starts it this way, detached).
func runDaemonServe(ctx context.Context, env *Env, args []string) int {
	fs := flag.NewFlagSet("adtest daemon serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dir := fs.String("dir", "", "")
	listen := fs.String("listen", "", "")
	remote := fs.Bool("listen-remote-insecure", false, "")
	idle := fs.String("idle-timeout", getenv(env, "ADTEST_DAEMON_IDLE_TIMEOUT"), "")
	browser := fs.String("browser", "", "")
	cdpURL := fs.String("cdp-url", "", "")
	var grid gridFlags
	grid.register(fs)
	adbServer := fs.String("adb-server", "", "")
	if rest, err := readFlags(fs, args); err != nil || len(rest) > 0 {
		if errors.Is(err, cmdline.ErrHelp) {
			daemonUsage(env.Stdout)
			return ExitOK
		}
		if err == nil {
			err = fmt.Errorf("unexpected argument %q", rest[0])
		}
		fmt.Fprintf(env.Stderr, "adtest daemon serve: %v\n", err)
		daemonUsage(env.Stderr)
		return ExitUsage
	}
	idleTimeout := daemon.DefaultIdleTimeout
	if *idle != "" {
		d, err := time.ParseDuration(*idle)
		if err != nil || d < 0 {
			fmt.Fprintf(env.Stderr, "adtest daemon serve: --idle-timeout %q: want a duration such as 15m (0 = never)\n", *idle)
			return ExitUsage
		}
		idleTimeout = d
		if d == 0 {
			idleTimeout = -1
		}
	}
	grid.fill(env, nil)
	gridOpts, err := grid.options(env)
	if err != nil {
		fmt.Fprintf(env.Stderr, "adtest daemon serve: %v\n", err)
		return ExitUsage
	}
	d := *dir
	if d == "" {
		d = daemonDir(env)
	} else {
		d = scriptpath.Abs(env.Cwd, d)
	}
	cfg := serveConfig(env, d)
	cfg.Listen, cfg.AllowRemote, cfg.IdleTimeout = *listen, *remote, idleTimeout
	cfg.Providers = daemonProviders(env, *browser, *cdpURL, *adbServer, gridOpts)
	cfg.ADBServer, cfg.ADBServerFrom = daemonADBServer(env, *adbServer)
	err = daemon.Serve(ctx, cfg)
	if errors.Is(err, daemon.ErrAlreadyRunning) {
		fmt.Fprintf(env.Stderr, "adtest daemon serve: %v (%s)\n", err, d)
		return ExitOK
	}
	if re := (*daemon.ErrRemoteListen)(nil); errors.As(err, &re) {
		fmt.Fprintf(env.Stderr, "adtest daemon serve: %v\n", err)
		return ExitUsage
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "adtest daemon serve: %v\n", err)
		return ExitInfra
	}
	return ExitOK
}

// serveConfig is the daemon's configuration in dir without its flags:
// recordings, the browser reaper, its log and its ready line on stderr.
func serveConfig(env *Env, dir string) daemon.Config {
	return daemon.Config{
		Dir: dir, Version: version(),
		Session:     runner.SessionConfig{},
		Recorders:   newRecording,
		WriteScript: writeScript,
		ScriptDir:   scriptDir(env),
		Reaper:      web.Reaper{},
		Logf: func(format string, a ...any) {
			fmt.Fprintf(env.Stderr, "%s adtest daemon: %s\n", env.Now().UTC().Format(time.RFC3339), fmt.Sprintf(format, a...))
		},
		Ready: func(sock, tcp string) {
			msg := "adtest daemon: listening on " + sock
			if tcp != "" {
				msg += " and " + tcp + " (token in " + daemon.TokenPath(dir) + ")"
			}
			fmt.Fprintln(env.Stderr, msg)
		},
	}
}

// scriptDir is where a recording without a path goes: sessions/ in the
// per-user state directory (internal/userdir).
func scriptDir(env *Env) string {
	return filepath.Join(userdir.Dir(func(k string) string { return getenv(env, k) }, userdir.State), "sessions")
}

// daemonProviders wires the platforms of interactive sessions. Their web
// pages have their frames drawn by the sessions: a session that records
// (open --trace, replay --trace) then pays a picture's frames, not three of
// the browser's ticks, and an untraced replay of checkout.ad took 0.36 s
// against 0.44 s with the browser's frames (a frame the session waits for
// is drawn at once); an idle page dozes (drivers/web/frames.go).
func daemonProviders(env *Env, browser, cdpURL, adbServer string, grid *web.GridOptions) daemon.ProviderFunc {
	o := providerOptions{browser: browser, cdpURL: cdpURL, adbServer: adbServer, frameControl: true, grid: grid}
	return func(ctx context.Context, platform string) (drivers.Provider, error) {
		return openProvider(ctx, env, o, platform)
	}
}

// runSession implements `adtest session list|save-script`.
func runSession(ctx context.Context, env *Env) int {
	if len(env.Args) == 0 || env.Args[0] == "-h" || env.Args[0] == "--help" {
		sessionUsage(env.Stderr)
		if len(env.Args) == 0 {
			return ExitUsage
		}
		return ExitOK
	}
	sub, args := env.Args[0], env.Args[1:]
	f, err := agentdevice.ParseSessionLine("session "+sub, args, env.Cwd)
	if err != nil {
		fmt.Fprintf(env.Stderr, "adtest session %s: %v\n", sub, err)
		return ExitUsage
	}
	c := daemonClient(env)
	switch sub {
	case "list":
		return sessionList(ctx, env, c, f)
	case "save-script":
		return sessionSaveScript(ctx, env, c, f)
	}
	fmt.Fprintf(env.Stderr, "adtest session: unknown sub-command %q\n", sub)
	sessionUsage(env.Stderr)
	return ExitUsage
}

// sessionList is `adtest session list [--json]`.
func sessionList(ctx context.Context, env *Env, c *daemon.Client, f *agentdevice.SessionLine) int {
	if len(f.Argv) > 0 {
		fmt.Fprintf(env.Stderr, "adtest session list: unexpected argument %q\n", f.Argv[0])
		return ExitUsage
	}
	resp, err := c.Do(ctx, &daemon.Request{Op: daemon.OpSessions})
	if err != nil && errors.Is(err, daemon.ErrUnavailable) && !c.Remote() {
		if f.JSON {
			writeJSONLine(env.Stdout, map[string]any{"ok": true, "data": map[string]any{"sessions": []any{}}})
		} else {
			fmt.Fprintln(env.Stdout, "no sessions (the daemon is not running)")
		}
		return ExitOK
	}
	if err != nil {
		ei := daemon.ClientError(ctx, c, err)
		printError(env, "session list", ei, f.JSON)
		return ei.Exit()
	}
	if resp.Error != nil {
		printError(env, "session list", resp.Error, f.JSON)
		return resp.Error.Exit()
	}
	if f.JSON {
		writeJSONLine(env.Stdout, map[string]any{"ok": true, "data": resp.Data})
		return ExitOK
	}
	daemon.WriteSessions(env.Stdout, resp.Data["sessions"])
	return ExitOK
}

// sessionSaveScript is `adtest session save-script [PATH] [--force]`.
func sessionSaveScript(ctx context.Context, env *Env, c *daemon.Client, f *agentdevice.SessionLine) int {
	var path string
	for _, a := range f.Argv {
		switch {
		case strings.HasPrefix(a, "-"):
			fmt.Fprintf(env.Stderr, "adtest session save-script: unknown flag %q\n", a)
			return ExitUsage
		case path == "":
			path = scriptpath.Abs(env.Cwd, a)
		default:
			fmt.Fprintf(env.Stderr, "adtest session save-script: unexpected argument %q\n", a)
			return ExitUsage
		}
	}
	if c.Remote() {
		fmt.Fprintln(env.Stderr, "adtest session save-script: refused with a remote daemon (the file would be written on the daemon's host)")
		return ExitUsage
	}
	return respond(ctx, env, c, &daemon.Request{Op: daemon.OpSaveScript, Session: f.Session, ScriptPath: path, Force: f.Force}, "session save-script", f.JSON)
}

func sessionUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: adtest session list [--json]")
	fmt.Fprintln(w, "       adtest session save-script [PATH] [--force] [--session NAME] [--json]")
	fmt.Fprintln(w, "\nsave-script publishes the recording of a session opened with --save-script, without closing it.")
}

// newRecording is the recorder of a session armed by open --save-script.
func newRecording(info daemon.RecordingInfo) daemon.Recording {
	return recorder.New(recorder.Options{Platform: info.Platform, Device: info.Device})
}

// writeScript publishes a recording (atomic; exclusive unless force).
func writeScript(path string, script []byte, force bool) error {
	return recorder.WriteFile(path, script, force)
}
