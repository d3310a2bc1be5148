package runner

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/runner/internal/frame"
)

// BenchmarkStepOverhead measures the per-step cost of Replay on the fake
// driver: interpolation, events, dispatch, the seam and the driver call.
// Reported as ns/step over a 100-step script.
func BenchmarkStepOverhead(b *testing.B) {
	for _, tc := range []struct{ name, step string }{
		{"tap-point", "click 10 70"},
		{"wait-sleep", "wait 0"},
		{"tap-selector", `click id=help`},
	} {
		b.Run(tc.name, func(b *testing.B) {
			e := newEnv(b, loginScreens)
			e.must(b, "open demo")
			const steps = 100
			script := parseScript(b, strings.Repeat(tc.step+"\n", steps))
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				e.dev.ResetOps() // keep the fake's op log from growing across iterations
				if res := e.sess.Replay(ctx, script, ReplayOptions{}); res.Status != StatusPassed {
					b.Fatal(res.Error)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*steps), "ns/step")
		})
	}
}

// BenchmarkActivateFrame10k activates a complete frame over a capture of
// 100 and of 10,000 nodes: allocations must not depend on the tree size
// (the frame shares the capture, it copies nothing).
func BenchmarkActivateFrame10k(b *testing.B) {
	for _, n := range []int{100, 10000} {
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
			obs := newObservation(bigSnapshot(n), drivers.SnapshotOptions{})
			s := &Session{frame: frame.NewLifetime(1)}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s.frame = s.frame.ActivateComplete(obs)
				s.frame = s.frame.Expire()
			}
		})
	}
}
