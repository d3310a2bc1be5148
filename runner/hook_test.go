package runner

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// callLog is a step hook that writes down every call it hears.
type callLog struct {
	name  string
	calls *[]string
}

func (h callLog) add(format string, args ...any) {
	*h.calls = append(*h.calls, h.name+" "+fmt.Sprintf(format, args...))
}

func (h callLog) BeginStep(_ context.Context, st *HookStep) {
	h.add("begin %d %s", st.Record.Step, st.Record.Status)
}
func (h callLog) BeforeMutation(st *HookStep) { h.add("seam %d", st.Record.Step) }
func (h callLog) Acted(st *HookStep, a ActTiming) {
	h.add("acted %d", st.Record.Step)
}
func (h callLog) EndStep(_ context.Context, st *HookStep) {
	h.add("end %d %s events=%v", st.Record.Step, st.Record.Status, len(st.Record.Events) > 0)
}

// TestStepHookOrder: the session calls its hooks and then the replay's
// around every step, BeginStep in order and EndStep in reverse; a skipped
// step is begun and ended without running; the hooks hear the seam and
// each device action, and the step's end carries the driver's events,
// drained by the session.
func TestStepHookOrder(t *testing.T) {
	e := newEnv(t, loginScreens)
	e.must(t, "open demo")
	var calls []string
	e.sess.AddHook(callLog{"a", &calls})
	e.dev.StartEvents()
	script := parseScript(t, "snapshot -i\nclick id=signin\n")
	res := e.sess.Replay(context.Background(), script, ReplayOptions{From: 2, Hooks: []StepHook{callLog{"b", &calls}}})
	if res.Status != StatusPassed {
		t.Fatalf("status %s: %+v", res.Status, res.Error)
	}
	want := []string{
		"a begin 1 skipped", "b begin 1 skipped", "b end 1 skipped events=false", "a end 1 skipped events=false",
		"a begin 2 ", "b begin 2 ", "a seam 2", "b seam 2", "a acted 2", "b acted 2",
		"b end 2 passed events=true", "a end 2 passed events=true",
	}
	if got := strings.Join(calls, "\n"); got != strings.Join(want, "\n") {
		t.Errorf("hook calls\ngot:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
	calls = nil
	e.sess.RemoveHook(callLog{"a", &calls})
	if _, ei := e.sess.Step(context.Background(), parseScript(t, "snapshot -i\n").Actions[0], StepOptions{}); ei != nil {
		t.Fatal(ei)
	}
	if len(calls) != 0 {
		t.Errorf("a removed hook heard %q", calls)
	}
}

// eventLog is a step hook that keeps the number of device events each
// step ended with.
type eventLog struct {
	NoStepHook
	n *[]int
}

func (h eventLog) EndStep(_ context.Context, st *HookStep) {
	*h.n = append(*h.n, len(st.Record.Events))
}

// TestDivergenceEventsCarried: the device events of a failed step end it
// (the trace's), those of the divergence's capture after it are not the
// step's: they go to the next step.
func TestDivergenceEventsCarried(t *testing.T) {
	e := newEnv(t, loginScreens)
	e.must(t, "open demo")
	var n []int
	e.sess.AddHook(eventLog{n: &n})
	e.dev.StartEvents()
	before := len(e.dev.Ops())
	res := e.sess.Replay(context.Background(), parseScript(t, "click id=nope\n"), ReplayOptions{})
	if res.Error == nil || res.Error.Code != CodeReplayDivergence || len(n) != 1 {
		t.Fatalf("replay: %+v, %d steps ended", res.Error, len(n))
	}
	during := len(e.dev.Ops()) - before
	if _, ei := e.sess.Step(context.Background(), parseScript(t, "wait 0\n").Actions[0], StepOptions{}); ei != nil {
		t.Fatal(ei)
	}
	if len(n) != 2 || n[0] == 0 || n[1] == 0 || n[0]+n[1] != during {
		t.Errorf("events: failed step %v, next step %v; the replay made %d operations, want them split between the two", n[0], n[1:], during)
	}
}
