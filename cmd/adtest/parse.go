package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"

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
			summaries = append(summaries, lang.CompatSummary(name, src, c))
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
