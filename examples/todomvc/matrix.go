package todomvc

import (
	"bufio"
	"fmt"
	"io"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/adtest/adtest/runner"
)

// Cell is one flow on one framework.
type Cell struct {
	Framework, Flow string
	Pass            bool
	// Unknown marks an expectation not measured yet: the cell runs, its
	// outcome is logged, not asserted.
	Unknown bool
	// Flaky marks a cell measured to pass and fail from run to run for a
	// cause of the app's, written by hand in the expectations: the cell
	// runs, its outcome is logged, not asserted, and a regeneration keeps
	// the mark.
	Flaky bool
	// Cause is why a failed cell failed: the failing line, command,
	// reason and message (loopback ports scrubbed); of a flaky cell, why
	// it is flaky.
	Cause string
}

// Key is "FRAMEWORK/FLOW".
func (c Cell) Key() string { return c.Framework + "/" + c.Flow }

// Matrix is a set of cells by key.
type Matrix map[string]Cell

var portRe = regexp.MustCompile(`(127\.0\.0\.1|localhost):\d+`)

// FromResult reads adtest's result of a suite written by WriteSuite: each
// test file .../FRAMEWORK/FLOW.ad is a cell; a test that did not run
// (skipped, or an interrupted run's notRun) is no cell.
func FromResult(res *runner.Result) Matrix {
	m := Matrix{}
	for _, tr := range res.Tests {
		if tr.Status == runner.StatusNotRun || tr.Status == runner.StatusSkipped {
			continue
		}
		flow := strings.TrimSuffix(path.Base(tr.File), ".ad")
		fw := path.Base(path.Dir(tr.File))
		c := Cell{Framework: fw, Flow: flow, Pass: tr.Status == runner.StatusPassed}
		if !c.Pass {
			c.Cause = string(tr.Status)
			if n := len(tr.Attempts); n > 0 && tr.Attempts[n-1].Error != nil {
				c.Cause = cause(tr.Attempts[n-1].Error)
			} else if tr.Reason != "" {
				c.Cause += ": " + tr.Reason
			}
		}
		m[c.Key()] = c
	}
	return m
}

func cause(e *runner.ErrorInfo) string {
	msg, _, _ := strings.Cut(e.Message, "\n")
	msg = portRe.ReplaceAllString(msg, "$1:PORT")
	s := fmt.Sprintf("line %d %s: ", e.Line, e.Command)
	if e.Reason != "" {
		s += "[" + string(e.Reason) + "] "
	}
	return s + strings.TrimSpace(msg)
}

// Sorted returns the cells ordered by framework, then flow.
func (m Matrix) Sorted() []Cell {
	out := make([]Cell, 0, len(m))
	for _, c := range m {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Framework != out[j].Framework {
			return out[i].Framework < out[j].Framework
		}
		return out[i].Flow < out[j].Flow
	})
	return out
}

// Unknown counts the cells not measured yet.
func (m Matrix) Unknown() int { return m.count(func(c Cell) bool { return c.Unknown }) }

// Flaky counts the cells marked flaky.
func (m Matrix) Flaky() int { return m.count(func(c Cell) bool { return c.Flaky }) }

// Passed counts the passing cells (a flaky cell is not one).
func (m Matrix) Passed() int { return m.count(func(c Cell) bool { return c.Pass && !c.Flaky }) }

func (m Matrix) count(f func(Cell) bool) int {
	n := 0
	for _, c := range m {
		if f(c) {
			n++
		}
	}
	return n
}

// WriteExpectations writes the checked-in form: a header, the excluded
// apps with their reason, then one line per cell, tab-separated:
// FRAMEWORK FLOW pass, FRAMEWORK FLOW fail CAUSE, FRAMEWORK FLOW flaky
// CAUSE or FRAMEWORK FLOW unknown.
func WriteExpectations(w io.Writer, m Matrix, excluded []Excluded) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# The TodoMVC matrix under adtest: every flow of flows/ on every complete app of npm %s@%s.\n", NPMPackage, NPMVersion)
	fmt.Fprintf(bw, "# TestMatrix fails when a cell's pass/fail differs from this file. Regenerate after a driver change:\n")
	fmt.Fprintf(bw, "#   go test ./examples/todomvc -run TestMatrix -update-matrix\n")
	fmt.Fprintf(bw, "# (add -matrix-only a,b to run and rewrite those frameworks' cells only; a cell marked unknown\n")
	fmt.Fprintf(bw, "# runs and is logged, not asserted, until it is measured; so does a cell marked flaky by hand,\n")
	fmt.Fprintf(bw, "# one measured to pass and fail from run to run for the app's reason given, and it stays marked.)\n")
	fmt.Fprintf(bw, "# cells passed: %d of %d (%d unknown, %d flaky)\n", m.Passed(), len(m), m.Unknown(), m.Flaky())
	for _, e := range excluded {
		fmt.Fprintf(bw, "excluded\t%s\t%s\n", e.Name, e.Reason)
	}
	for _, c := range m.Sorted() {
		if c.Unknown {
			fmt.Fprintf(bw, "%s\t%s\tunknown\n", c.Framework, c.Flow)
		} else if c.Flaky {
			fmt.Fprintf(bw, "%s\t%s\tflaky\t%s\n", c.Framework, c.Flow, c.Cause)
		} else if c.Pass {
			fmt.Fprintf(bw, "%s\t%s\tpass\n", c.Framework, c.Flow)
		} else {
			fmt.Fprintf(bw, "%s\t%s\tfail\t%s\n", c.Framework, c.Flow, c.Cause)
		}
	}
	return bw.Flush()
}

