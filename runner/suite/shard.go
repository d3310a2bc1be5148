package suite

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/adtest/adtest/runner"
)

// ShardSpec is --shard I/N with a 1-based Index; the zero value means no
// sharding.
type ShardSpec struct {
	Index, Count int
}

// Enabled reports whether the run is one shard of several.
func (s ShardSpec) Enabled() bool { return s.Count > 0 }

func (s ShardSpec) String() string {
	if !s.Enabled() {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// ParseShard parses "I/N" (1 <= I <= N).
func ParseShard(v string) (ShardSpec, error) {
	a, b, ok := strings.Cut(v, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return ShardSpec{}, fmt.Errorf("invalid --shard %q: expected I/N with 1 <= I <= N, e.g. 2/4", v)
	}
	return ShardSpec{Index: i, Count: n}, nil
}

// Weights maps a test file (as shown in reports) to its expected duration.
type Weights map[string]int64

// WeightsFromResult reads durations from a previous run's result: each
// file's mean over the tests of it that ran (a file run several times,
// --repeat-each), at least 1.
func WeightsFromResult(r *runner.Result) Weights {
	sum, n := map[string]int64{}, map[string]int64{}
	for _, t := range r.Tests {
		if t.Status == runner.StatusSkipped || t.Status == runner.StatusNotRun {
			continue
		}
		sum[t.File] += t.DurationMs
		n[t.File]++
	}
	w := Weights{}
	for f, d := range sum {
		w[f] = max(d/n[f], 1)
	}
	return w
}

// Shard returns the tests of shard s. Every shard computes the same
// assignment from the same sorted input, so shards are disjoint and together
// cover every test. Tests are placed longest first onto the least-loaded shard
// (ties: the lower shard); without weights every test weighs 1, which deals
// tests round-robin. Files missing from weights get the median weight. The
// returned tests keep their input order.
func Shard(tests []*Test, s ShardSpec, weights Weights) []*Test {
	if !s.Enabled() || s.Count == 1 {
		return tests
	}
	w := make([]int64, len(tests))
	var known []int64
	for _, t := range tests {
		if d, ok := weights[t.File]; ok {
			known = append(known, d)
		}
	}
	median := int64(1)
	if len(known) > 0 {
		sort.Slice(known, func(i, j int) bool { return known[i] < known[j] })
		median = known[len(known)/2]
	}
	for i, t := range tests {
		w[i] = median
		if d, ok := weights[t.File]; ok {
			w[i] = d
		}
	}
	order := make([]int, len(tests))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return w[order[a]] > w[order[b]] })
	load := make([]int64, s.Count)
	assigned := make([]int, len(tests))
	for _, i := range order {
		best := 0
		for k := 1; k < s.Count; k++ {
			if load[k] < load[best] {
				best = k
			}
		}
		load[best] += w[i]
		assigned[i] = best
	}
	var out []*Test
	for i, t := range tests {
		if assigned[i] == s.Index-1 {
			out = append(out, t)
		}
	}
	return out
}
