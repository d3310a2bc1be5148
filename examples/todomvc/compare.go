package todomvc

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/adtest/adtest/runner"
)

// The subset of Playwright Test's JSON report the comparison reads.
type pwReport struct {
	Suites []pwSuite `json:"suites"`
	Errors []struct {
		Message string `json:"message"`
	} `json:"errors"`
}

type pwSuite struct {
	Title  string    `json:"title"`
	Suites []pwSuite `json:"suites"`
	Specs  []struct {
		Title string `json:"title"`
		OK    bool   `json:"ok"`
		Tests []struct {
			Status  string `json:"status"` // expected, unexpected, flaky, skipped
			Results []struct {
				Status string `json:"status"`
				Error  *struct {
					Message string `json:"message"`
				} `json:"error"`
			} `json:"results"`
		} `json:"tests"`
	} `json:"specs"`
}

var ansiRe = regexp.MustCompile("\x1b\\[[0-9;]*m")

// FromPlaywright reads Playwright's JSON report of playwright/todomvc.spec.js:
// a spec titled FLOW in a describe block titled FRAMEWORK is a cell; a test
// that did not run (skipped, or interrupted) is no cell.
func FromPlaywright(r io.Reader) (Matrix, error) {
	var rep pwReport
	if err := json.NewDecoder(r).Decode(&rep); err != nil {
		return nil, fmt.Errorf("reading the Playwright JSON report: %w", err)
	}
	if len(rep.Suites) == 0 && len(rep.Errors) > 0 {
		return nil, fmt.Errorf("Playwright ran no test: %s", firstLine(rep.Errors[0].Message))
	}
	m := Matrix{}
	var walk func(parent string, s pwSuite)
	walk = func(parent string, s pwSuite) {
		for _, sp := range s.Specs {
			c := Cell{Framework: s.Title, Flow: sp.Title, Pass: sp.OK}
			ran := false
			for _, t := range sp.Tests {
				n := len(t.Results)
				if t.Status == "skipped" || n == 0 || t.Results[n-1].Status == "interrupted" || t.Results[n-1].Status == "skipped" {
					continue
				}
				ran = true
				if t.Status != "expected" {
					c.Pass = false
				}
				if !c.Pass {
					res := t.Results[n-1]
					c.Cause = res.Status
					if res.Error != nil {
						c.Cause += ": " + firstLine(res.Error.Message)
					}
				}
			}
			if ran {
				m[c.Key()] = c
			}
		}
		for _, sub := range s.Suites {
			walk(s.Title, sub)
		}
	}
	for _, s := range rep.Suites {
		walk("", s)
	}
	return m, nil
}

func firstLine(s string) string {
	s = ansiRe.ReplaceAllString(s, "")
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return portRe.ReplaceAllString(s, "$1:PORT")
}

