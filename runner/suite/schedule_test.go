package suite

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner"
)

func TestEstimateMs(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want int64
	}{
		{"open https://x\nclick \"id=a\"\n", estimateOpenMs + estimateStepMs},
		{"open https://x\nwait 1000\nwait \"id=a\" 5000\n", estimateOpenMs + 1000 + estimateStepMs},
		{"wait ${PAUSE}\n", estimateStepMs}, // not known before the run
		{"", 0},
	} {
		s, errs := lang.ParseAll("a.ad", []byte(tc.src)) // the real parse: what a pause looks like
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		if got := EstimateMs(s); got != tc.want {
			t.Errorf("EstimateMs(%q) = %d, want %d", tc.src, got, tc.want)
		}
	}
}

func TestTakeOrder(t *testing.T) {
	var tests []*Test
	for _, src := range []string{
		"open x\nok\n",          // a: 340 estimated, 100 timed
		"ok\n",                  // b: 40
		"open x\nwait 2000\n",   // c: 2300
		"open x\nok\nok\nok\n",  // d: 420
		"ok\n",                  // e: 40, as b: file order between them
		"open x\nwait 100000\n", // f: timed at 50
	} {
		f := fmt.Sprintf("%c.ad", 'a'+len(tests))
		s, err := testParse(f, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		tests = append(tests, &Test{File: f, Script: s})
	}
	durations := Weights{"a.ad": 100, "f.ad": 50}
	names := func(order []int) string {
		var out []string
		for _, i := range order {
			out = append(out, tests[i].File)
		}
		return strings.Join(out, " ")
	}
	for _, tc := range []struct {
		workers int
		order   Order
		want    string
	}{
		{2, OrderLongestFirst, "c.ad d.ad a.ad f.ad b.ad e.ad"},
		{2, "", "c.ad d.ad a.ad f.ad b.ad e.ad"},
		{2, OrderFile, "a.ad b.ad c.ad d.ad e.ad f.ad"},
		{1, OrderLongestFirst, "a.ad b.ad c.ad d.ad e.ad f.ad"}, // one worker: no gain, file order
	} {
		if got := names(takeOrder(tests, tc.workers, tc.order, durations)); got != tc.want {
			t.Errorf("workers %d, order %q: %s, want %s", tc.workers, tc.order, got, tc.want)
		}
	}
}

// With two workers the longest test starts among the first two, though it
// comes last in file order; reports keep file order. The first two tests
// taken meet at a barrier (a and d), so no third is taken before both
// started.
func TestRunLongestFirst(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		file bool // file order: d is taken after b and c ran
	}{
		{"timed", Config{Workers: 2, Durations: Weights{"d.ad": 9000, "a.ad": 8000}}, false},
		{"estimated", Config{Workers: 2}, false}, // d has the most steps, then a
		{"file order", Config{Workers: 2, Order: OrderFile}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			w.barrier = &barrier{need: 2, ch: make(chan struct{})}
			var mu sync.Mutex
			var started []string
			w.onStart = func(file string) {
				mu.Lock()
				defer mu.Unlock()
				started = append(started, file)
			}
			tc.cfg.Grace = 50e6
			res, _, _ := runSuite(t, w, map[string]string{
				"a.ad": "context platform=web timeout=5000\nbarrier\nok\n",
				"b.ad": "context platform=web\nok\n",
				"c.ad": "context platform=web\nok\n",
				"d.ad": "context platform=web timeout=5000\nbarrier\nok\nok\nok\n",
			}, tc.cfg, DiscoverOptions{})
			if got, want := statuses(res), "a.ad=passed/1 b.ad=passed/1 c.ad=passed/1 d.ad=passed/1"; got != want {
				t.Fatalf("got  %s\nwant %s", got, want)
			}
			at := func(f string) int { return slices.Index(started, f) }
			if tc.file {
				if at("d.ad") < at("b.ad") || at("d.ad") < at("c.ad") {
					t.Errorf("file order: started %v, want d after b and c", started)
				}
				return
			}
			first := slices.Clone(started[:2])
			slices.Sort(first)
			if !slices.Equal(first, []string{"a.ad", "d.ad"}) {
				t.Errorf("first two started %v (all: %v), want a.ad and d.ad", first, started)
			}
		})
	}
}

func TestLastRunDurations(t *testing.T) {
	res := &runner.Result{Tests: []runner.TestResult{
		{File: "a.ad", Status: runner.StatusPassed, DurationMs: 300, Attempts: []runner.AttemptResult{{}}},
		// --repeat-each: the mean of the file's runs
		{File: "b.ad", Status: runner.StatusPassed, DurationMs: 100, Attempts: []runner.AttemptResult{{}}},
		{File: "b.ad", Status: runner.StatusFailed, DurationMs: 200, Attempts: []runner.AttemptResult{{}}},
		{File: "c.ad", Status: runner.StatusSkipped},
		{File: "d.ad", Status: runner.StatusNotRun},
	}}
	lr := NewLastRun(res, "r1")
	if got, want := fmt.Sprint(lr.Durations), "map[a.ad:300 b.ad:150]"; got != want {
		t.Errorf("durations %s, want %s", got, want)
	}
	prev := &LastRun{Durations: Weights{"a.ad": 999, "e.ad": 40, "gone.ad": 70}}
	KeepDurations(&lr, prev, func(f string) bool { return f != "gone.ad" })
	if got, want := fmt.Sprint(lr.Durations), "map[a.ad:300 b.ad:150 e.ad:40]"; got != want {
		t.Errorf("kept durations %s, want %s", got, want)
	}
}
