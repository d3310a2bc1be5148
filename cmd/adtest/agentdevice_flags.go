package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/adtest/adtest/cmd/internal/cmdline"
)

// The flags of the agent-device drop-in commands (replay, test) are read as
// agent-device's CLI reads them (cmdline's strict forms): anywhere on the
// line, `--flag value` or `--flag=value`, `--` ends the flags.

func parseADArgs(cmd string, args []string, flags []cmdline.Flag) (*cmdline.Args, error) {
	a, err := (&cmdline.Set{Flags: flags}).Parse(args)
	var unknown *cmdline.UnknownFlagError
	if errors.As(err, &unknown) {
		return nil, fmt.Errorf("unknown flag %s for %s%s (run 'adtest %s -h' for the flags)", unknown.Flag, cmd, unknown.DidYouMean(), cmd)
	}
	return a, err
}

// checkOpenTargets refuses an interactive `open APP X` whose second
// positional is neither a URL nor an app id: it is never navigated to (a
// path typed after --save-script without = used to open http://./x.ad).
func checkOpenTargets(argv []string) error {
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
