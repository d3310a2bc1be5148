package suite

import (
	"context"
	"errors"
	"strconv"
	"sync"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/runner"
)

// Parallel shards in one process (agent-device's test --shard-split N and
// --shard-all N): n suite runs side by side, each with its own workers and
// its ShardSpec (scripts see AD_SHARD_INDEX, zero-based, and
// AD_SHARD_COUNT), their results merged into one.

// ShardMode says how the tests are dealt over parallel shards.
type ShardMode int

const (
	// ShardSplit deals the tests over the shards (Shard without weights:
	// round-robin), so each test runs once.
	ShardSplit ShardMode = iota
	// ShardAll gives every shard every test, each named "NAME [k/n]".
	ShardAll
)

// shardWorkerStride separates the worker numbers of shards that share a
// provider: shard k (zero-based) numbers its sessions from k*shardWorkerStride
const shardWorkerStride = 1000

// RunShards runs n shards of tests in parallel with cfg (its Shard and
// Providers are set per shard) and returns their merged result. The shards
// share one provider per platform, opened through cfg.Providers and closed
// when all have ended: providers started side by side in one process would
// race over the browser's start. An error is a shard that could not start,
// or results that do not merge.
func RunShards(ctx context.Context, cfg Config, tests []*Test, n int, mode ShardMode) (*runner.Result, error) {
	if n < 1 {
		return nil, errors.New("shard count must be at least 1")
	}
	shared := &sharedProviders{open: cfg.Providers, provs: map[string]drivers.Provider{}}
	defer shared.closeAll()
	results := make([]*runner.Result, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for k := range n {
		spec := ShardSpec{Index: k + 1, Count: n}
		c := cfg
		c.Shard = spec
		c.Providers = shared.forShard(k)
		own := shardTests(tests, spec, mode)
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[k], errs[k] = Run(ctx, c, own)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return Merge(results)
}

// shardTests are the tests of shard s: its deal of them (ShardSplit), or a
// copy of each named after the shard (ShardAll).
func shardTests(tests []*Test, s ShardSpec, mode ShardMode) []*Test {
	if mode == ShardSplit {
		return Shard(tests, s, nil)
	}
	suffix := " [" + strconv.Itoa(s.Index) + "/" + strconv.Itoa(s.Count) + "]"
	out := make([]*Test, len(tests))
	for i, t := range tests {
		c := *t
		c.File = t.File + suffix
		c.Name = t.Name + suffix
		out[i] = &c
	}
	return out
}

// sharedProviders gives every shard the same provider per platform (one
// browser, a context per session; one adb server). Each shard's sessions
// get worker numbers of their own, and a shard's Close leaves the provider
// to the others; closeAll ends them.
type sharedProviders struct {
	open  ProviderFunc
	mu    sync.Mutex
	provs map[string]drivers.Provider
}

func (s *sharedProviders) forShard(k int) ProviderFunc {
	return func(ctx context.Context, platform string) (drivers.Provider, error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		prov, ok := s.provs[platform]
		if !ok {
			var err error
			if prov, err = s.open(ctx, platform); err != nil {
				return nil, err
			}
			s.provs[platform] = prov
		}
		return shardProvider{Provider: prov, offset: k * shardWorkerStride}, nil
	}
}

func (s *sharedProviders) closeAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.provs {
		p.Close()
	}
}

// shardProvider is a shared provider as one shard sees it.
type shardProvider struct {
	drivers.Provider
	offset int
}

func (p shardProvider) NewSession(ctx context.Context, opts drivers.SessionOptions) (drivers.Driver, error) {
	opts.Worker += p.offset
	return p.Provider.NewSession(ctx, opts)
}

func (shardProvider) Close() error { return nil }
