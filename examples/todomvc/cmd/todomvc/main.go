// Command todomvc prepares and reads the TodoMVC comparison of
// scripts/todomvc-playwright.sh:
//
//	todomvc root                     print the extracted package's directory
//	todomvc suite -out DIR [-only a,b] [-flows x,y] [-floor]
//	                                 write DIR/FRAMEWORK/FLOW.ad and DIR/frameworks.json
//	                                 (-floor: each flow's page loads and written pauses only)
//	todomvc serve [-addr A]          serve the package; prints its URL, serves until killed
//	todomvc compare -adtest R.json -playwright P.json
//	                                 print the matrix side by side and the totals
//	todomvc timing -adtest R.json   where adtest's step time went, per command
//	todomvc expect -adtest R.json -file M.txt
//	                                 merge adtest's cells into TestMatrix's expectations
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/adtest/adtest/examples/todomvc"
	"github.com/adtest/adtest/reporters"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, os.Getenv)) }

func run(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: todomvc root | suite -out DIR [-only a,b] [-flows x,y] [-floor] | serve [-addr HOST:PORT] | compare -adtest FILE -playwright FILE | timing -adtest FILE | expect -adtest FILE -file M.txt")
		return 2
	}
	fs := flag.NewFlagSet("todomvc "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "suite: the `DIR` to write")
	only := fs.String("only", "", "suite: only these comma-separated `FRAMEWORKS`")
	flows := fs.String("flows", "", "suite: only these comma-separated `FLOWS` (file names without .ad)")
	floor := fs.Bool("floor", false, "suite: write each flow's floor: its page loads and written pauses, nothing else")
	addr := fs.String("addr", "127.0.0.1:0", "serve: listen on `HOST:PORT`")
	adRes := fs.String("adtest", "", "compare: adtest's JSON result `FILE` (--reporter json=FILE)")
	pwRes := fs.String("playwright", "", "compare: Playwright's JSON report `FILE`")
	file := fs.String("file", "", "expect: the expectations `FILE` to update (examples/todomvc/testdata/matrix.txt)")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	if err := do(args[0], stdout, getenv, *out, *only, *flows, *floor, *addr, *adRes, *pwRes, *file); err != nil {
		fmt.Fprintf(stderr, "todomvc %s: %v\n", args[0], err)
		return 1
	}
	return 0
}

func do(cmd string, stdout io.Writer, getenv func(string) string, out, only, flows string, floor bool, addr, adRes, pwRes, file string) error {
	switch cmd {
	case "root":
		root, err := todomvc.Root(getenv)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, root)
		return nil
	case "suite":
		if out == "" {
			return errors.New("-out DIR is required")
		}
		root, err := todomvc.Root(getenv)
		if err != nil {
			return err
		}
		fws, _, err := todomvc.Discover(root)
		if err != nil {
			return err
		}
		var names []string
		if only != "" {
			names = strings.Split(only, ",")
		}
		if fws, err = todomvc.Select(fws, names); err != nil {
			return err
		}
		var flowNames []string
		if flows != "" {
			flowNames = strings.Split(flows, ",")
		}
		if floor {
			return todomvc.WriteFloorSuite(out, fws, flowNames)
		}
		return todomvc.WriteSuite(out, fws, flowNames)
	case "serve":
		root, err := todomvc.Root(getenv)
		if err != nil {
			return err
		}
		return todomvc.Serve(stdout, addr, todomvc.Handler(root))
	case "expect":
		return expect(getenv, adRes, file)
	case "timing":
		if adRes == "" {
			return errors.New("-adtest FILE is required")
		}
		f, err := os.Open(adRes)
		if err != nil {
			return err
		}
		defer f.Close()
		res, err := reporters.ReadJSON(f)
		if err != nil {
			return err
		}
		todomvc.Timing(stdout, res)
		return nil
	case "compare":
		ad, pw, err := todomvc.ReadReports(adRes, pwRes)
		if err != nil {
			return err
		}
		flows, _, err := todomvc.Flows()
		if err != nil {
			return err
		}
		todomvc.Compare(stdout, pw, ad, flows)
		return nil
	}
	return fmt.Errorf("unknown command (root, suite, serve, compare, timing, expect)")
}

// expect merges the cells of an adtest run of the suite into the
// expectations file of TestMatrix, as -update-matrix does.
func expect(getenv func(string) string, adRes, file string) error {
	root, err := todomvc.Root(getenv)
	if err != nil {
		return err
	}
	all, excluded, err := todomvc.Discover(root)
	if err != nil {
		return err
	}
	flows, _, err := todomvc.Flows()
	if err != nil {
		return err
	}
	return todomvc.Expect(adRes, file, func(w io.Writer, old, got todomvc.Matrix) error {
		return todomvc.WriteExpectations(w, todomvc.Merge(old, got, all, flows), excluded)
	})
}
