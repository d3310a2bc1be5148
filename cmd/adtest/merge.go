package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/adtest/adtest/reporters"
	"github.com/adtest/adtest/runner"
	"github.com/adtest/adtest/runner/suite"
)

// runMergeReports merges the JSON results of CI shards into one set of
// reports: DIR/results.json, DIR/junit.xml and the console summary on
// stdout. --reporter may add or replace outputs as in `adtest run`.
func runMergeReports(ctx context.Context, env *Env) int {
	fs := flag.NewFlagSet("adtest merge-reports", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.String("out", "", "write results.json and junit.xml into `DIR`")
	var specs listFlag
	fs.Var(&specs, "reporter", "`NAME[=PATH]` (repeatable): console, json, junit=PATH, github, html[=DIR]")
	noColor := fs.Bool("no-color", false, "no colors in console output")
	failOnFlaky := fs.Bool("fail-on-flaky", false, "exit 1 when a merged test is flaky")
	files, err := parseInterleaved(fs, env.Args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(env.Stdout, "usage: adtest merge-reports [--out DIR] [--reporter NAME[=PATH]]... RESULT.json...")
		return ExitOK
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "adtest merge-reports: %v\n", flagError(fs, err))
		return ExitUsage
	}
	if len(files) == 0 {
		fmt.Fprintln(env.Stderr, "adtest merge-reports: give the JSON results of the shards: adtest merge-reports --out DIR RESULT.json...")
		return ExitUsage
	}
	var list []reporters.Spec
	for _, s := range specs {
		sp, err := reporters.ParseSpec(s)
		if err != nil {
			fmt.Fprintf(env.Stderr, "adtest merge-reports: %v\n", err)
			return ExitUsage
		}
		list = append(list, sp)
	}
	if len(list) == 0 {
		list = []reporters.Spec{{Name: "console"}}
		if *out != "" {
			list = append(list,
				reporters.Spec{Name: "json", Path: filepath.Join(*out, "results.json")},
				reporters.Spec{Name: "junit", Path: filepath.Join(*out, "junit.xml")})
		}
	}
	var results []*runner.Result
	for _, name := range files {
		fh, err := env.FS.Open(abs(env.Cwd, name))
		if err != nil {
			fmt.Fprintf(env.Stderr, "adtest merge-reports: %v\n", err)
			return ExitUsage
		}
		r, err := reporters.ReadJSON(fh)
		fh.Close()
		if err != nil {
			fmt.Fprintf(env.Stderr, "adtest merge-reports: %s: %v\n", name, err)
			return ExitUsage
		}
		results = append(results, r)
	}
	merged, err := suite.Merge(results)
	if err != nil {
		fmt.Fprintf(env.Stderr, "adtest merge-reports: %v\n", err)
		return ExitUsage
	}
	color := env.Color && !*noColor && (env.Getenv == nil || env.Getenv("NO_COLOR") == "")
	failedReport := false
	for _, s := range list {
		err := writeFinalReport(env, s, merged, color && s.Name == "console")
		if err != nil {
			fmt.Fprintf(env.Stderr, "adtest merge-reports: reporter %s: %v\n", s.Name, err)
			failedReport = true
		}
	}
	return exitCode(merged, *failOnFlaky, failedReport)
}