// ReadExpectations parses what WriteExpectations wrote; name is used in
// errors (name:line: message).
func ReadExpectations(name string, r io.Reader) (Matrix, []Excluded, error) {
	m := Matrix{}
	var excl []Excluded
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for ln := 1; sc.Scan(); ln++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		switch {
		case len(f) == 3 && f[0] == "excluded":
			excl = append(excl, Excluded{Name: f[1], Reason: f[2]})
			continue
		case len(f) == 3 && f[2] == "pass":
			m[f[0]+"/"+f[1]] = Cell{Framework: f[0], Flow: f[1], Pass: true}
			continue
		case len(f) == 3 && f[2] == "unknown":
			m[f[0]+"/"+f[1]] = Cell{Framework: f[0], Flow: f[1], Unknown: true}
			continue
		case len(f) == 4 && f[2] == "flaky" && f[3] != "":
			m[f[0]+"/"+f[1]] = Cell{Framework: f[0], Flow: f[1], Flaky: true, Cause: f[3]}
			continue
		case len(f) == 4 && f[2] == "fail":
			m[f[0]+"/"+f[1]] = Cell{Framework: f[0], Flow: f[1], Cause: f[3]}
			continue
		}
		return nil, nil, fmt.Errorf("%s:%d:1: want FRAMEWORK<TAB>FLOW<TAB>pass|unknown, FRAMEWORK<TAB>FLOW<TAB>fail|flaky<TAB>CAUSE or excluded<TAB>NAME<TAB>REASON, got %q (regenerate with -update-matrix)", name, ln, line)
	}
	return m, excl, sc.Err()
}

// Diff lists how got differs from want, one line per cell: a cell that
// passes now and was expected to fail, one that fails now and was
// expected to pass (with its cause), and cells present on one side only.
// A cell expected as unknown or flaky differs from nothing.
func Diff(want, got Matrix) []string {
	var out []string
	for _, c := range got.Sorted() {
		w, ok := want[c.Key()]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("%s: new cell (%s), not in the expectations", c.Key(), verdict(c)))
		case w.Unknown || w.Flaky:
		case w.Pass && !c.Pass:
			out = append(out, fmt.Sprintf("%s: expected to pass, fails: %s", c.Key(), c.Cause))
		case !w.Pass && c.Pass:
			out = append(out, fmt.Sprintf("%s: expected to fail (%s), passes now", c.Key(), w.Cause))
		}
	}
	for _, c := range want.Sorted() {
		if _, ok := got[c.Key()]; !ok {
			out = append(out, fmt.Sprintf("%s: expected (%s), did not run", c.Key(), verdict(c)))
		}
	}
	return out
}

func verdict(c Cell) string {
	if c.Pass {
		return "pass"
	}
	return "fail: " + c.Cause
}

// Merge is the next expectations: the cells of got (a run), else those of
// old, for every flow on every framework of all (the complete apps now);
// a cell in neither is unknown; a cell old marks flaky stays so. Cells of
// apps no longer complete go.
func Merge(old, got Matrix, all []Framework, flows []string) Matrix {
	next := Matrix{}
	for _, fw := range all {
		for _, f := range flows {
			k := fw.Name + "/" + f
			if c, ok := old[k]; ok && c.Flaky {
				next[k] = c
			} else if c, ok := got[k]; ok {
				next[k] = c
			} else if c, ok := old[k]; ok {
				next[k] = c
			} else {
				next[k] = Cell{Framework: fw.Name, Flow: f, Unknown: true}
			}
		}
	}
	return next
}
