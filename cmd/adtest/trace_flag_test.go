package main

import (
	"testing"

	"github.com/adtest/adtest/runner"
)

// TestRunFrameControl: a run's web pages have their frames drawn by their
// sessions only when it records every attempt; under the default, which
// records nothing on a green run, they keep the browser's own.
func TestRunFrameControl(t *testing.T) {
	for _, c := range []struct {
		mode runner.TraceMode
		want bool
	}{
		{defaultTrace, false},
		{runner.TraceOff, false},
		{runner.TraceOnFirstRetry, false},
		{runner.TraceRetainOnFailure, true},
		{runner.TraceOn, true},
	} {
		if got := recordsFirstAttempts(c.mode); got != c.want {
			t.Errorf("recordsFirstAttempts(%q) = %v, want %v", c.mode, got, c.want)
		}
	}
	if defaultTrace != runner.TraceOnFirstRetry {
		t.Errorf("the default trace mode is %q, want on-first-retry (a green run records nothing)", defaultTrace)
	}
}
