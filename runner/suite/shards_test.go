package suite

import (
	"context"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/adtest/adtest/drivers"
)

// countedWorld counts how often the shards open and close the provider.
type countedWorld struct {
	*world
	mu             sync.Mutex
	opened, closed int
	workers        map[int]bool // of the sessions
}

func (c *countedWorld) NewSession(ctx context.Context, o drivers.SessionOptions) (drivers.Driver, error) {
	c.mu.Lock()
	c.workers[o.Worker] = true
	c.mu.Unlock()
	return c.world.NewSession(ctx, o)
}

func (c *countedWorld) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed++
	return nil
}

// TestRunShards: parallel shards share one provider (opened once, closed
// once when all ended), keep their worker numbers apart, and merge into
// one result: split runs each test once, all runs each on every shard.
func TestRunShards(t *testing.T) {
	for _, tc := range []struct {
		name string
		mode ShardMode
		want string
	}{
		{"split", ShardSplit, "a.ad b.ad c.ad"},
		{"all", ShardAll, "a.ad [1/2] a.ad [2/2] b.ad [1/2] b.ad [2/2] c.ad [1/2] c.ad [2/2]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := &countedWorld{world: newWorld(t), workers: map[int]bool{}}
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{
				"a.ad": "context platform=web\nok\n",
				"b.ad": "context platform=web\nok\n",
				"c.ad": "context platform=web\nok\n",
			})
			tests, err := Discover([]string{"."}, DiscoverOptions{Cwd: dir, Parse: testParse})
			if err != nil {
				t.Fatal(err)
			}
			res, err := RunShards(context.Background(), Config{
				Workers: 1, RunDir: filepath.Join(dir, "run"),
				Providers: func(context.Context, string) (drivers.Provider, error) {
					w.mu.Lock()
					defer w.mu.Unlock()
					w.opened++
					return w, nil
				},
				NewReplayer: func(d drivers.Driver, _ AttemptContext) Replayer {
					return &fakeReplayer{w: w.world, d: d.(*fakeDriver)}
				},
			}, tests, 2, tc.mode)
			if err != nil {
				t.Fatal(err)
			}
			var files []string
			for _, tr := range res.Tests {
				files = append(files, tr.File)
				if tr.Status != "passed" {
					t.Errorf("%s: %s", tr.File, tr.Status)
				}
			}
			sort.Strings(files)
			if got := strings.Join(files, " "); got != tc.want {
				t.Errorf("tests %q, want %q", got, tc.want)
			}
			if !w.workers[0] || !w.workers[shardWorkerStride] || len(w.workers) != 2 {
				t.Errorf("session workers %v, want 0 and %d", w.workers, shardWorkerStride)
			}
			if w.opened != 1 || w.closed != 1 {
				t.Errorf("provider opened %d and closed %d times, want once each", w.opened, w.closed)
			}
		})
	}
}
