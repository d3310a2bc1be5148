package main

import (
	"fmt"
	"strings"
)

// The flags of the agent-device drop-in commands (replay, test) are read as
// agent-device's CLI reads them: anywhere on the line, `--flag value` or
// `--flag=value`, `--` ends the flags.

type adFlagKind int

const (
	adBool     adFlagKind = iota
	adValue               // needs a value
	adOptValue            // --flag alone, --flag=VALUE, or --flag PATH when PATH is unambiguous
)

type adFlag struct {
	name  string // without dashes
	short string // one-letter alias, or ""
	kind  adFlagKind
}

// adArgs is a parsed command line: values by flag name (a bool flag has ""
// entries, an optional value given alone too), positionals in order.
type adArgs struct {
	vals map[string][]string
	pos  []string
}

func (a *adArgs) has(name string) bool { return len(a.vals[name]) > 0 }

// last is the last value of a flag ("" when absent).
func (a *adArgs) last(name string) string {
	v := a.vals[name]
	if len(v) == 0 {
		return ""
	}
	return v[len(v)-1]
}

// unambiguousPath reports whether a bare word after an optional-value flag
// is a path (agent-device reads it as the flag's value only then, so that
// `open APP --save-script` never swallows the app).
func unambiguousPath(s string) bool {
	for _, p := range []string{"./", "../", "/", "~"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return strings.HasSuffix(s, ".ad")
}

func parseADArgs(cmd string, args []string, flags []adFlag) (*adArgs, error) {
	out := &adArgs{vals: map[string][]string{}}
	lookup := func(name string) (adFlag, bool) {
		for _, f := range flags {
			if f.name == name || (f.short != "" && f.short == name) {
				return f, true
			}
		}
		return adFlag{}, false
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			out.pos = append(out.pos, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			out.pos = append(out.pos, a)
			continue
		}
		bare := strings.TrimLeft(a, "-")
		dashes := len(a) - len(bare)
		name, value, hasValue := strings.Cut(bare, "=")
		f, ok := lookup(name)
		if !ok || (len(name) == 1) != (dashes == 1) || dashes > 2 {
			var known []string
			for _, f := range flags {
				known = append(known, "--"+f.name)
				if f.short != "" {
					known = append(known, "-"+f.short)
				}
			}
			return nil, fmt.Errorf("unknown flag %s for %s%s (run 'adtest %s -h' for the flags)", a, cmd, didYouMean("--"+name, known), cmd)
		}
		switch f.kind {
		case adBool:
			if hasValue {
				return nil, fmt.Errorf("flag %s takes no value", "--"+f.name)
			}
		case adValue:
			if !hasValue {
				if i+1 >= len(args) {
					return nil, fmt.Errorf("flag --%s needs a value", f.name)
				}
				i++
				value = args[i]
			}
		case adOptValue:
			if hasValue && value == "" {
				return nil, fmt.Errorf("--%s= needs a path (or write --%s alone for the default path)", f.name, f.name)
			}
			if !hasValue && i+1 < len(args) && unambiguousPath(args[i+1]) {
				i++
				value = args[i]
			}
		}
		out.vals[f.name] = append(out.vals[f.name], value)
	}
	return out, nil
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
	if unambiguousPath(pos[1]) || strings.Contains(pos[1], "/") || strings.Contains(pos[1], ".") {
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
