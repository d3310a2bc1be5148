package agentdevice

import (
	"errors"
	"fmt"
	"strings"

	"github.com/adtest/adtest/cmd/internal/cmdline"
)

// The flags of the agent-device drop-in commands (replay, test) are read as
// agent-device's CLI reads them (cmdline's strict forms): anywhere on the
// line, `--flag value` or `--flag=value`, `--` ends the flags.

// remoteFlags end both drop-ins' tables: adtest's trace, the Selenium
// Grid and help.
var remoteFlags = []cmdline.Flag{
	{Name: "trace", Kind: cmdline.Value},
	{Name: "grid", Kind: cmdline.Value},
	{Name: "grid-capabilities", Kind: cmdline.Value},
	{Name: "grid-timeout", Kind: cmdline.Value},
	{Name: "help", Short: "h", Kind: cmdline.Bool},
}

// TestFlags are the flags of agent-device's test, the replay-only ones
// (refused with a message) and adtest's additions.
var TestFlags = append([]cmdline.Flag{
	{Name: "platform", Kind: cmdline.Value},
	{Name: "device", Kind: cmdline.Value},
	{Name: "session", Kind: cmdline.Value},
	{Name: "env", Short: "e", Kind: cmdline.Value},
	{Name: "retries", Kind: cmdline.Value},
	{Name: "timeout", Kind: cmdline.Value},
	{Name: "fail-fast", Kind: cmdline.Bool},
	{Name: "artifacts-dir", Kind: cmdline.Value},
	{Name: "reporter", Kind: cmdline.Value},
	{Name: "report-junit", Kind: cmdline.Value},
	{Name: "record-video", Kind: cmdline.Bool},
	{Name: "shard-all", Kind: cmdline.Value},
	{Name: "shard-split", Kind: cmdline.Value},
	{Name: "json", Kind: cmdline.Bool},
	{Name: "verbose", Kind: cmdline.Bool},
	{Name: "debug", Kind: cmdline.Bool},
	{Name: "maestro", Kind: cmdline.Bool},
	// Replay-only flags, refused with a message.
	{Name: "keep-session", Kind: cmdline.Bool},
	{Name: "from", Kind: cmdline.Value},
	{Name: "plan-digest", Kind: cmdline.Value},
	{Name: "save-script", Kind: cmdline.OptPath},
	{Name: "force", Kind: cmdline.Bool},
	// adtest's own additions.
	{Name: "serve-example", Kind: cmdline.Bool},
	{Name: "serve", Kind: cmdline.Value},
}, remoteFlags...)

// ReplayFlags are the flags of agent-device's replay and adtest's
// additions.
var ReplayFlags = append([]cmdline.Flag{
	{Name: "session", Kind: cmdline.Value},
	{Name: "platform", Kind: cmdline.Value},
	{Name: "target", Kind: cmdline.Value},
	{Name: "device", Kind: cmdline.Value},
	{Name: "env", Short: "e", Kind: cmdline.Value},
	{Name: "from", Kind: cmdline.Value},
	{Name: "plan-digest", Kind: cmdline.Value},
	{Name: "keep-session", Kind: cmdline.Bool},
	{Name: "save-script", Kind: cmdline.OptPath},
	{Name: "force", Kind: cmdline.Bool},
	{Name: "update", Short: "u", Kind: cmdline.Bool},
	{Name: "timeout", Kind: cmdline.Value},
	{Name: "maestro", Kind: cmdline.Bool},
	{Name: "json", Kind: cmdline.Bool},
	{Name: "debug", Kind: cmdline.Bool},
	{Name: "verbose", Kind: cmdline.Bool},
}, remoteFlags...)

// ParseArgs reads the command line of the drop-in cmd with its flags.
func ParseArgs(cmd string, args []string, flags []cmdline.Flag) (*cmdline.Args, error) {
	a, err := (&cmdline.Set{Flags: flags}).Parse(args)
	var unknown *cmdline.UnknownFlagError
	if errors.As(err, &unknown) {
		return nil, fmt.Errorf("unknown flag %s for %s%s (run 'adtest %s -h' for the flags)", unknown.Flag, cmd, unknown.DidYouMean(), cmd)
	}
	return a, err
}

// CheckOpenTargets refuses an interactive `open APP X` whose second
// positional is neither a URL nor an app id: it is never navigated to (a
// path typed after --save-script without = used to open http://./x.ad).
func CheckOpenTargets(argv []string) error {
	var pos []string
	for _, a := range argv {
		if !strings.HasPrefix(a, "-") {
			pos = append(pos, a)
		}
	}
	if len(pos) < 2 || looksLikeURL(pos[1]) || looksLikeAppID(pos[1]) {
		return nil
	}
	hint := "open takes [app|url] [url]"
	if cmdline.UnambiguousPath(pos[1]) || strings.Contains(pos[1], "/") || strings.Contains(pos[1], ".") {
		hint = fmt.Sprintf("to record to that file, write --save-script %s (or --save-script=%s)", pos[1], pos[1])
	}
	return fmt.Errorf("open: %q is neither a URL nor an app id, so it is not opened; %s", pos[1], hint)
}

