package lang

import (
	"fmt"
	"sort"
	"strings"
)

// Check is the static phase between Parse and Run (design.md): it looks at a
// parsed script without a device and reports every problem at once, sorted by
// position. Errors are scripts adtest refuses to run; warnings are the silent
// agent-device quirks of spec §9 that the script runs into.

// Severity of a diagnostic.
type Severity int

const (
	SeverityError Severity = iota + 1
	SeverityWarning
)

func (s Severity) String() string {
	if s == SeverityWarning {
		return "warning"
	}
	return "error"
}

// Diagnostic is one problem found by Check (or a parse error turned into one).
type Diagnostic struct {
	Pos      Pos
	Severity Severity
	// Rule is a short stable name of the check ("unknown-command", "ref-frame", ...).
	Rule    string
	Message string
	Hint    string
}

// Format renders the diagnostic as "file:line:col: error|warning: message",
// with file replacing Pos.Filename (callers pass the path relative to cwd).
func (d Diagnostic) Format(file string) string {
	return fmt.Sprintf("%s:%d:%d: %s: %s", file, d.Pos.Line, max(d.Pos.Column, 1), d.Severity, d.Message)
}

// CheckOptions carry what Check cannot see in the script.
type CheckOptions struct {
	// Vars are the variables supplied from outside: -e KEY=VALUE and AD_VAR_*.
	Vars map[string]string
	// Platform is the --platform the script will run on ("" = its own).
	Platform string
	// Compat also reports what only matters when the same script is replayed
	// by agent-device (e.g. that it drops context platform=web, which adtest
	// runs). Off by default: a web suite should check clean under --strict.
	Compat bool
}

// DiagnosticsFromErrors turns parse errors into error diagnostics.
func DiagnosticsFromErrors(errs []*Error) []Diagnostic {
	out := make([]Diagnostic, 0, len(errs))
	for _, e := range errs {
		out = append(out, Diagnostic{Pos: e.Pos, Severity: SeverityError, Rule: "parse", Message: e.Message, Hint: e.Hint})
	}
	return out
}

// SortDiagnostics orders diagnostics by file, line, column, then errors
// before warnings, then message.
func SortDiagnostics(ds []Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.Pos.Filename != b.Pos.Filename {
			return a.Pos.Filename < b.Pos.Filename
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		if a.Pos.Column != b.Pos.Column {
			return a.Pos.Column < b.Pos.Column
		}
		if a.Severity != b.Severity {
			return a.Severity < b.Severity
		}
		return a.Message < b.Message
	})
}

// Check statically checks a parsed script. src is the file's text (used for
// the line-level quirks). The result is sorted.
func Check(s *Script, src string, opts CheckOptions) []Diagnostic {
	if s == nil {
		return nil
	}
	c := &checker{s: s, opts: opts, hiddenEnv: map[string]int{}, bound: make(map[*Action]Args, len(s.Actions))}
	c.header()
	c.platform = c.effectivePlatform()
	for _, l := range s.Lines {
		if l.Kind == LineAction && l.Action != nil {
			c.action(l, l.Action)
		}
	}
	c.refFrames()
	c.loneCR(src)
	SortDiagnostics(c.out)
	return c.out
}

type checker struct {
	s        *Script
	opts     CheckOptions
	out      []Diagnostic
	platform string
	// webDeclared is true when the header says platform=web (dropped by
	// agent-device, accepted by adtest).
	webDeclared bool
	// headerEnd is the line of a `context` / `context<TAB>` line that ended the
	// header early (0 when none).
	headerEnd int
	// hiddenEnv maps env keys defined after an early header end to their line.
	hiddenEnv map[string]int
	// bound are the actions' arguments as Bind decoded them (the ref-frame
	// walk reads them); an action that did not bind has none.
	bound map[*Action]Args
}

func (c *checker) add(p Pos, sev Severity, rule, msg, hint string) {
	if compatOnlyRules[rule] && !c.opts.Compat {
		return
	}
	if p.Filename == "" {
		p.Filename = c.s.File
	}
	c.out = append(c.out, Diagnostic{Pos: p, Severity: sev, Rule: rule, Message: msg, Hint: hint})
}

// compatOnlyRules are diagnostics about agent-device's own versions (what it
// drops or does not know yet) that do not change what adtest runs; they are
// reported only with CheckOptions.Compat (adtest check --compat).
var compatOnlyRules = map[string]bool{
	"context-platform": true, // agent-device drops platform=web; adtest runs it
	"newest-only":      true, // a command or flag v0.20 lacks; adtest has it
}

// at is the position of byte offset off of a line's trimmed text.
func chkAt(l *Line, off int) Pos {
	p := l.Pos
	p.Offset += off
	p.Column += off
	return p
}

// FormatDiagnostics renders diagnostics one per line as Format does, each
// followed by an indented "hint: ..." line when it has a hint.
func FormatDiagnostics(ds []Diagnostic, file string) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.Format(file))
		b.WriteByte('\n')
		if d.Hint != "" {
			b.WriteString("\thint: ")
			b.WriteString(d.Hint)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// CheckSource parses src with ParseAll and checks it: parse errors and check
// diagnostics together, sorted. The script is nil only when nothing parsed.
func CheckSource(filename string, src []byte, opts CheckOptions) (*Script, []Diagnostic) {
	s, errs := ParseAll(filename, src)
	ds := DiagnosticsFromErrors(errs)
	for i := range ds {
		if ds[i].Pos.Filename == "" {
			ds[i].Pos.Filename = filename
		}
		if ds[i].Pos.Line == 0 {
			ds[i].Pos.Line = 1
		}
	}
	errLines := map[int]bool{}
	for i, e := range errs {
		errLines[e.Pos.Line] = true
		if strings.HasPrefix(e.Message, "Invalid quoted value") && strings.Contains(e.Message, `\$`) {
			ds[i].Hint = `inside double quotes \$ is not a JSON escape: write \\${ for a literal ${, or use a bare token \${...}`
		}
	}
	for _, d := range Check(s, string(src), opts) {
		// A line that failed to parse gets its parse error only.
		if errLines[d.Pos.Line] && d.Severity == SeverityError {
			continue
		}
		ds = append(ds, d)
	}
	SortDiagnostics(ds)
	return s, ds
}
