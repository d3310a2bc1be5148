package main

import (
	"testing"

	"github.com/adtest/adtest/runner/trace"
)

// TestRunFrameControl: a run's web pages have their frames drawn by their
// sessions only when it records every attempt; under the default, which
// records nothing on a green run, they keep the browser's own.
func TestRunFrameControl(t *testing.T) {
	for _, c := range []struct {
		mode trace.Mode
		want bool
	}{
		{defaultTrace, false},
		{trace.Off, false},
		{trace.OnFirstRetry, false},
		{trace.RetainOnFailure, true},
		{trace.On, true},
	} {
		if got := recordsFirstAttempts(c.mode); got != c.want {
			t.Errorf("recordsFirstAttempts(%q) = %v, want %v", c.mode, got, c.want)
		}
	}
	if defaultTrace != trace.OnFirstRetry {
		t.Errorf("the default trace mode is %q, want on-first-retry (a green run records nothing)", defaultTrace)
	}
}