// Compare prints the matrix side by side: one row per framework, one
// column per flow, each cell two marks (Playwright, then adtest: + passed,
// - failed, . not run), then the totals in one line, then every cell where
// Playwright passes and adtest does not, grouped by adtest's failing
// command and reason, with adtest's cause; then the cells the other way.
func Compare(w io.Writer, pw, ad Matrix, flows []string) {
	fws := map[string]bool{}
	for _, m := range []Matrix{pw, ad} {
		for _, c := range m {
			fws[c.Framework] = true
		}
	}
	var names []string
	for n := range fws {
		names = append(names, n)
	}
	sort.Strings(names)
	width := 10
	for _, n := range names {
		width = max(width, len(n))
	}
	fmt.Fprintf(w, "%-*s", width+2, "framework")
	for _, f := range flows {
		fmt.Fprintf(w, " %*s", colWidth(f), shortFlow(f))
	}
	fmt.Fprintf(w, "   (each cell: Playwright, adtest; + passed, - failed, . not run)\n")
	mark := func(m Matrix, k string) string {
		c, ok := m[k]
		switch {
		case !ok:
			return "."
		case c.Pass:
			return "+"
		}
		return "-"
	}
	var pwOnly, adOnly []Cell
	for _, n := range names {
		fmt.Fprintf(w, "%-*s", width+2, n)
		for _, f := range flows {
			k := n + "/" + f
			fmt.Fprintf(w, " %*s", colWidth(f), mark(pw, k)+mark(ad, k))
			p, a := pw[k], ad[k]
			if p.Pass && !a.Pass {
				a.Framework, a.Flow = n, f
				pwOnly = append(pwOnly, a)
			}
			if a.Pass && !p.Pass {
				p.Framework, p.Flow = n, f
				adOnly = append(adOnly, p)
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\nTOTAL %d frameworks x %d flows = %d cells: Playwright passed %d, adtest passed %d; Playwright passed and adtest failed %d, the other way %d\n",
		len(names), len(flows), len(names)*len(flows), pw.Passed(), ad.Passed(), len(pwOnly), len(adOnly))

	fmt.Fprintf(w, "\nCells where Playwright passes and adtest fails, by adtest's failing command and reason:\n")
	printGroups(w, pwOnly)
	fmt.Fprintf(w, "\nCells where adtest passes and Playwright fails (Playwright's cause):\n")
	for _, c := range adOnly {
		fmt.Fprintf(w, "  %s: %s\n", c.Key(), c.Cause)
	}
}

var groupRe = regexp.MustCompile(`^line \d+ (\S+): (\[[^\]]+\])?`)

func printGroups(w io.Writer, cells []Cell) {
	groups := map[string][]Cell{}
	for _, c := range cells {
		g := "other"
		if m := groupRe.FindStringSubmatch(c.Cause); m != nil {
			g = strings.TrimSpace(m[1] + " " + m[2])
		}
		groups[g] = append(groups[g], c)
	}
	var keys []string
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if len(groups[keys[i]]) != len(groups[keys[j]]) {
			return len(groups[keys[i]]) > len(groups[keys[j]])
		}
		return keys[i] < keys[j]
	})
	for _, k := range keys {
		fmt.Fprintf(w, "  %s (%d):\n", k, len(groups[k]))
		for _, c := range groups[k] {
			fmt.Fprintf(w, "    %s: %s\n", c.Key(), c.Cause)
		}
	}
}

func colWidth(f string) int { return max(2, len(shortFlow(f))) }

// shortFlow is a flow's column heading: its number.
func shortFlow(f string) string {
	n, _, _ := strings.Cut(f, "-")
	return n
}

// Timing prints where an adtest run's step time went, per command: how
// many steps, their total and median milliseconds (page loads are the
// open steps; every other command is an action, an assertion or a wait).
func Timing(w io.Writer, res *runner.Result) {
	by := map[string][]int64{}
	var total, tests int64
	for _, tr := range res.Tests {
		for _, a := range tr.Attempts {
			tests++
			for _, s := range a.Steps {
				by[s.Command] = append(by[s.Command], s.DurationMs)
				total += s.DurationMs
			}
		}
	}
	var cmds []string
	for c := range by {
		cmds = append(cmds, c)
	}
	sort.Slice(cmds, func(i, j int) bool { return sum(by[cmds[i]]) > sum(by[cmds[j]]) })
	fmt.Fprintf(w, "TIMING %d attempts, run wall time %d ms, step time %d ms (summed over workers)\n", tests, res.DurationMs, total)
	for _, c := range cmds {
		d := by[c]
		fmt.Fprintf(w, "  %-10s %4d steps  total %7d ms (%4.1f%%)  median %5d ms\n", c, len(d), sum(d), 100*float64(sum(d))/float64(max(total, 1)), median(d))
	}
	workerLoads(w, res)
}

// workerLoads prints each worker's busy time (its attempts' durations)
// and when its last attempt ended, from the run's start: how evenly the
// run's order spread the tests (the workers end together when it did).
func workerLoads(w io.Writer, res *runner.Result) {
	busy, end := map[int]int64{}, map[int]int64{}
	for _, tr := range res.Tests {
		for _, a := range tr.Attempts {
			if a.StartedAt.IsZero() {
				continue
			}
			busy[a.Worker] += a.DurationMs
			end[a.Worker] = max(end[a.Worker], a.StartedAt.Sub(res.StartedAt).Milliseconds()+a.DurationMs)
		}
	}
	ws := slices.Sorted(maps.Keys(busy))
	if len(ws) == 0 {
		return
	}
	fmt.Fprint(w, "  workers:")
	for i, k := range ws {
		sep := ";"
		if i == len(ws)-1 {
			sep = ""
		}
		fmt.Fprintf(w, " %d busy %d ms, done at %d ms%s", k, busy[k], end[k], sep)
	}
	fmt.Fprintln(w)
}

func sum(d []int64) int64 {
	var s int64
	for _, v := range d {
		s += v
	}
	return s
}

func median(d []int64) int64 {
	s := slices.Clone(d)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}
