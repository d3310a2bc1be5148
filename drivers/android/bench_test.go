package android_test

import (
	"testing"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/drivers/android"
	"github.com/adtest/adtest/internal/testsupport/fakedevice"
)

// BenchmarkSnapshot: a snapshot through the persistent helper session
// against the helper's one-shot instrumentation, side by side on the fake
// device behind the real adb server (host-side cost).
func BenchmarkSnapshot(b *testing.B) {
	for _, mode := range []struct {
		name string
		opts android.Options
	}{{"persistent", android.Options{}}, {"one-shot", android.Options{NoSession: true}}} {
		b.Run(mode.name, func(b *testing.B) {
			r := newRig(b, fakedevice.Options{HelperInstalled: true}, mode.opts)
			ctx := tctx(b)
			if err := r.s.Open(ctx, drivers.OpenRequest{Target: "adtest://catalog"}); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := r.s.Snapshot(ctx, drivers.SnapshotOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRefToTap: from a fresh snapshot to a settled tap on a node of it
// (what `snapshot -i` then `click @eN` costs). The taps alternate between
// two fields, so each one changes the screen (the focus moves).
func BenchmarkRefToTap(b *testing.B) {
	r := newRig(b, fakedevice.Options{HelperInstalled: true}, android.Options{})
	ctx := tctx(b)
	if err := r.s.Open(ctx, drivers.OpenRequest{Target: "com.adtest.demo"}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		snap, err := r.s.Snapshot(ctx, drivers.SnapshotOptions{})
		if err != nil {
			b.Fatal(err)
		}
		n := find(b, snap, []string{"Email", "Password"}[i%2])
		if err := r.s.Act(ctx, drivers.Action{Kind: drivers.ActTap, Target: &drivers.Target{Node: n, Point: n.Rect.Center()}}); err != nil {
			b.Fatal(err)
		}
	}
}
