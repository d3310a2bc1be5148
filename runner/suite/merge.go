package suite

import (
	"fmt"
	"sort"
	"time"

	"github.com/adtest/adtest/runner"
)

// Merge combines the results of CI shards into one result: tests sorted by
// file, stats recomputed, the run spanning the earliest start to the latest
// end. A test file present in two results is an error (shards must be
// disjoint).
func Merge(results []*runner.Result) (*runner.Result, error) {
	out := &runner.Result{Version: 1, Tests: []runner.TestResult{}}
	if len(results) == 0 {
		return out, nil
	}
	var end time.Time
	seen := map[string]int{}
	for k, r := range results {
		if r.Version != 1 {
			return nil, fmt.Errorf("result %d: unsupported version %d", k+1, r.Version)
		}
		if out.StartedAt.IsZero() || r.StartedAt.Before(out.StartedAt) {
			out.StartedAt = r.StartedAt
		}
		if e := r.StartedAt.Add(time.Duration(r.DurationMs) * time.Millisecond); e.After(end) {
			end = e
		}
		out.Interrupted = out.Interrupted || r.Interrupted
		for _, t := range r.Tests {
			if prev, dup := seen[t.File]; dup {
				return nil, fmt.Errorf("%s appears in result %d and result %d: shards must be disjoint", t.File, prev, k+1)
			}
			seen[t.File] = k + 1
			out.Tests = append(out.Tests, t)
		}
	}
	sort.SliceStable(out.Tests, func(i, j int) bool { return out.Tests[i].File < out.Tests[j].File })
	out.Stats = ComputeStats(out.Tests)
	out.DurationMs = end.Sub(out.StartedAt).Milliseconds()
	return out, nil
}

// MissingShards names the shards a set of results lacks: every result that
// records a shard ("I/N") must agree on N, and together they must hold 1..N.
// Results without a shard (whole runs) are not counted. An error says the
// results disagree on N or repeat a shard.
func MissingShards(results []*runner.Result) ([]string, error) {
	count := 0
	have := map[int]int{}
	for k, r := range results {
		if r.Shard == "" {
			continue
		}
		s, err := ParseShard(r.Shard)
		if err != nil {
			return nil, fmt.Errorf("result %d: %v", k+1, err)
		}
		if count != 0 && s.Count != count {
			return nil, fmt.Errorf("result %d is shard %s, another is of %d shards: merge the results of one sharded run", k+1, r.Shard, count)
		}
		count = s.Count
		if prev, dup := have[s.Index]; dup {
			return nil, fmt.Errorf("shard %s appears in result %d and result %d", r.Shard, prev, k+1)
		}
		have[s.Index] = k + 1
	}
	var missing []string
	for i := 1; i <= count; i++ {
		if _, ok := have[i]; !ok {
			missing = append(missing, fmt.Sprintf("%d/%d", i, count))
		}
	}
	return missing, nil
}