func looksLikeURL(s string) bool {
	i := strings.Index(s, "://")
	if i <= 0 {
		return strings.HasPrefix(s, "about:") || strings.HasPrefix(s, "data:")
	}
	for _, r := range s[:i] {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.') {
			return false
		}
	}
	return true
}

// looksLikeAppID is a reverse-domain id (com.example.app): letters, digits
// and underscores in two or more dot-separated parts, none starting with a
// digit.
func looksLikeAppID(s string) bool {
	parts := strings.Split(s, ".")
	if len(parts) < 2 || strings.HasSuffix(s, ".ad") {
		return false
	}
	for _, p := range parts {
		if p == "" || (p[0] >= '0' && p[0] <= '9') {
			return false
		}
		for _, r := range p {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
				return false
			}
		}
	}
	return true
}

// TestUsage is `adtest test -h`.
const TestUsage = `usage: adtest test PATH... [flags]   (files, directories searched for *.ad, globs)

agent-device's test command on adtest's runner: tests run in discovery order,
each attempt in a fresh session.

flags:
  --platform P            run only files declaring platform P
  -e KEY=VALUE            a script variable (repeatable; AD_VAR_KEY from the environment too)
  --retries N             retry a failed test up to N times (0-3; else context retries=)
  --timeout MS            deadline of each attempt (else context timeout=)
  --fail-fast             stop after the first failed test; the rest are notRun
  --artifacts-dir DIR     artifacts root (default .agent-device/test-artifacts)
  --reporter R            default or junit:PATH (repeatable; a list replaces the default)
  --report-junit PATH     write a JUnit report (same as --reporter junit:PATH)
  --shard-split N         deal the tests round-robin over N parallel shards
  --shard-all N           run every test on each of N parallel shards
                          (scripts see AD_SHARD_INDEX, zero-based)
  --json                  print {"success":true,"data":<result>} after the reporters
  --serve-example         serve the bundled example app as AD_BASE_URL (adtest)
  --serve DIR             serve DIR as AD_BASE_URL (adtest)
  --trace MODE            off, on, retain-on-failure or on-first-retry (default): a trace
                          of every step under <attempt>/trace/ (adtest)
  --grid URL              each worker's browser from the Selenium Grid 4 at URL (else ADTEST_GRID; adtest)
  --grid-capabilities J   capabilities of its sessions, JSON or @FILE (adtest)
  --grid-timeout D        how long a session may wait for a free slot (default 5m; adtest)
  --record-video          refused: adtest's drivers do not record video

Configuration: agent-device.json, ~/.agent-device/config.json and AGENT_DEVICE_*
are read as agent-device reads them (flags win).

exit codes: 0 all passed (flaky counts as passed), 1 a test failed or the suite could not run
`

// ReplayUsage is `adtest replay -h`.
const ReplayUsage = `usage: adtest replay FILE.ad [flags]

Runs a script in a session of adtest's warm daemon, as agent-device replay
does: the first open starts the session, a final close ends it; a failed
replay leaves the session open and prints the plan digest to resume with.

flags:
  --session NAME        the session (default "default")
  --platform P          web or android (else the script's open/context)
  --device SERIAL       the Android device of a new session
  -e KEY=VALUE          a script variable (repeatable; AD_VAR_KEY from the environment too)
  --from N --plan-digest SHA
                        resume at step N of the session a failed replay left open
  --keep-session        leave the session open (a final close is not run)
  --timeout MS          bound of the whole replay (default 90000)
  --json                one object: {"success":true,"data":...} or {"success":false,"error":...}
  -u, --update          accepted and ignored (agent-device 0.20+: a divergence lists suggestions)
  --trace MODE          retain-on-failure (recorded, kept when the replay failed), on or off (the default:
                        a replay has no retry, so on-first-retry records nothing): a trace of every step
                        under .adtest/traces/ (adtest show-trace DIR opens it)

  --grid URL            the daemon this starts takes its browser from the Selenium Grid 4 at URL
                        (with --grid-capabilities JSON|@FILE, --grid-timeout D; else ADTEST_GRID):
                        a daemon already running keeps its own (adtest daemon stop first)

exit codes: 0 replayed, 1 any error (agent-device's codes), 130 interrupted
`
