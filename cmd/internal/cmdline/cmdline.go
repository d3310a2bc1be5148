// Package cmdline is the one reader of adtest's command lines. Every
// command declares its flags (a Set, or a flag.FlagSet through FlagSet) and
// reads its arguments with Set.Parse: flags and paths in any order,
// `--flag value` or `--flag=value`, `--` ends the flags, agent-device's
// optional path value (`--save-script [PATH]`), a did-you-mean on an
// unknown flag, and errors that name the flag as the user wrote it (never
// its value, which may be a secret).
package cmdline

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/adtest/adtest/lang"
)

// Kind is what a flag takes after its name.
type Kind int

const (
	// Bool takes no value: given or not.
	Bool Kind = iota
	// Value needs one: `--flag VALUE` or `--flag=VALUE`.
	Value
	// OptPath may carry a path: `--flag` alone, `--flag=PATH`, or
	// `--flag PATH` when PATH cannot be anything else (./x, ../x, /x, ~x or
	// x.ad: agent-device's rule, so that `open APP --save-script` never
	// swallows the app).
	OptPath
)

// Flag is one flag of a command.
type Flag struct {
	Name  string // without dashes
	Short string // a one-letter alias, or ""
	Kind  Kind
	// Hidden flags are read but never offered by a did-you-mean.
	Hidden bool
}

// Set is the flags of one command and how its line is read.
type Set struct {
	Flags []Flag
	// AnyDashes reads the flag package's forms: a flag written with one
	// dash or two whatever its length (-workers, --j), and a Bool flag
	// taking =true or =false. Otherwise a one-letter flag takes one dash
	// and a longer one two, and a Bool flag no value (agent-device's rule).
	AnyDashes bool
	// Keep, when set, reports an unknown flag that is kept as a positional,
	// as typed (a session command's script flags, its text).
	Keep func(arg string) bool
	// Suggest are more spellings a did-you-mean may offer.
	Suggest []string
}

// Setting is one flag as read.
type Setting struct {
	Name  string // the flag's Name
	As    string // as written, without its value: -j, --workers
	Value string // "" for a Bool or an OptPath given alone
	// HasValue: a value was written (always for a Value flag).
	HasValue bool
}

// Args is a command line as read: the flags in order, the positionals in
// order.
type Args struct {
	Settings []Setting
	Pos      []string
}

// Has reports whether the flag was given.
func (a *Args) Has(name string) bool { return a.last(name) != nil }

// Bool is a Bool flag's last setting: given alone or =true (false when
// absent).
func (a *Args) Bool(name string) bool {
	s := a.last(name)
	if s == nil {
		return false
	}
	b, err := strconv.ParseBool(s.Value)
	return !s.HasValue || b && err == nil
}

// Last is the value of the flag's last setting ("" when absent).
func (a *Args) Last(name string) string {
	if s := a.last(name); s != nil {
		return s.Value
	}
	return ""
}

// All are the values of every setting of the flag, in order.
func (a *Args) All(name string) []string {
	var out []string
	for _, s := range a.Settings {
		if s.Name == name {
			out = append(out, s.Value)
		}
	}
	return out
}

// As is how the flag's last setting was written ("--name" when absent).
func (a *Args) As(name string) string {
	if s := a.last(name); s != nil {
		return s.As
	}
	return "--" + name
}

func (a *Args) last(name string) *Setting {
	for i := len(a.Settings) - 1; i >= 0; i-- {
		if a.Settings[i].Name == name {
			return &a.Settings[i]
		}
	}
	return nil
}

// UnknownFlagError is a flag the command does not have.
type UnknownFlagError struct {
	Flag       string // as written, without a value
	Suggestion string // the nearest flag, or ""
}

func (e *UnknownFlagError) Error() string { return "unknown flag " + e.Flag + e.DidYouMean() }

// DidYouMean is " (did you mean --x?)", or "" without a suggestion.
func (e *UnknownFlagError) DidYouMean() string {
	if e.Suggestion == "" {
		return ""
	}
	return " (did you mean " + e.Suggestion + "?)"
}

