package main

import (
	"context"
	"fmt"

	"github.com/adtest/adtest/cmd/internal/cmdline"
	"github.com/adtest/adtest/internal/plural"
	"github.com/adtest/adtest/internal/scriptpath"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/reporters"
)

const checkUsage = `usage: adtest check [--strict] [--compat] [--platform P] [-e KEY=VALUE]... PATH...

Parses and statically checks .ad scripts without a device. PATH is a file, a
directory (searched recursively for *.ad) or a glob. Diagnostics are printed as
file:line:col: error|warning: message, sorted, with a hint line where useful.

  --strict        treat warnings as errors
  --compat        also warn about what only agent-device misreads in a script
                  adtest runs (e.g. it ignores context platform=web)
  --platform P    check against platform P instead of the script's own
  -e KEY=VALUE    a variable the run will supply (repeatable; AD_VAR_* too)

Exit status: 0 without errors (warnings alone pass), 2 with errors.
With GITHUB_ACTIONS=true, ::error / ::warning workflow commands are printed too.
`

type checkArgs struct {
	strict   bool
	compat   bool
	platform string
	vars     []string
	paths    []string
}

// checkFlags are check's flags.
var checkFlags = cmdline.Set{Flags: []cmdline.Flag{
	{Name: "strict", Kind: cmdline.Bool},
	{Name: "compat", Kind: cmdline.Bool},
	{Name: "platform", Kind: cmdline.Value},
	{Name: "env", Short: "e", Kind: cmdline.Value},
	{Name: "help", Short: "h", Kind: cmdline.Bool},
}}

func parseCheckArgs(args []string) (*checkArgs, error) {
	a, err := checkFlags.Parse(args)
	if err != nil {
		return nil, err
	}
	if a.Has("help") {
		return nil, cmdline.ErrHelp
	}
	if len(a.Pos) == 0 {
		return nil, fmt.Errorf("check requires at least one path, directory or glob")
	}
	return &checkArgs{strict: a.Has("strict"), compat: a.Has("compat"), platform: a.Last("platform"),
		vars: a.All("env"), paths: a.Pos}, nil
}

func runCheck(ctx context.Context, env *Env) int {
	ca, err := parseCheckArgs(env.Args)
	if err == cmdline.ErrHelp {
		fmt.Fprint(env.Stdout, checkUsage)
		return ExitOK
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "adtest check: %v\n\n%s", err, checkUsage)
		return ExitUsage
	}
	cli, err := lang.ParseCLIVars(ca.vars)
	if err != nil {
		fmt.Fprintf(env.Stderr, "adtest check: %v\n", err)
		return ExitUsage
	}
	vars := map[string]string{}
	if env.Environ != nil {
		for k, v := range lang.ProcessVars(env.Environ()) {
			vars[k] = v
		}
	}
	for k, v := range cli {
		vars[k] = v
	}
	files, problems := scriptpath.Expand(env.Cwd, ca.paths, false)
	for _, p := range problems {
		fmt.Fprintf(env.Stderr, "adtest check: %s\n", p)
	}
	github := env.Getenv != nil && env.Getenv("GITHUB_ACTIONS") == "true"
	nErr, nWarn := 0, 0
	for _, f := range files {
		if ctx.Err() != nil {
			return ExitInterrupted
		}
		shown := reporters.EscapeControl(scriptpath.Display(env.Cwd, f.Path)) // a name is never a terminal escape
		src, err := env.FS.ReadScript(f.Path)
		if err != nil {
			fmt.Fprintf(env.Stderr, "adtest check: %s: %v\n", shown, err)
			nErr++
			continue
		}
		_, ds := lang.CheckSource(shown, src, lang.CheckOptions{Vars: vars, Platform: ca.platform, Compat: ca.compat})
		for i := range ds {
			if ca.strict {
				ds[i].Severity = lang.SeverityError
			}
			if ds[i].Severity == lang.SeverityError {
				nErr++
			} else {
				nWarn++
			}
		}
		fmt.Fprint(env.Stdout, lang.FormatDiagnostics(ds, shown))
		if github {
			reporters.WriteCheckGitHub(env.Stdout, ds, shown)
		}
	}
	if nErr > 0 || nWarn > 0 || len(problems) > 0 {
		fmt.Fprintf(env.Stderr, "%d error%s, %d warning%s in %d file%s\n",
			nErr+len(problems), plural.S(nErr+len(problems)), nWarn, plural.S(nWarn), len(files), plural.S(len(files)))
	}
	if nErr > 0 || len(problems) > 0 {
		return ExitUsage
	}
	return ExitOK
}
