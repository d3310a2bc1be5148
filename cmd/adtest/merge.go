package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/adtest/adtest/internal/scriptpath"
	"io"
	"path/filepath"
	"strings"

	"github.com/adtest/adtest/cmd/internal/cmdline"
	"github.com/adtest/adtest/internal/plural"
	"github.com/adtest/adtest/reporters"
	"github.com/adtest/adtest/runner"
	"github.com/adtest/adtest/runner/suite"
)

// runMergeReports merges the JSON results of CI shards into one set of
// reports: DIR/result.json (the name `run` gives its own), DIR/junit.xml
// and the console summary on stdout, then the paths it wrote. --reporter may
// add or replace outputs as in `adtest run`. Shard results must make a
// complete set (1/N..N/N): a lost shard's artifact would otherwise publish
// green; --allow-missing-shards merges an incomplete set anyway.
func runMergeReports(ctx context.Context, env *Env) int {
	fs := flag.NewFlagSet("adtest merge-reports", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.String("out", "", "write result.json and junit.xml into `DIR`")
	allowMissing := fs.Bool("allow-missing-shards", false, "merge an incomplete set of shard results (exit by the tests only)")
	var specs listFlag
	fs.Var(&specs, "reporter", "`NAME[=PATH]` (repeatable): console, json, junit=PATH, github, html[=DIR]")
	noColor := fs.Bool("no-color", false, "no colors in console output")
	failOnFlaky := fs.Bool("fail-on-flaky", false, "exit 1 when a merged test is flaky")
	files, err := readFlags(fs, env.Args)
	if errors.Is(err, cmdline.ErrHelp) {
		fmt.Fprintln(env.Stdout, "usage: adtest merge-reports [--out DIR] [--reporter NAME[=PATH]]... [--allow-missing-shards] RESULT.json...")
		return ExitOK
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "adtest merge-reports: %v\n", err)
		return ExitUsage
	}
	if len(files) == 0 {
		fmt.Fprintln(env.Stderr, "adtest merge-reports: give the JSON results of the shards: adtest merge-reports --out DIR RESULT.json...")
		return ExitUsage
	}
	list, err := mergeSpecs(specs, *out)
	var results []*runner.Result
	if err == nil {
		results, err = readResults(env, files)
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "adtest merge-reports: %v\n", err)
		return ExitUsage
	}
	var missing []string
	merged, err := suite.Merge(results)
	if err == nil {
		missing, err = suite.MissingShards(results)
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "adtest merge-reports: %v\n", err)
		return ExitUsage
	}
	color := env.Color && !*noColor && (env.Getenv == nil || env.Getenv("NO_COLOR") == "")
	failedReport := false
	// An incomplete set not allowed as such fails: its files are not
	// written, so no junit.xml or result.json of it reads green (the
	// console's summary still shows what was merged).
	refuse := len(missing) > 0 && !*allowMissing
	for _, s := range list {
		if refuse && s.Name != "console" && s.Name != "github" {
			continue
		}
		err := reporters.WriteFinal(reportOutput(env), s, merged, color && s.Name == "console")
		if err != nil {
			fmt.Fprintf(env.Stderr, "adtest merge-reports: reporter %s: %v\n", s.Name, err)
			failedReport = true
			continue
		}
		reporters.WriteReportPath(reportPathWriter(env, list), env.Cwd, s, false)
	}
	if len(missing) > 0 {
		fmt.Fprintf(env.Stderr, "adtest merge-reports: incomplete shard set: %s %s missing; the merged reports lack %s tests\n",
			plural.Of(len(missing), "shard", "shards"), strings.Join(missing, ", "), plural.Of(len(missing), "its", "their"))
		if !*allowMissing {
			fmt.Fprintln(env.Stderr, "  the report files were not written; hint: pass every shard's result, or --allow-missing-shards to accept the incomplete set")
			return ExitFailed
		}
	}
	return exitCode(merged, *failOnFlaky, failedReport)
}

// mergeSpecs are merge-reports' outputs: the --reporter flags, else the
// console and, with --out DIR, DIR/result.json and DIR/junit.xml.
func mergeSpecs(specs []string, out string) ([]reporters.Spec, error) {
	var list []reporters.Spec
	for _, s := range specs {
		sp, err := reporters.ParseSpec(s)
		if err != nil {
			return nil, err
		}
		list = append(list, sp)
	}
	if len(list) == 0 {
		list = []reporters.Spec{{Name: "console"}}
		if out != "" {
			list = append(list,
				reporters.Spec{Name: "json", Path: filepath.Join(out, "result.json")},
				reporters.Spec{Name: "junit", Path: filepath.Join(out, "junit.xml")})
		}
	}
	return list, nil
}

// readResults reads the shards' JSON results.
func readResults(env *Env, files []string) ([]*runner.Result, error) {
	var results []*runner.Result
	for _, name := range files {
		fh, err := env.FS.Open(scriptpath.Abs(env.Cwd, name))
		if err != nil {
			return nil, err
		}
		r, err := reporters.ReadJSON(fh)
		fh.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		results = append(results, r)
	}
	return results, nil
}
