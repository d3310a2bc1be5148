package runner

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
)

// journal keeps the entries and, for each, the frame's tree at record time.
type journal struct {
	s       *Session
	entries []JournalEntry
	frames  []*drivers.Snapshot
}

func (j *journal) Record(e JournalEntry) {
	j.entries = append(j.entries, e)
	var tree *drivers.Snapshot
	if ev := j.s.frame.Evidence(); ev != nil {
		tree = ev.Snap
	}
	j.frames = append(j.frames, tree)
}

func journalEnv(t *testing.T) (*env, *journal) {
	t.Helper()
	e := newEnv(t, loginScreens)
	j := &journal{s: e.sess}
	e.sess.hooks = append(e.sess.hooks, JournalHook(j))
	return e, j
}

// The journal shows what each step touched: a ref step's node in the tree
// that authorised the ref (the frame's tree), a selector step's node in the
// capture it was resolved in, the epochs around each step and its effect.
func TestJournalResolvedNodeAndTree(t *testing.T) {
	t.Parallel()
	e, j := journalEnv(t)
	scope := &lang.Scope{CLI: map[string]string{"EMAIL": "ada@example.com"}}
	script := parseScript(t, "open demo\nsnapshot -i\nfill id=email ${EMAIL}\nsnapshot -i\nis visible id=signin\nclick @e2 \"Sign in\"\n")
	res := e.sess.Replay(context.Background(), script, ReplayOptions{Scope: scope})
	if res.Status != StatusPassed {
		t.Fatalf("%s: %+v", res.Status, res.Error)
	}
	if len(j.entries) != 6 {
		t.Fatalf("%d entries, want 6", len(j.entries))
	}
	var got []string
	for _, en := range j.entries {
		got = append(got, fmt.Sprintf("%d line %d %s %s %d->%d", en.Step, en.Line, en.Effect, en.Text, en.EpochBefore, en.EpochAfter))
	}
	g := j.entries[0].EpochBefore
	want := []string{
		fmt.Sprintf(`1 line 1 mutation open "demo" %d->%d`, g, g),
		fmt.Sprintf(`2 line 2 snapshot snapshot -i %d->%d`, g, g+1),
		fmt.Sprintf(`3 line 3 mutation fill "id=email" "<var:EMAIL>" %d->%d`, g+1, g+2),
		fmt.Sprintf(`4 line 4 snapshot snapshot -i %d->%d`, g+2, g+3),
		fmt.Sprintf(`5 line 5 read is visible "id=signin" %d->%d`, g+3, g+3),
		fmt.Sprintf(`6 line 6 mutation click @e2 "Sign in" %d->%d`, g+3, g+4),
	}
	for i := range want {
		if i >= len(got) || got[i] != want[i] {
			t.Fatalf("entries\n%q\nwant\n%q", got, want)
		}
	}

	// The selector step: bound after interpolation, resolved in its capture.
	sel := j.entries[2]
	if sel.Written.Positionals[1] != "${EMAIL}" || sel.Bound.Positionals[1] != "ada@example.com" {
		t.Fatalf("written %q bound %q", sel.Written.Positionals, sel.Bound.Positionals)
	}
	r := sel.Resolution
	if r == nil || r.Kind != "selector" || r.Selector != "id=email" || r.Ref != "" || r.Tree == nil {
		t.Fatalf("selector resolution %+v", r)
	}
	if r.Node != &r.Tree.Nodes[r.Index] || r.Node.ID != "email" || r.Node.Role != "textbox" || r.Point != r.Node.Rect.Center() {
		t.Fatalf("selector node %+v at %d", r.Node, r.Index)
	}

	// The ref step: the node of @e2 in the frame's own tree (the tree the
	// snapshot of step 4 published), not in the later capture of step 5.
	ref := j.entries[5]
	r = ref.Resolution
	if r == nil || r.Kind != "ref" || r.Ref != "@e2" || r.Selector != "" {
		t.Fatalf("ref resolution %+v", r)
	}
	if r.Tree != j.frames[3] {
		t.Fatalf("ref resolved in %p, want the frame's tree %p", r.Tree, j.frames[3])
	}
	if r.Node != &r.Tree.Nodes[r.Index] || r.Node.Label != "Sign in" || r.Node.ID != "signin" {
		t.Fatalf("ref node %+v at %d", r.Node, r.Index)
	}
	if ref.Output == nil || ref.Output.Text != `Tapped @e2 "Sign in"` || ref.Error != nil {
		t.Fatalf("output %+v error %+v", ref.Output, ref.Error)
	}

	// The assertion of step 5 resolved its selector in a capture of its own,
	// which is not the tree that authorised @e2.
	if r := j.entries[4].Resolution; r == nil || r.Kind != "selector" || r.Selector != "id=signin" || r.Tree == nil || r.Tree == ref.Resolution.Tree || r.Node.ID != "signin" {
		t.Fatalf("is resolution %+v", r)
	}
	// Steps without a target carry no resolution.
	for _, i := range []int{0, 1, 3} {
		if j.entries[i].Resolution != nil {
			t.Fatalf("step %d: resolution %+v", i+1, j.entries[i].Resolution)
		}
	}
	// The JSON result lists each step's action, variable values masked.
	if a := res.Steps[2].Action; a != `fill "id=email" "<var:EMAIL>"` {
		t.Fatalf("step action %q", a)
	}
}

