package daemon

import (
	"testing"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/runner"
)

// TestReplayTraceMode: a replay without --trace takes its session's
// platform's default, on-first-retry on both, which records nothing (a
// replay has no retry); --trace wins.
func TestReplayTraceMode(t *testing.T) {
	for _, c := range []struct {
		rr       ReplayRequest
		platform string
		want     runner.TraceMode
		records  bool
	}{
		{ReplayRequest{TraceDefault: true}, drivers.PlatformWeb, runner.TraceOnFirstRetry, false},
		{ReplayRequest{TraceDefault: true}, drivers.PlatformAndroid, runner.TraceOnFirstRetry, false},
		{ReplayRequest{Trace: "on"}, drivers.PlatformAndroid, runner.TraceOn, true},
		{ReplayRequest{Trace: "off"}, drivers.PlatformWeb, runner.TraceOff, false},
	} {
		got, err := replayTraceMode(&c.rr, c.platform)
		if err != nil || got != c.want || got.Records(1) != c.records {
			t.Errorf("%+v on %s: %q (records %v), %v; want %q (records %v)", c.rr, c.platform, got, got.Records(1), err, c.want, c.records)
		}
	}
}
