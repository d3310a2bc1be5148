package web

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers"
)

// TestConsoleFloodIsBounded: issue 36 bug 8. A page that logs 2,000 lines
// of 1 KB a task is cut at the source: a click takes a click's time (the
// session is not reading megabytes of console events), the first lines
// still arrive, and what was dropped is said in the log and the trace.
// Not parallel: the flood has the browser to itself.
func TestConsoleFloodIsBounded(t *testing.T) {
	s := session(t, "flood.html")
	s.StartEvents()
	ctx := testCtx(t)
	start := time.Now()
	if err := s.Act(ctx, tap(find(t, snap(t, s, drivers.SnapshotOptions{}), "button", "Go"))); err != nil {
		t.Fatal(err)
	}
	waitText(t, s, "out", "Clicked")
	t.Logf("snapshot and click on the flooding page: %s", time.Since(start))
	want := regexp.MustCompile(`^\d{1,3}(,\d{3})* console lines dropped \(the page logged more than 200 a second\)$`)
	var inLog, inTrace string
	passed := false
	deadline := time.Now().Add(15 * time.Second)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for (inLog == "" || inTrace == "" || !passed) && time.Now().Before(deadline) {
		for _, l := range s.LogTail(0) {
			if text, ok := strings.CutPrefix(l, "adtest: "); ok {
				inLog = text
			}
			passed = passed || strings.HasPrefix(l, "console.log: "+strings.Repeat("x", 1024)+" ")
		}
		for _, e := range s.DrainEvents() {
			if strings.Contains(e.Text, "dropped") {
				inTrace = e.Text
			}
		}
		<-tick.C
	}
	if !want.MatchString(inLog) {
		t.Errorf("the log says %q, want the number of console lines dropped", inLog)
	}
	if !want.MatchString(inTrace) {
		t.Errorf("the trace says %q, want the number of console lines dropped", inTrace)
	}
	if !passed {
		t.Error("no console line of the page reached the log: the budget passes the first ones on")
	}
}

// The trace's own bound between two drains is said too: the drain starts
// with how many events were cut.
func TestTraceEventsDroppedAreCounted(t *testing.T) {
	t.Parallel()
	s := &Session{}
	s.StartEvents()
	s.mu.Lock()
	for i := 0; i < traceEventLimit+1234; i++ {
		s.traceAdd(drivers.Event{Source: drivers.FromPage, Kind: drivers.EventConsole, Text: "line"})
	}
	s.mu.Unlock()
	evs := s.DrainEvents()
	if len(evs) != traceEventLimit+1 || evs[0].Text != "1,234 earlier events dropped (at most 500 are kept between two steps)" {
		t.Fatalf("%d events, the first %+v", len(evs), evs[0])
	}
	if evs := s.DrainEvents(); len(evs) != 0 {
		t.Fatalf("a second drain: %+v", evs)
	}
}

func TestThousands(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -1234: "-1,234"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
