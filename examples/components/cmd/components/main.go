// Command components serves and reads the component corpus of
// examples/components for scripts/components-playwright.sh:
//
//	components serve [-addr A]    serve the host pages and the packages; prints its URL, serves until killed
//	components compare -adtest R.json -playwright P.json
//	                              print the flows side by side and the totals
//	components expect -adtest R.json -file M.txt
//	                              rewrite TestFlows's expectations from an adtest run
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/adtest/adtest/examples/components"
	"github.com/adtest/adtest/examples/todomvc"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, os.Getenv)) }

const usage = "usage: components serve [-addr HOST:PORT] | compare -adtest FILE -playwright FILE | expect -adtest FILE -file M.txt"

func run(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	fs := flag.NewFlagSet("components "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:0", "serve: listen on `HOST:PORT`")
	adRes := fs.String("adtest", "", "compare, expect: adtest's JSON result `FILE` (--reporter json=FILE)")
	pwRes := fs.String("playwright", "", "compare: Playwright's JSON report `FILE`")
	file := fs.String("file", "", "expect: the expectations `FILE` to rewrite (examples/components/testdata/matrix.txt)")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	if err := do(args[0], stdout, getenv, *addr, *adRes, *pwRes, *file); err != nil {
		fmt.Fprintf(stderr, "components %s: %v\n", args[0], err)
		return 1
	}
	return 0
}

func do(cmd string, stdout io.Writer, getenv func(string) string, addr, adRes, pwRes, file string) error {
	switch cmd {
	case "serve":
		roots, err := components.Roots(getenv)
		if err != nil {
			return err
		}
		return todomvc.Serve(stdout, addr, components.Handler(roots))
	case "compare":
		ad, pw, err := todomvc.ReadReports(adRes, pwRes)
		if err != nil {
			return err
		}
		names, _, err := components.Flows()
		if err != nil {
			return err
		}
		components.Compare(stdout, pw, ad, names)
		return nil
	case "expect":
		names, _, err := components.Flows()
		if err != nil {
			return err
		}
		return todomvc.Expect(adRes, file, func(w io.Writer, old, got components.Matrix) error {
			return components.WriteExpectations(w, components.Next(old, got, names))
		})
	}
	return errors.New(usage)
}
