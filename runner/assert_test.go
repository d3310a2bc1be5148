package runner

import (
	"testing"
	"time"
)

// In a replay, `is` reads the screen until the state it asserts holds, as a
// test's assertion does (Playwright Test's expect, Maestro's assertVisible):
// the late button appears one second after the sign-in, within the window.
// An interactive `is` answers from one read, agent-device's semantics.
func TestIsWaitsForItsStateInAReplay(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		line    string
		assert  time.Duration // SessionConfig.AssertTimeout (0: the default)
		pass    bool
		elapsed time.Duration // on the session's clock, from the is step's start
		reason  string
	}{
		{`is visible id=late`, 0, true, time.Second, ""},
		{`is exists "label=Late"`, 0, true, time.Second, ""},
		{`is text id=late "Late"`, 0, true, time.Second, ""},
		{`is absent id=logout`, 0, false, DefaultAssertTimeout, "predicate_failed"},
		{`is visible id=never`, 0, false, DefaultAssertTimeout, "selector_not_found"},
		{`is text id=logout "Sign out"`, 0, false, DefaultAssertTimeout, "predicate_failed"},
		{`is visible id=late`, 1500 * time.Millisecond, true, time.Second, ""},
		{`is visible id=late`, 500 * time.Millisecond, false, 500 * time.Millisecond, "selector_not_found"},
		{`is visible id=late`, -1, false, 0, "selector_not_found"},
	} {
		t.Run(tc.line, func(t *testing.T) {
			e := newEnv(t, loginScreens)
			e.sess.cfg.AssertTimeout = tc.assert
			if tc.assert == 0 {
				e.sess.cfg.AssertTimeout = DefaultAssertTimeout
			}
			var isStart, isEnd time.Time
			obs := &stepTimes{clock: e.clock, start: &isStart, end: &isEnd, step: 3}
			res := e.sess.Replay(t.Context(), parseScript(t, "open demo\nclick id=signin\n"+tc.line+"\n"), ReplayOptions{Observer: obs})
			if tc.pass != (res.Status == StatusPassed) {
				t.Fatalf("status %s, error %+v", res.Status, res.Error)
			}
			if !tc.pass && (res.Error == nil || string(res.Error.Reason) != tc.reason) {
				t.Fatalf("want reason %s, got %+v", tc.reason, res.Error)
			}
			if got := isEnd.Sub(isStart); got != tc.elapsed {
				t.Fatalf("is took %v on the session's clock, want %v", got, tc.elapsed)
			}
		})
	}
	t.Run("interactive reads once", func(t *testing.T) {
		e := newEnv(t, loginScreens)
		e.must(t, "open demo")
		e.must(t, "click id=signin")
		start := e.clock.Now()
		if _, err := e.run(t, `is visible id=late`); err == nil || string(err.Reason) != "selector_not_found" {
			t.Fatalf("got %+v, want selector_not_found", err)
		}
		if got := e.clock.Now().Sub(start); got != 0 {
			t.Fatalf("an interactive is waited %v", got)
		}
	})
}

// stepTimes notes when one step of a replay starts and ends on clock.
type stepTimes struct {
	StepsOnly
	clock      *testClock
	start, end *time.Time
	step       int
}

func (o *stepTimes) StepStarted(ev StepEvent) {
	if ev.Step == o.step {
		*o.start = o.clock.Now()
	}
}

func (o *stepTimes) StepFinished(ev StepEvent) {
	if ev.Step == o.step {
		*o.end = o.clock.Now()
	}
}
