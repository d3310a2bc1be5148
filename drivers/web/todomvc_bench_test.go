package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/internal/userdir"
)

// The TodoMVC benchmarks profile `open` and `click` per part on the
// backbone app of the TodoMVC corpus (make setup puts it in the user cache)
// with two workers side by side, as `make bench-compare` runs the suite:
//
//	go test -run '^$' -bench 'TodoMVC' -benchtime 20x ./drivers/web/
//
// Each reports the median of every part in milliseconds.

// todomvcServer serves the TodoMVC corpus and returns the backbone app's
// address; without the corpus (make setup) it fails tb under CI and skips
// it elsewhere.
func todomvcServer(tb testing.TB) string {
	tb.Helper()
	dirs, _ := filepath.Glob(filepath.Join(userdir.Dir(os.Getenv, userdir.Cache), "todomvc", "*", "package", "examples", "backbone"))
	if len(dirs) == 0 {
		if os.Getenv("CI") != "" {
			tb.Fatal("the TodoMVC corpus is not set up (make setup)")
		}
		tb.Skip("the TodoMVC corpus is not set up (make setup)")
	}
	ts := httptest.NewServer(http.FileServer(http.Dir(filepath.Dir(filepath.Dir(dirs[0])))))
	tb.Cleanup(ts.Close)
	return ts.URL + "/examples/backbone/index.html"
}

// parts collects the durations of named parts from several workers.
type parts struct {
	mu sync.Mutex
	d  map[string][]time.Duration
}

func (p *parts) add(name string, d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.d == nil {
		p.d = map[string][]time.Duration{}
	}
	p.d[name] = append(p.d[name], d)
}

// report reports the median of each part as NAME-ms.
func (p *parts) report(b *testing.B) {
	for name, ds := range p.d {
		slices.Sort(ds)
		b.ReportMetric(float64(ds[len(ds)/2].Microseconds())/1000, name+"-ms")
	}
}

// workers runs f(worker, i) b.N times in all, spread over two workers.
func workers(b *testing.B, f func(w, i int)) {
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < b.N; i += 2 {
				f(w, i)
			}
		}()
	}
	wg.Wait()
}

// readyBound is what a NewSession that found its session ready takes at most.
const readyBound = 5 * time.Millisecond

// BenchmarkOpenTodoMVC is a test's start as the runner makes it: a new
// session (a fresh browser context and its page, or the spare opened ahead),
// the navigation to the load event, the wait for late scripts
// (loading.go), and the session's close. Parts: session, nav, late, close,
// open (nav + late), and unready (a session that was not ready); ready-% is how many sessions took less than
// readyBound (the spare opened ahead was ready).
func BenchmarkOpenTodoMVC(b *testing.B) {
	b.Run("fresh", func(b *testing.B) { benchOpenTodoMVC(b, prov) })
	b.Run("warm", func(b *testing.B) { benchOpenTodoMVC(b, warmProvider(b)) })
}

func benchOpenTodoMVC(b *testing.B, p *Provider) {
	url := todomvcServer(b)
	ctx := context.Background()
	var ps parts
	var spares, all int
	var mu sync.Mutex
	// A first session warms the browser (and starts it when needed).
	openSession(b, p, "").Close(ctx)
	b.ResetTimer()
	workers(b, func(w, i int) {
		t0 := time.Now()
		d, err := p.NewSession(ctx, drivers.SessionOptions{Worker: w})
		if err != nil {
			b.Error(err)
			return
		}
		t1 := time.Now()
		s := d.(*Session)
		mu.Lock()
		all++
		if t1.Sub(t0) < readyBound {
			spares++
		} else {
			ps.add("unready", t1.Sub(t0))
		}
		mu.Unlock()
		if wc := s.warmContext(); wc != nil {
			err = wc.awaitClean(ctx)
		}
		tc := time.Now()
		if err == nil {
			err = s.navigate(ctx, url)
		}
		t2 := time.Now()
		if err == nil {
			err = s.awaitScripts(ctx)
		}
		t3 := time.Now()
		if err == nil {
			// The test's mark on the page: a todo in its local storage.
			var n int
			err = s.eval(ctx, "todo", `localStorage.setItem('bench', 'x'), 1`, &n)
		}
		s.Close(ctx)
		t4 := time.Now()
		if wc := s.warmContext(); wc != nil {
			// The clearing for the worker's next test.
			wc.awaitClean(ctx)
			ps.add("clear", time.Since(t4))
		}
		if err != nil {
			b.Error(err)
			return
		}
		ps.add("session", t1.Sub(t0))
		ps.add("clean", tc.Sub(t1))
		ps.add("nav", t2.Sub(tc))
		ps.add("late", t3.Sub(t2))
		ps.add("open", t3.Sub(t1))
		ps.add("close", t4.Sub(t3))
	})
	b.StopTimer()
	ps.report(b)
	if all > 0 {
		b.ReportMetric(float64(100*spares)/float64(all), "ready-%")
	}
}

// BenchmarkClickTodoMVC is a click by selector as the runner makes it, on
// the toggle of a todo of the backbone app, two workers each on its own
// page: resolve (a snapshot), Preflight, Act without its settle (the
// actionability check, the input, the press guard) and the settle.
func BenchmarkClickTodoMVC(b *testing.B) {
	url := todomvcServer(b)
	ctx := context.Background()
	var ss [2]*Session
	for w := range ss {
		s := session(b, "")
		if err := s.Open(ctx, drivers.OpenRequest{URL: url}); err != nil {
			b.Fatal(err)
		}
		field := find(b, snap(b, s, drivers.SnapshotOptions{}), "textbox", "What needs to be done?")
		if err := s.Act(ctx, drivers.Action{Kind: drivers.ActFill, Target: &drivers.Target{Node: field}, Text: "benchmark"}); err != nil {
			b.Fatal(err)
		}
		if err := s.Act(ctx, drivers.Action{Kind: drivers.ActKey, Key: "enter"}); err != nil {
			b.Fatal(err)
		}
		ss[w] = s
	}
	var ps parts
	b.ResetTimer()
	workers(b, func(w, i int) {
		s := ss[w]
		t0 := time.Now()
		sn, err := s.Snapshot(ctx, drivers.SnapshotOptions{})
		if err != nil {
			b.Error(err)
			return
		}
		var toggle *drivers.Node
		for j := range sn.Nodes {
			if sn.Nodes[j].Role == "checkbox" {
				toggle = &sn.Nodes[j] // the last one: the todo's (toggle-all comes first)
			}
		}
		if toggle == nil {
			b.Errorf("no checkbox in snapshot:\n%s", dump(sn))
			return
		}
		a := tap(toggle)
		t1 := time.Now()
		if err := s.Preflight(ctx, a); err != nil {
			b.Error(err)
			return
		}
		t2 := time.Now()
		if err := s.Act(ctx, a); err != nil {
			b.Error(err)
			return
		}
		t3 := time.Now()
		settle := s.LastSettle()
		ps.add("resolve", t1.Sub(t0))
		ps.add("preflight", t2.Sub(t1))
		ps.add("act", t3.Sub(t2)-settle)
		ps.add("settle", settle)
		ps.add("click", t3.Sub(t0))
	})
	b.StopTimer()
	ps.report(b)
}
