package agentdevice

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/adtest/adtest/cmd/internal/cmdline"
	"github.com/adtest/adtest/internal/scriptpath"
	"github.com/adtest/adtest/lang"
)

// The command lines of the interactive commands (open, click, fill, ...,
// and session list|save-script) as agent-device writes them: adtest's own
// flags anywhere, the command's script flags and text passed on as typed.

// SessionLine is what adtest itself reads from an interactive command
// line; Argv is the command's own script arguments.
type SessionLine struct {
	Session    string
	JSON       bool
	Help       bool
	Platform   string
	Device     string
	SaveScript bool
	ScriptPath string
	Force      bool
	RecordAs   string
	Diff       bool
	// TraceDir is open --trace: the trace's directory (absolute).
	TraceDir string
	Argv     []string
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

// ParseSessionLine separates adtest's flags from the command's arguments.
// `--` ends adtest's flags: the rest is passed on verbatim.
func ParseSessionLine(name string, args []string, cwd string) (*SessionLine, error) {
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
	f := &SessionLine{Session: "default", JSON: a.Has("json"), Help: a.Has("help"),
		Platform: a.Last("platform"), Device: a.Last("device"), SaveScript: a.Has("save-script"),
		Force: a.Has("force"), Diff: a.Has("diff"), RecordAs: a.Last("record-as"), Argv: a.Pos}
	if a.Has("session") {
		f.Session = a.Last("session")
	}
	if a.Has("platform") && f.Platform != "web" && f.Platform != "android" {
		return nil, fmt.Errorf("--platform %q: interactive sessions run on web or android", f.Platform)
	}
	if p := a.Last("save-script"); p != "" {
		f.ScriptPath = scriptpath.Abs(cwd, p)
	}
	if a.Has("trace") {
		f.TraceDir = openTraceDir(cwd, f.Session, a.Last("trace"))
	}
	if a.Has("record-as") && (!recordAsRe.MatchString(f.RecordAs) || strings.HasPrefix(f.RecordAs, "AD_")) {
		return nil, fmt.Errorf("invalid --record-as variable %q: use [A-Z_][A-Z0-9_]* not starting with AD_", f.RecordAs)
	}
	if name == "open" {
		if err := CheckOpenTargets(f.Argv); err != nil {
			return nil, err
		}
	}
	if name == "close" && f.SaveScript && f.ScriptPath == "" {
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

// SessionUsage writes `adtest NAME -h` of the interactive command name.
func SessionUsage(w io.Writer, name string) {
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

// openTraceDir is the directory of open --trace v: v itself, or for "on"
// a new one under .adtest/traces named after the session and the time (as
// a failed replay's trace).
func openTraceDir(cwd, session, v string) string {
	if v != "on" {
		return scriptpath.Abs(cwd, v)
	}
	safe := regexp.MustCompile(`[^A-Za-z0-9._-]`).ReplaceAllString(session, "_")
	return scriptpath.Abs(cwd, filepath.Join(".adtest", "traces", safe+"-"+time.Now().UTC().Format("20060102-150405.000")))
}
