package suite

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/drivers/fake"
	"github.com/adtest/adtest/drivers/web"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/reporters"
	"github.com/adtest/adtest/runner"
)

// benchSuite writes n scripts with the given body into a temp dir and
// discovers them with the real parser.
func benchSuite(b *testing.B, n int, body string) []*Test {
	b.Helper()
	dir := b.TempDir()
	for i := range n {
		p := filepath.Join(dir, fmt.Sprintf("t%02d.ad", i))
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	tests, err := Discover([]string{dir}, DiscoverOptions{Cwd: dir, Parse: lang.Parse})
	if err != nil {
		b.Fatal(err)
	}
	return tests
}

// runBench runs tests once with a console and JSON reporter (to io.Discard)
// and fails the benchmark unless every test passed.
func runBench(b *testing.B, prov drivers.Provider, tests []*Test, workers int, baseURL string) time.Duration {
	d, _ := runBenchResult(b, prov, tests, workers, baseURL)
	return d
}

func runBenchResult(b *testing.B, prov drivers.Provider, tests []*Test, workers int, baseURL string) (time.Duration, *runner.Result) {
	b.Helper()
	console := reporters.NewConsole(io.Discard, false)
	start := time.Now()
	res, err := Run(context.Background(), Config{
		Workers:     workers,
		RunDir:      b.TempDir(),
		BaseURL:     baseURL,
		Providers:   func(context.Context, string) (drivers.Provider, error) { return nopClose{prov}, nil },
		NewReplayer: RunnerReplayer,
		Listener:    console,
		Prefetch:    map[string]bool{drivers.PlatformWeb: true},
	}, tests)
	if err != nil {
		b.Fatal(err)
	}
	console.Summary(res)
	reporters.WriteJSON(io.Discard, res)
	d := time.Since(start)
	if res.Stats.Passed != len(tests) {
		b.Fatalf("stats %+v: %+v", res.Stats, res.Tests[0].Attempts)
	}
	return d, res
}

// outsideSteps is the time of attempts not spent inside script steps:
// session acquisition, artifacts, teardown and bookkeeping.
func outsideSteps(r *runner.Result) time.Duration {
	var ms int64
	for _, t := range r.Tests {
		for _, a := range t.Attempts {
			ms += a.DurationMs
			for _, st := range a.Steps {
				ms -= st.DurationMs
			}
		}
	}
	return time.Duration(ms) * time.Millisecond
}

// nopClose keeps a shared provider (one warm browser for the whole
// benchmark) open across runs.
type nopClose struct{ drivers.Provider }

func (nopClose) Close() error { return nil }

func webProvider(b *testing.B) (*web.Provider, string) {
	b.Helper()
	srv, err := ServeFS(fstest.MapFS{"index.html": {Data: []byte("<!doctype html><title>bench</title><h1>Bench</h1><button>Go</button>")}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { srv.Close() })
	prov, err := web.NewProvider(web.Options{})
	if err != nil {
		b.Fatalf("the web benchmarks need Chromium: %v", err)
	}
	b.Cleanup(func() { prov.Close() })
	return prov, srv.URL
}

// BenchmarkWorkersSpeedup runs 16 web scripts that each wait 1 s, with -j 1
// and -j 4, and reports the ratio of the two wall times (target < 0.35).
//
//	go test -run '^$' -bench WorkersSpeedup -benchtime 1x ./runner/suite/
func BenchmarkWorkersSpeedup(b *testing.B) {
	prov, url := webProvider(b)
	tests := benchSuite(b, 16, "context platform=web\nopen ${AD_BASE_URL}/index.html\nwait 1000\n")
	runBench(b, prov, tests[:2], 2, url) // warm the browser
	b.ResetTimer()
	var j1, j4 time.Duration
	for range b.N {
		j1 += runBench(b, prov, tests, 1, url)
		j4 += runBench(b, prov, tests, 4, url)
	}
	b.ReportMetric(j1.Seconds()/float64(b.N), "s-j1")
	b.ReportMetric(j4.Seconds()/float64(b.N), "s-j4")
	b.ReportMetric(float64(j4)/float64(j1), "j4/j1")
}

// BenchmarkOverheadWeb measures the runner's cost per test on the web: a
// fresh browser context, a trivial script (open a local page), teardown,
// artifacts and reporting (target < 50 ms/test).
//
//	go test -run '^$' -bench Overhead ./runner/suite/
func BenchmarkOverheadWeb(b *testing.B) {
	prov, url := webProvider(b)
	tests := benchSuite(b, 10, "context platform=web\nopen ${AD_BASE_URL}/index.html\n")
	runBench(b, prov, tests[:1], 1, url)
	b.ResetTimer()
	var outside time.Duration
	for range b.N {
		_, res := runBenchResult(b, prov, tests, 1, url)
		outside += outsideSteps(res)
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N*len(tests)), "ms/test")
	b.ReportMetric(float64(outside.Milliseconds())/float64(b.N*len(tests)), "ms/test-outside-steps")
}

// BenchmarkOverheadFake is the same on the in-memory device: the suite
// runner's own overhead without a browser.
func BenchmarkOverheadFake(b *testing.B) {
	screens, err := fake.ParseScreens("bench", "open demo -> home\nscreen home\n  button \"Go\"\n")
	if err != nil {
		b.Fatal(err)
	}
	prov := fake.NewProvider(screens, nil)
	tests := benchSuite(b, 10, "context platform=web\nopen demo\n")
	b.ResetTimer()
	for range b.N {
		runBench(b, prov, tests, 1, "")
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N*len(tests)), "ms/test")
}

var _ runner.Observer = (*reporters.Console)(nil)
