package components

import (
	"bufio"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/adtest/adtest/examples/todomvc"
)

//go:embed flows
var flowFiles embed.FS

// Flows returns the flows, each "LIBRARY/FLOW" (the file
// flows/LIBRARY/FLOW.ad), sorted, and their sources by name.
func Flows() ([]string, map[string][]byte, error) {
	files, err := fs.Glob(flowFiles, "flows/*/*.ad")
	if err != nil {
		return nil, nil, err
	}
	var names []string
	src := map[string][]byte{}
	for _, f := range files {
		b, err := fs.ReadFile(flowFiles, f)
		if err != nil {
			return nil, nil, err
		}
		name := strings.TrimSuffix(strings.TrimPrefix(f, "flows/"), ".ad")
		names = append(names, name)
		src[name] = b
	}
	sort.Strings(names)
	return names, src, nil
}

// A Matrix has one cell per flow: the cell's Framework is the library, its
// Flow the flow's file name without .ad, so its key is the flow's name.
// The readers of adtest's and Playwright's results and of the checked-in
// expectations are the TodoMVC corpus's (the same layout: a directory per
// library, a describe block per library).
type Matrix = todomvc.Matrix

// WriteExpectations writes the checked-in form of m, one line per flow:
// LIBRARY FLOW pass, LIBRARY FLOW fail CAUSE, LIBRARY FLOW flaky CAUSE or
// LIBRARY FLOW unknown (tab-separated), as todomvc.ReadExpectations reads.
func WriteExpectations(w io.Writer, m Matrix) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# The component corpus under adtest: every flow of flows/ (LIBRARY/FLOW.ad).\n")
	fmt.Fprintf(bw, "# TestFlows fails when a flow's pass/fail differs from this file: in make test it runs the flows\n")
	fmt.Fprintf(bw, "# expected to pass; make components runs them all. Regenerate after a driver change:\n")
	fmt.Fprintf(bw, "#   go test ./examples/components -run TestFlows -components-all -update-matrix\n")
	fmt.Fprintf(bw, "# (a flow marked unknown runs and is logged, not asserted; so does one marked flaky by hand.)\n")
	fmt.Fprintf(bw, "# flows passed: %d of %d (%d unknown, %d flaky)\n", m.Passed(), len(m), m.Unknown(), m.Flaky())
	for _, c := range m.Sorted() {
		switch {
		case c.Unknown:
			fmt.Fprintf(bw, "%s\t%s\tunknown\n", c.Framework, c.Flow)
		case c.Flaky:
			fmt.Fprintf(bw, "%s\t%s\tflaky\t%s\n", c.Framework, c.Flow, c.Cause)
		case c.Pass:
			fmt.Fprintf(bw, "%s\t%s\tpass\n", c.Framework, c.Flow)
		default:
			fmt.Fprintf(bw, "%s\t%s\tfail\t%s\n", c.Framework, c.Flow, c.Cause)
		}
	}
	return bw.Flush()
}

// Next is the expectations after a run: for every flow of names, the cell
// of got (the run), else that of old; a cell in neither is unknown; a cell
// old marks flaky stays so.
func Next(old, got Matrix, names []string) Matrix {
	next := Matrix{}
	for _, n := range names {
		lib, flow := path.Split(n)
		lib = strings.TrimSuffix(lib, "/")
		if c, ok := old[n]; ok && c.Flaky {
			next[n] = c
		} else if c, ok := got[n]; ok {
			next[n] = c
		} else if c, ok := old[n]; ok {
			next[n] = c
		} else {
			next[n] = todomvc.Cell{Framework: lib, Flow: flow, Unknown: true}
		}
	}
	return next
}

// Compare prints the flows side by side, one line each: the flow, then
// Playwright's and adtest's outcome (pass, FAIL, or - when it did not run)
// and, where adtest failed, its cause; then the totals.
func Compare(w io.Writer, pw, ad Matrix, names []string) {
	width := len("flow")
	for _, n := range names {
		width = max(width, len(n))
	}
	mark := func(m Matrix, k string) string {
		c, ok := m[k]
		switch {
		case !ok:
			return "-"
		case c.Pass:
			return "pass"
		}
		return "FAIL"
	}
	fmt.Fprintf(w, "%-*s  %-10s  %-6s  %s\n", width, "flow", "Playwright", "adtest", "adtest's cause")
	pwOnly, adOnly := 0, 0
	for _, n := range names {
		p, a := pw[n], ad[n]
		cause := ""
		if _, ran := ad[n]; ran && !a.Pass {
			cause = a.Cause
		}
		fmt.Fprintf(w, "%-*s  %-10s  %-6s  %s\n", width, n, mark(pw, n), mark(ad, n), cause)
		if p.Pass && !a.Pass {
			pwOnly++
		}
		if a.Pass && !p.Pass {
			adOnly++
		}
	}
	fmt.Fprintf(w, "\nTOTAL %d flows: Playwright passed %d, adtest passed %d; Playwright passed and adtest failed %d, the other way %d\n",
		len(names), pw.Passed(), ad.Passed(), pwOnly, adOnly)
	for _, n := range names {
		if p, ok := pw[n]; ok && !p.Pass {
			fmt.Fprintf(w, "  Playwright failed %s: %s\n", n, p.Cause)
		}
	}
}
