package android_test

import (
	"strings"
	"testing"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/drivers/android"
	"github.com/adtest/adtest/internal/testsupport/fakedevice"
)

// TestTraceEventsAreLogcatSinceTheLastDrain: a traced session reports the
// logcat lines each step wrote, once each, with logcat's level; nothing
// before StartEvents (the helper's own events come from the start).
func TestTraceEventsAreLogcatSinceTheLastDrain(t *testing.T) {
	r := newRig(t, fakedevice.Options{HelperInstalled: true}, android.Options{})
	ctx := tctx(t)
	if err := r.s.Open(ctx, drivers.OpenRequest{Target: "com.adtest.demo"}); err != nil {
		t.Fatal(err)
	}
	var src drivers.EventSource = r.s
	for _, e := range src.DrainEvents() {
		if !e.Source.OwnMachinery() {
			t.Fatalf("a device event before StartEvents: %+v", e)
		}
	}
	src.StartEvents()
	snap := r.snap(t, ctx)
	n := find(t, snap, "Sign in")
	if err := r.s.Act(ctx, drivers.Action{Kind: drivers.ActTap, Target: &drivers.Target{Node: n, Point: n.Rect.Center()}}); err != nil {
		t.Fatal(err)
	}
	first := src.DrainEvents()
	text := func(evs []drivers.Event) string {
		var b strings.Builder
		for _, e := range evs {
			if e.Source.OwnMachinery() {
				continue
			}
			if e.Kind != drivers.EventLog || e.Source != drivers.FromDevice {
				t.Errorf("kind %q", e.Kind)
			}
			b.WriteString(e.Level + " " + e.Text + "\n")
		}
		return b.String()
	}
	got := text(first)
	if !strings.Contains(got, "input tap") || !strings.HasPrefix(got, "info ") {
		t.Errorf("first drain:\n%s", got)
	}
	if strings.Contains(got, "am start") {
		t.Errorf("the drain holds a line from before StartEvents:\n%s", got)
	}
	if c := strings.Count(got, "input tap"); c != 1 {
		t.Errorf("first drain has %d taps:\n%s", c, got)
	}
	if err := r.s.Act(ctx, drivers.Action{Kind: drivers.ActTap, Target: &drivers.Target{Point: drivers.Point{X: 5, Y: 5}}}); err != nil {
		t.Fatal(err)
	}
	second := text(src.DrainEvents())
	if c := strings.Count(second, "input tap"); c != 1 || strings.Contains(second, got) {
		t.Errorf("second drain (%d taps):\n%s", c, second)
	}
}
