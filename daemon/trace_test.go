package daemon

import (
	"testing"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/runner/trace"
)

// TestReplayTraceMode: a replay without --trace takes its session's
// platform's default, on-first-retry on both, which records nothing (a
// replay has no retry); --trace wins.
func TestReplayTraceMode(t *testing.T) {
	for _, c := range []struct {
		rr       ReplayRequest
		platform string
		want     trace.Mode
		records  bool
	}{
		{ReplayRequest{TraceDefault: true}, drivers.PlatformWeb, trace.OnFirstRetry, false},
		{ReplayRequest{TraceDefault: true}, drivers.PlatformAndroid, trace.OnFirstRetry, false},
		{ReplayRequest{Trace: "on"}, drivers.PlatformAndroid, trace.On, true},
		{ReplayRequest{Trace: "off"}, drivers.PlatformWeb, trace.Off, false},
	} {
		p, err := replayTracePolicy(&c.rr)
		got := p.ModeOn(c.platform)
		if err != nil || got != c.want || got.Records(1) != c.records {
			t.Errorf("%+v on %s: %q (records %v), %v; want %q (records %v)", c.rr, c.platform, got, got.Records(1), err, c.want, c.records)
		}
	}
}