// Parse reads a command line.
func (s *Set) Parse(args []string) (*Args, error) {
	out := &Args{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			out.Pos = append(out.Pos, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			out.Pos = append(out.Pos, a)
			continue
		}
		written, value, hasValue := strings.Cut(a, "=")
		f, ok := s.lookup(written)
		if !ok {
			if s.Keep != nil && s.Keep(a) {
				out.Pos = append(out.Pos, a)
				continue
			}
			return nil, &UnknownFlagError{Flag: written, Suggestion: s.suggest(written)}
		}
		set := Setting{Name: f.Name, As: written, Value: value, HasValue: hasValue}
		switch f.Kind {
		case Bool:
			if hasValue && !s.AnyDashes {
				return nil, fmt.Errorf("%s takes no value", written)
			}
			if _, err := strconv.ParseBool(value); hasValue && err != nil {
				return nil, fmt.Errorf("invalid value %q for flag %s: want true or false", value, written)
			}
		case Value:
			if !hasValue {
				if i+1 >= len(args) {
					return nil, fmt.Errorf("%s needs a value", written)
				}
				i++
				set.Value, set.HasValue = args[i], true
			}
		case OptPath:
			if hasValue && value == "" {
				return nil, fmt.Errorf("%s= needs a path (or write %s alone for the default path)", written, written)
			}
			if !hasValue && i+1 < len(args) && UnambiguousPath(args[i+1]) {
				i++
				set.Value, set.HasValue = args[i], true
			}
		}
		out.Settings = append(out.Settings, set)
	}
	return out, nil
}

// lookup finds the flag written as w (dashes included, no value).
func (s *Set) lookup(w string) (Flag, bool) {
	name := strings.TrimLeft(w, "-")
	dashes := len(w) - len(name)
	if name == "" || dashes > 2 {
		return Flag{}, false
	}
	if !s.AnyDashes && (len(name) == 1) != (dashes == 1) {
		return Flag{}, false
	}
	for _, f := range s.Flags {
		if f.Name == name || f.Short != "" && f.Short == name {
			return f, true
		}
	}
	return Flag{}, false
}

// suggest is the spelling of the flag nearest to w by edit distance,
// comparing the names without their dashes (-retris and --retris both
// find --retries), or "".
func (s *Set) suggest(w string) string {
	var known []string
	for _, f := range s.Flags {
		if f.Hidden {
			continue
		}
		known = append(known, Dashed(f.Name))
		if f.Short != "" {
			known = append(known, Dashed(f.Short))
		}
	}
	known = append(known, s.Suggest...)
	return Nearest(w, known)
}

// Nearest is the spelling among known nearest to the flag given (compared
// without dashes or a value), or "" when none is near enough.
func Nearest(given string, known []string) string {
	bare, _, _ := strings.Cut(strings.TrimLeft(given, "-"), "=")
	byBare := map[string]string{}
	var cands []string
	for _, k := range known {
		b := strings.TrimLeft(k, "-")
		if _, dup := byBare[b]; !dup {
			byBare[b] = k
			cands = append(cands, b)
		}
	}
	if best, ok := lang.Closest(bare, cands, lang.SuggestionDistance(bare)); ok {
		return byBare[best]
	}
	return ""
}

// Dashed is a flag's name as usage writes it: -x for one letter, --name
// otherwise.
func Dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// UnambiguousPath reports whether a word after an OptPath flag is its path.
func UnambiguousPath(s string) bool {
	for _, p := range []string{"./", "../", "/", "~"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return strings.HasSuffix(s, ".ad")
}

// Mentions reports whether args carry --name (or --name=true) before a
// `--`: for a line that may not parse, whose error must still take the
// form the flag asks for (--json).
func Mentions(args []string, name string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "--"+name || a == "--"+name+"=true" {
			return true
		}
	}
	return false
}

// FlagSet is the Set of a flag.FlagSet's flags (the flag package's forms,
// AnyDashes), with -h/--help unless fs defines them; hidden flags are read
// but never suggested. Args.Apply binds what was read to fs.
func FlagSet(fs *flag.FlagSet, hidden ...string) *Set {
	s := &Set{AnyDashes: true}
	fs.VisitAll(func(f *flag.Flag) {
		kind := Value
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			kind = Bool
		}
		hide := false
		for _, h := range hidden {
			hide = hide || h == f.Name
		}
		s.Flags = append(s.Flags, Flag{Name: f.Name, Kind: kind, Hidden: hide})
	})
	if fs.Lookup("help") == nil && fs.Lookup("h") == nil {
		s.Flags = append(s.Flags, Flag{Name: "help", Short: "h", Kind: Bool})
	}
	return s
}

// ErrHelp is Apply's answer to -h or --help.
var ErrHelp = errors.New("help requested")

// Apply sets fs's flags to what a read, in order (a Bool given alone is
// true); -h/--help, when fs does not define them, is ErrHelp after the
// other flags were set. A value the flag refuses is an error naming the
// flag as written.
func (a *Args) Apply(fs *flag.FlagSet) error {
	help := false
	for _, s := range a.Settings {
		if fs.Lookup(s.Name) == nil {
			help = help || s.Name == "help"
			continue
		}
		v := s.Value
		if !s.HasValue {
			v = "true"
		}
		if err := fs.Set(s.Name, v); err != nil {
			return fmt.Errorf("invalid value %q for flag %s: %v", v, s.As, err)
		}
	}
	if help {
		return ErrHelp
	}
	return nil
}