// Step is the interactive path: a command line keeps its pin, is admitted
// against the frame, and a failed step is the step's own error (no
// divergence wrapping), journalled with the epoch unchanged.
func TestStepInteractive(t *testing.T) {
	t.Parallel()
	e, j := journalEnv(t)
	ctx := context.Background()
	step := func(cmd string, argv ...string) (*Output, *ErrorInfo) {
		t.Helper()
		a, err := lang.ActionFromArgv(cmd, argv, lang.ArgvOptions{KeepPins: true})
		if err != nil {
			t.Fatal(err)
		}
		return e.sess.Step(ctx, a, StepOptions{})
	}
	if _, err := step("open", "demo"); err != nil {
		t.Fatal(err)
	}
	if _, err := step("snapshot", "-i"); err != nil {
		t.Fatal(err)
	}
	gen := e.sess.RefsGeneration()
	_, err := step("click", fmt.Sprintf("@e2~s%d", gen-1))
	if err == nil || err.Code != CodeCommandFailed || err.Reason != "ref_generation_mismatch" {
		t.Fatalf("stale pin: %+v", err)
	}
	last := j.entries[len(j.entries)-1]
	if last.Error != err || last.EpochBefore != gen || last.EpochAfter != gen || last.Resolution != nil {
		t.Fatalf("rejected step journalled as %+v", last)
	}
	out, err := step("click", fmt.Sprintf("@e2~s%d", gen))
	if err != nil || out.Text != `Tapped @e2 "Sign in"` {
		t.Fatalf("current pin: %+v %+v", out, err)
	}
	if last := j.entries[len(j.entries)-1]; last.Text != fmt.Sprintf("click @e2~s%d", gen) || last.Resolution.Ref != "@e2" {
		t.Fatalf("journal %+v", last)
	}
}

// The runner binds a step's arguments after interpolation (lang.Bind, the
// one reader of positionals): the step acts on the interpolated target, and
// neither check nor the runner writes anything into the shared script.
func TestStepBindsAfterInterpolation(t *testing.T) {
	t.Parallel()
	e := newEnv(t, loginScreens)
	e.must(t, "open demo")
	const src = "click id=${BUTTON}\nfill id=email ${EMAIL}\n"
	s, pristine := parseScript(t, src), parseScript(t, src)
	lang.Check(s, src, lang.CheckOptions{Vars: map[string]string{"BUTTON": "x", "EMAIL": "x"}})
	scope := &lang.Scope{CLI: map[string]string{"BUTTON": "signin", "EMAIL": "ada@example.com"}}
	out, err := e.sess.Step(context.Background(), s.Actions[0], StepOptions{Scope: scope})
	if err != nil || out.Text != "Tapped id=signin" || e.dev.Screen() != "home" {
		t.Fatalf("%+v %+v on %s", out, err, e.dev.Screen())
	}
	e.must(t, "click id=logout")
	if _, err := e.sess.Step(context.Background(), s.Actions[1], StepOptions{Scope: scope}); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s, pristine) {
		t.Fatal("check or the runner wrote into the shared script")
	}
}

// One record per step: the journal's entry is the step, and the step event
// and the JSON step result are read off it, never assembled apart. A
// replay's finished events and its steps are exactly the journal's entries
// derived (the failing step's event carries the divergence, which wraps the
// step's own error after the journal heard it).
func TestStepRecordDerivesEventAndResult(t *testing.T) {
	t.Parallel()
	e, j := journalEnv(t)
	obs := &recEvents{}
	script := parseScript(t, "open demo\nfill id=email ada@example.com\nclick id=help\nclick id=nope\n")
	res := e.sess.Replay(context.Background(), script, ReplayOptions{Observer: obs})
	if res.Status != StatusFailed || len(j.entries) != 4 || len(res.Steps) != 4 || len(obs.finished) != 4 {
		t.Fatalf("status %s, %d entries, %d steps, %d events", res.Status, len(j.entries), len(res.Steps), len(obs.finished))
	}
	for i, rec := range j.entries {
		if got, want := res.Steps[i], rec.Result(); got != want {
			t.Errorf("step %d: result %+v, the record's %+v", i+1, got, want)
		}
		want := rec.Event()
		if i == 3 {
			if obs.finished[i].Error == nil || obs.finished[i].Error.Code != CodeReplayDivergence || want.Error == nil {
				t.Fatalf("step 4: event error %+v, record error %+v", obs.finished[i].Error, want.Error)
			}
			want.Error = obs.finished[i].Error
		}
		if got := obs.finished[i]; !reflect.DeepEqual(got, want) {
			t.Errorf("step %d: event %+v, the record's %+v", i+1, got, want)
		}
		if got := obs.started[i]; got.Step != rec.Step || got.Status != "" || got.Time != rec.Start || got.Command != rec.Written.Command {
			t.Errorf("step %d: start event %+v, record %+v", i+1, got, rec)
		}
	}
}

type recEvents struct {
	StepsOnly
	started, finished []StepEvent
}

func (r *recEvents) StepStarted(ev StepEvent)  { r.started = append(r.started, ev) }
func (r *recEvents) StepFinished(ev StepEvent) { r.finished = append(r.finished, ev) }
