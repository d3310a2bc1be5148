package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"

	"github.com/adtest/adtest/cmd/internal/cmdline"
	"github.com/adtest/adtest/internal/scriptpath"
	"github.com/adtest/adtest/internal/unidiff"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/reporters"
)

// fmtStdinName is how diagnostics and -l name standard input (gofmt's name).
const fmtStdinName = "<standard input>"

type fmtOptions struct {
	write, list, diff, check bool
}

// fmtStdin formats standard input to standard output.
func fmtStdin(ctx context.Context, env *Env, o fmtOptions) int {
	if o.write {
		fmt.Fprintln(env.Stderr, "adtest fmt: cannot use -w with standard input")
		return ExitUsage
	}
	src, err := readStdinScript(ctx, env.Stdin)
	if ctx.Err() != nil {
		return ExitInterrupted
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "adtest fmt: reading standard input: %v\n", err)
		return ExitUsage
	}
	changed, ok := fmtOne(env, o, fmtStdinName, "", src, 0)
	return fmtExit(o, changed, !ok)
}

// runFmt is `adtest fmt [-w|-l|-d|--check] [PATH...]`: gofmt for .ad scripts.
func runFmt(ctx context.Context, env *Env) int {
	var o fmtOptions
	fl := flag.NewFlagSet("fmt", flag.ContinueOnError)
	fl.SetOutput(io.Discard)
	fl.BoolVar(&o.write, "w", false, "write the result back to each file (atomically, keeping its mode)")
	fl.BoolVar(&o.list, "l", false, "list files whose formatting differs")
	fl.BoolVar(&o.diff, "d", false, "print a unified diff of the changes instead of the formatted script")
	fl.BoolVar(&o.check, "check", false, "list files whose formatting differs and exit 1 if there is any (for CI)")
	// The usage goes to the flag set's output: discarded while parsing (the
	// flag package prints it before a parse error), stderr for -h.
	fl.Usage = func() {
		w := fl.Output()
		fmt.Fprintln(w, "usage: adtest fmt [-w|-l|-d|--check] [PATH...]")
		fmt.Fprintln(w, "Formats .ad scripts canonically. PATH is a file, a directory (every *.ad below it) or a glob;")
		fmt.Fprintln(w, "without PATH, formats standard input to standard output.")
		fl.PrintDefaults()
	}
	paths, err := readFlags(fl, env.Args)
	if err != nil {
		if errors.Is(err, cmdline.ErrHelp) {
			fl.SetOutput(env.Stderr)
			fl.Usage()
			return ExitOK
		}
		fmt.Fprintf(env.Stderr, "adtest fmt: %v\nrun 'adtest fmt -h' for the flags\n", err)
		return ExitUsage
	}
	if o.write && o.diff {
		fmt.Fprintln(env.Stderr, "adtest fmt: -w and -d cannot be used together")
		return ExitUsage
	}

	if len(paths) == 0 {
		return fmtStdin(ctx, env, o)
	}

	files, problems := scriptpath.Expand(env.Cwd, paths, true)
	bad := false
	for _, p := range problems {
		if p.Kind != scriptpath.ProblemEmpty {
			fmt.Fprintf(env.Stderr, "adtest fmt: %s\n", p)
			bad = true
		}
	}
	anyChanged := false
	for _, f := range files {
		if ctx.Err() != nil {
			return ExitInterrupted
		}
		f.Display = reporters.EscapeControl(f.Display) // a name is never a terminal escape
		info, err := env.FS.Stat(f.Path)
		if err != nil {
			fmt.Fprintf(env.Stderr, "%s: %v\n", f.Display, fmtPathErr(err))
			bad = true
			continue
		}
		src, err := env.FS.ReadScript(f.Path)
		if err != nil {
			fmt.Fprintf(env.Stderr, "%s: %v\n", f.Display, fmtPathErr(err))
			bad = true
			continue
		}
		changed, ok := fmtOne(env, o, f.Display, f.Path, src, info.Mode())
		anyChanged = anyChanged || changed
		bad = bad || !ok
	}
	return fmtExit(o, anyChanged, bad)
}

func fmtExit(o fmtOptions, changed, bad bool) int {
	switch {
	case bad:
		return ExitUsage
	case o.check && changed:
		return ExitFailed
	}
	return ExitOK
}

// fmtOne formats one script and reports whether its formatting differs and
// whether it went without error.
func fmtOne(env *Env, o fmtOptions, display, path string, src []byte, mode fs.FileMode) (changed, ok bool) {
	out, err := lang.FormatSource(display, src)
	if err != nil {
		fmtReport(env.Stderr, display, err)
		return false, false
	}
	changed = !bytes.Equal(src, out)
	if changed && (o.list || o.check) {
		fmt.Fprintln(env.Stdout, display)
	}
	if changed && o.write {
		if err := env.FS.ReplaceFile(path, out, mode); err != nil {
			fmt.Fprintf(env.Stderr, "%s: %v\n", display, fmtPathErr(err))
			return changed, false
		}
	}
	if changed && o.diff {
		io.WriteString(env.Stdout, unidiff.Diff(display+".orig", display, src, out, 3))
	}
	if !o.list && !o.check && !o.write && !o.diff {
		env.Stdout.Write(out)
	}
	return changed, true
}

// fmtReport prints a parse error as file:line:col: message (and its hint).
func fmtReport(w io.Writer, display string, err error) {
	var le *lang.Error
	if !errors.As(err, &le) {
		fmt.Fprintf(w, "%s: %v\n", display, err)
		return
	}
	switch {
	case le.Pos.Line > 0 && le.Pos.Column > 0:
		fmt.Fprintf(w, "%s:%d:%d: %s\n", display, le.Pos.Line, le.Pos.Column, le.Message)
	case le.Pos.Line > 0:
		fmt.Fprintf(w, "%s:%d: %s\n", display, le.Pos.Line, le.Message)
	default:
		fmt.Fprintf(w, "%s: %s\n", display, le.Message)
	}
	if le.Hint != "" {
		fmt.Fprintf(w, "\thint: %s\n", le.Hint)
	}
}

// fmtPathErr drops the path from an *fs.PathError: the caller prints the
// path as the user gave it.
func fmtPathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
