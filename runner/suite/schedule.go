package suite

import (
	"sort"

	"github.com/adtest/adtest/lang"
)

// Longest first. Workers take tests from one queue; when the queue is in
// file order, a long test that comes late leaves the other workers idle at
// the end of the run while it finishes. A run of several workers therefore
// takes its tests longest first (the classic LPT rule: each free worker
// takes the longest test left), which leaves the short ones to fill the
// gaps at the end. The expected durations are the last run's
// (LastRun.Durations); a test the last run did not time is estimated from
// its steps (EstimateMs). Reports keep file order whatever the run order.

// Order says in which order a run of several workers takes its tests.
type Order string

const (
	// OrderLongestFirst takes the tests longest first (the default).
	OrderLongestFirst Order = "longest-first"
	// OrderFile takes the tests in file order, as a run of one worker does.
	OrderFile Order = "file"
)

// ParseOrder reads --order.
func ParseOrder(v string) (Order, bool) {
	switch Order(v) {
	case OrderLongestFirst, OrderFile:
		return Order(v), true
	}
	return "", false
}

// What an estimate charges a step it cannot know better: an `open` (a
// navigation or an app's launch) and any other step. Only their ratio to
// each other and to a written pause matters, and only until the test has
// run once.
const (
	estimateOpenMs = 300
	estimateStepMs = 40
)

// EstimateMs is a test's expected duration before it has run: its written
// pauses (`wait 1000`) at their length, an `open` at estimateOpenMs, every
// other step at estimateStepMs.
func EstimateMs(s *lang.Script) int64 {
	if s == nil {
		return 0
	}
	var ms int64
	for _, a := range s.Actions {
		tr := lang.TraitsOf(a.Command)
		switch {
		case tr.OpensSession:
			ms += estimateOpenMs
		case tr.Waits && len(a.Positionals) == 1:
			if n, ok := lang.JSNumber(a.Positionals[0]); ok && n > 0 {
				ms += int64(n)
				continue
			}
			ms += estimateStepMs
		default:
			ms += estimateStepMs
		}
	}
	return ms
}

// takeOrder is the order the workers take the tests in: indexes of tests.
// With one worker, or OrderFile, it is file order; else longest first by
// durations (a file's), else by estimate, ties in file order.
func takeOrder(tests []*Test, workers int, order Order, durations Weights) []int {
	idx := make([]int, len(tests))
	for i := range idx {
		idx[i] = i
	}
	if workers < 2 || order == OrderFile {
		return idx
	}
	w := make([]int64, len(tests))
	for i, t := range tests {
		if d, ok := durations[t.File]; ok {
			w[i] = d
		} else {
			w[i] = EstimateMs(t.Script)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return w[idx[a]] > w[idx[b]] })
	return idx
}
