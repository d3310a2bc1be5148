package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/adtest/adtest/cmd/internal/cmdline"
	"github.com/adtest/adtest/internal/scriptpath"
	"github.com/adtest/adtest/lang"
)

const parseUsage = `usage: adtest parse [--json] PATH...

Parse .ad scripts with agent-device's semantics. PATH is a file or a
directory (searched recursively for *.ad, sorted). With --json, print the
compat JSON of each file (an array when there are several); otherwise print a
one-line summary per file. Exit status 0 when every file parses, 2 otherwise.
`

// parseFlags are parse's flags (the flag package's forms: -json too).
var parseFlags = cmdline.Set{AnyDashes: true, Flags: []cmdline.Flag{
	{Name: "json", Kind: cmdline.Bool},
	{Name: "help", Short: "h", Kind: cmdline.Bool},
}}

// runParse implements `adtest parse [--json] PATH...`.
func runParse(ctx context.Context, env *Env) int {
	a, err := parseFlags.Parse(env.Args)
	if err != nil {
		fmt.Fprintf(env.Stderr, "adtest parse: %v\n%s", err, parseUsage)
		return ExitUsage
	}
	if a.Has("help") {
		fmt.Fprint(env.Stdout, parseUsage)
		return ExitOK
	}
	asJSON, paths := a.Bool("json"), a.Pos
	if len(paths) == 0 {
		fmt.Fprint(env.Stderr, parseUsage)
		return ExitUsage
	}
	files, problems := scriptpath.Expand(env.Cwd, paths, false)
	failed := false
	for _, p := range problems {
		if p.Kind != scriptpath.ProblemEmpty {
			fmt.Fprintf(env.Stderr, "adtest parse: %s\n", p)
			failed = true
		}
	}
	var out []*lang.Compat
	var summaries []string
	for _, f := range files {
		if ctx.Err() != nil {
			return ExitInterrupted
		}
		src, err := env.FS.ReadScript(f.Path)
		if err != nil {
			fmt.Fprintf(env.Stderr, "adtest parse: %s: %v\n", f.Display, fmtPathErr(err))
			failed = true
			continue
		}
		name := filepath.ToSlash(f.Display)
		c := lang.CompatOf(name, src)
		if !c.OK() {
			failed = true
		}
		out = append(out, c)
		if !asJSON {
			summaries = append(summaries, parseSummary(name, src, c))
		}
	}
	if asJSON {
		var v any = out
		if len(out) == 1 && len(files) == 1 {
			v = out[0]
		}
		if out == nil {
			v = []*lang.Compat{}
		}
		enc := json.NewEncoder(env.Stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(v); err != nil {
			fmt.Fprintf(env.Stderr, "adtest parse: %v\n", err)
			return ExitFailed
		}
	} else {
		for _, s := range summaries {
			fmt.Fprintln(env.Stdout, s)
		}
	}
	if failed {
		return ExitUsage
	}
	return ExitOK
}

// parseSummary is the one-line human summary of a file: its first error as
// file:line:col: message, or its action count and header.
func parseSummary(name string, src []byte, c *lang.Compat) string {
	if !c.OK() {
		_, err := lang.Parse(name, src)
		if e, ok := lang.AsError(err); ok {
			return e.Error()
		}
	}
	var meta []string
	if c.Metadata.Platform != "" {
		meta = append(meta, "platform "+c.Metadata.Platform)
	}
	if c.Metadata.Target != "" {
		meta = append(meta, "target "+c.Metadata.Target)
	}
	if n := len(c.Metadata.Env); n > 0 {
		meta = append(meta, fmt.Sprintf("%d env", n))
	}
	s := fmt.Sprintf("%s: ok, %d actions", c.File, len(c.Actions))
	if len(meta) > 0 {
		s += " (" + strings.Join(meta, ", ") + ")"
	}
	return s
}
