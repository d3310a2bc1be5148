package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/adtest/adtest/lang"
)

// TestDoneWhen is issue 3's acceptance: snapshot -i -> click @e1 (navigates)
// -> click @e2 fails at step 3 with ref_frame_expired, and the device
// received exactly one tap.
func TestDoneWhen(t *testing.T) {
	t.Parallel()
	e := newEnv(t, loginScreens)
	res := e.replay(t, "open demo\nsnapshot -i\nclick @e2\nclick @e1\n")
	if res.Status != StatusFailed || res.Error == nil {
		t.Fatalf("status %s, error %v; want failed", res.Status, res.Error)
	}
	if res.Error.Step != 4 || res.Error.Reason != "ref_frame_expired" || res.Error.Code != CodeReplayDivergence {
		t.Fatalf("got step %d reason %q code %q", res.Error.Step, res.Error.Reason, res.Error.Code)
	}
	if got := e.dev.Count("tap"); got != 1 {
		t.Fatalf("taps = %d, want exactly 1", got)
	}
	want := "Replay failed at step 4 (click @e1): Ref @e1 belongs to an expired ref frame — a device action since the snapshot invalidated it"
	if res.Error.Message != want {
		t.Fatalf("message\n got %q\nwant %q", res.Error.Message, want)
	}
}

// TestDoneWhenExact is the literal script: snapshot -i, click @e1
// (navigates), click @e2 fails at step 3.
func TestDoneWhenExact(t *testing.T) {
	t.Parallel()
	e := newEnv(t, `
open * -> start
screen start
  link "Next" -> goto second
  button "Stay"
screen second
  button "Other"
`)
	e.must(t, "open app")
	res := e.replay(t, "snapshot -i\nclick @e1\nclick @e2\n")
	if res.Error == nil || res.Error.Step != 3 || res.Error.Reason != "ref_frame_expired" {
		t.Fatalf("got %+v", res.Error)
	}
	if got := e.dev.Count("tap"); got != 1 {
		t.Fatalf("taps = %d, want 1", got)
	}
	if e.dev.Screen() != "second" {
		t.Fatalf("screen %q, want second (the first click navigated)", e.dev.Screen())
	}
	if got := res.Error.Details["executed"]; got != 2 {
		t.Fatalf("executed = %v, want 2", got)
	}
	if !strings.HasPrefix(res.Error.Message, "Replay failed at step 3 (click @e2): Ref @e2 belongs to an expired ref frame") {
		t.Fatalf("message %q", res.Error.Message)
	}
}

type recObserver struct {
	StepsOnly
	events []string
}

func (o *recObserver) StepStarted(ev StepEvent) {
	o.events = append(o.events, fmt.Sprintf("start %d/%d line %d %s: %s", ev.Step, ev.Total, ev.Line, ev.Command, ev.Action))
}

func (o *recObserver) StepFinished(ev StepEvent) {
	s := fmt.Sprintf("end %d %s", ev.Step, ev.Status)
	if ev.Error != nil {
		s += " " + string(ev.Error.Reason)
	}
	o.events = append(o.events, s)
}

// Evidence 10: replay delegates per step — a snapshot step authorizes later
// bare refs of the same run; every mutation expires; failures keep the
// step/executed/total/partialResults contract and details.reason.
func TestEvidence10ReplayDelegates(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, script string
		failStep     int
		reason       string
	}{
		{"snapshot between mutations passes", "open demo\nsnapshot -i\nclick @e2\nsnapshot -i\nclick @e1\n", 0, ""},
		{"same ref twice fails at the second", "open demo\nsnapshot -i\nclick @e3\nclick @e3\n", 4, "ref_frame_expired"},
		{"selectors need no snapshot", "open demo\nfill id=email \"a@b.c\"\nclick id=signin\nclick label=Settings\n", 0, ""},
		{"replay lines are skipped", "open demo\nreplay other.ad\nsnapshot -i\nclick @e2\n", 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, loginScreens)
			res := e.replay(t, tc.script)
			if tc.failStep == 0 {
				if res.Status != StatusPassed {
					t.Fatalf("status %s: %+v", res.Status, res.Error)
				}
				return
			}
			if res.Error == nil || res.Error.Step != tc.failStep || string(res.Error.Reason) != tc.reason {
				t.Fatalf("got %+v", res.Error)
			}
			d := res.Error.Details
			if d["executed"] != tc.failStep-1 || d["total"] != strings.Count(tc.script, "\n") || d["reason"] != tc.reason {
				t.Fatalf("details %v", d)
			}
			if pr := d["partialResults"].([]map[string]any); len(pr) != tc.failStep-1 || pr[0]["command"] != "open" {
				t.Fatalf("partialResults %v", pr)
			}
		})
	}
	// The outer replay never expires a frame by itself.
	e := newEnv(t, loginScreens)
	e.must(t, "open demo")
	e.must(t, "snapshot -i")
	gen := e.sess.RefsGeneration()
	if res := e.replay(t, "wait 10\nget text @e2\nis exists id=email\n"); res.Status != StatusPassed {
		t.Fatalf("read-only replay failed: %+v", res.Error)
	}
	if !e.sess.frame.IsActive() || e.sess.RefsGeneration() != gen {
		t.Fatal("a read-only replay changed the frame")
	}
}

// A divergence publishes its screen as a partial frame: the pinned refs it
// lists are usable, plain refs are not.
func TestDivergenceReport(t *testing.T) {
	t.Parallel()
	e := newEnv(t, loginScreens)
	res := e.replay(t, "open demo\nclick label=\"Sign on\"\n")
	if res.Error == nil {
		t.Fatal("replay passed")
	}
	er := res.Error
	if er.Code != "REPLAY_DIVERGENCE" || er.Reason != "selector_not_found" || er.Step != 2 || er.Line != 2 || er.Command != "click" {
		t.Fatalf("error %+v", er)
	}
	want := `Replay failed at step 2 (click "label=\"Sign on\""): Selector did not match (label="Sign on" -> 0)`
	if er.Message != want {
		t.Fatalf("message\n got %s\nwant %s", er.Message, want)
	}
	div := er.Divergence()
	if div.Kind != "selector-miss" || div.Version != 1 {
		t.Fatalf("divergence %v", div)
	}
	screen := div.Screen
	gen := e.sess.RefsGeneration()
	if screen.State != "available" || screen.RefsGeneration != gen {
		t.Fatalf("screen %v (gen %d)", screen, gen)
	}
	refs := screen.Refs
	wantRefs := []string{fmt.Sprintf("@e1~s%d", gen), fmt.Sprintf("@e2~s%d", gen), fmt.Sprintf("@e3~s%d", gen)}
	var got []string
	for _, r := range refs {
		got = append(got, r.Ref)
	}
	if !reflect.DeepEqual(got, wantRefs) {
		t.Fatalf("screen refs %v, want %v", got, wantRefs)
	}
	sugg := div.Suggestions
	if len(sugg) == 0 || sugg[0].Selector != `id="signin"` || sugg[0].Basis != "id" {
		t.Fatalf("suggestions %v", sugg)
	}
	if _, err := e.run(t, "click @e2"); err == nil || err.Reason != "plain_ref_requires_complete_frame" {
		t.Fatalf("plain ref after divergence: %+v", err)
	}
	e.must(t, "click "+wantRefs[1])
}

func TestReplayVariablesAndRedaction(t *testing.T) {
	t.Parallel()
	e := newEnv(t, loginScreens)
	scope := &lang.Scope{CLI: map[string]string{"EMAIL": "ada@example.com", "BUTTON": "Sign up now"}}
	obs := &recObserver{}
	res := e.sess.Replay(context.Background(), parseScript(t, "open demo\nfill id=email ${EMAIL}\nclick \"label=\\\"${BUTTON}\\\"\"\n"), ReplayOptions{Scope: scope, Observer: obs})
	if res.Error == nil {
		t.Fatal("passed")
	}
	if strings.Contains(res.Error.Message, "Sign up now") || !strings.Contains(res.Error.Message, "<var:BUTTON>") {
		t.Fatalf("message not redacted: %s", res.Error.Message)
	}
	b, _ := json.Marshal(res)
	if strings.Contains(string(b), "Sign up now") || strings.Contains(string(b), "ada@example.com") {
		t.Fatalf("a variable value leaked into the result: %s", b)
	}
	ops := e.dev.Ops()
	var filled string
	for _, o := range ops {
		if o.Kind == "fill" {
			filled = o.Text
		}
	}
	if filled != "ada@example.com" {
		t.Fatalf("fill typed %q, want the resolved value", filled)
	}
	want := []string{
		"start 1/3 line 1 open: open \"demo\"", "end 1 passed",
		"start 2/3 line 2 fill: fill \"id=email\" \"${EMAIL}\"", "end 2 passed",
		"start 3/3 line 3 click: click \"label=\\\"${BUTTON}\\\"\"", "end 3 failed selector_not_found",
	}
	if !reflect.DeepEqual(obs.events, want) {
		t.Fatalf("events\n%s\nwant\n%s", strings.Join(obs.events, "\n"), strings.Join(want, "\n"))
	}
}

func TestReplayUnresolvedVariable(t *testing.T) {
	t.Parallel()
	e := newEnv(t, loginScreens)
	res := e.replay(t, "open demo\nclick id=${MISSING}\n")
	if res.Error == nil || res.Error.Code != "INVALID_ARGS" || res.Error.Message != "Unresolved variable ${MISSING} at flow.ad:2." {
		t.Fatalf("got %+v", res.Error)
	}
	if e.dev.Count("open") != 1 || len(res.Steps) != 2 {
		t.Fatalf("earlier steps must have run: %v", res.Steps)
	}
}

func TestReplaySecretsMasked(t *testing.T) {
	t.Parallel()
	e := newEnv(t, loginScreens)
	res := e.sess.Replay(context.Background(), parseScript(t, "open demo\nwait text \"hunter2\" 100\n"), ReplayOptions{Secrets: []string{"hunter2"}})
	b, _ := json.Marshal(res)
	if res.Error == nil || strings.Contains(string(b), "hunter2") {
		t.Fatalf("secret leaked: %s", b)
	}
}

// click/press/longpress/fill wait up to ReadinessTimeout for a selector target.
func TestReadinessWait(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		readiness time.Duration
		reason    string
	}{
		{"appears within 2s", 2 * time.Second, ""},
		{"not within 500ms", 500 * time.Millisecond, "selector_not_found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, loginScreens)
			e.sess.cfg.ReadinessTimeout = tc.readiness
			start := e.clock.Now()
			res := e.replay(t, "open demo\nclick id=signin\nclick id=late\n")
			if tc.reason == "" {
				if res.Status != StatusPassed {
					t.Fatalf("%+v", res.Error)
				}
				if waited := e.clock.Now().Sub(start); waited < time.Second || waited > 2*time.Second {
					t.Fatalf("waited %v", waited)
				}
				return
			}
			if res.Error == nil || string(res.Error.Reason) != tc.reason {
				t.Fatalf("got %+v", res.Error)
			}
			rd := res.Error.Details["readiness"].(map[string]any)
			if rd["waitedMs"] != int64(500) || rd["end"] != "expired" || rd["polls"] != 6 {
				t.Fatalf("readiness %v", rd)
			}
			if e.dev.Count("tap") != 1 {
				t.Fatal("a missing target was tapped")
			}
		})
	}
}

func TestWaitForms(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		line    string
		elapsed time.Duration
		reason  string
	}{
		{"wait 1500", 1500 * time.Millisecond, ""},
		{`wait text "Signed in"`, 0, ""},
		{`wait id=late`, time.Second, ""},
		{`wait "label=Late" 400`, 400 * time.Millisecond, "wait_target_absent"},
		{`wait text "Never"`, 10 * time.Second, "wait_target_absent"},
		{`wait absent id=logout 300`, 300 * time.Millisecond, "wait_target_present"},
		{`wait stable 300 2000`, 300 * time.Millisecond, ""},
	} {
		t.Run(tc.line, func(t *testing.T) {
			e := newEnv(t, loginScreens)
			e.must(t, "open demo")
			e.must(t, "click id=signin")
			start := e.clock.Now()
			_, err := e.run(t, tc.line)
			if tc.reason == "" && err != nil {
				t.Fatalf("%s: %v", tc.line, err)
			}
			if tc.reason != "" && (err == nil || string(err.Reason) != tc.reason) {
				t.Fatalf("got %+v, want %s", err, tc.reason)
			}
			if got := e.clock.Now().Sub(start); got != tc.elapsed {
				t.Fatalf("elapsed %v, want %v", got, tc.elapsed)
			}
		})
	}
}

func TestIsPredicates(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		line string
		pass bool
	}{
		{`is exists id=email`, true},
		{`is visible id=email`, true},
		{`is editable id=email`, true},
		{`is editable id=signin`, false},
		{`is hidden id=nothing`, true},
		{`is absent id=nothing`, true},
		{`is absent id=email`, false},
		{`is text "label=\"Sign in\"" "sign  IN"`, true},
		{`is text id=signin Other`, false},
		{`is focused id=email`, false},
		{`is selected id=email`, false},
		{`id=email is exists`, false},
	} {
		t.Run(tc.line, func(t *testing.T) {
			e := newEnv(t, loginScreens)
			e.must(t, "open demo")
			_, err := e.run(t, tc.line)
			if tc.pass != (err == nil) {
				t.Fatalf("pass=%v err=%+v", tc.pass, err)
			}
			if err != nil && err.Reason != "predicate_failed" && err.Code != "INVALID_ARGS" {
				t.Fatalf("reason %q", err.Reason)
			}
		})
	}
}

// The context deadline ends a hanging step promptly as timedOut.
func TestReplayTimeout(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		cancel bool
		status Status
		reason string
	}{
		{"deadline", false, StatusTimedOut, "timeout"},
		{"cancel", true, StatusFailed, "cancelled"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, loginScreens)
			e.dev.HangOn("fill", 0)
			var ctx context.Context
			var cancel context.CancelFunc
			if tc.cancel {
				ctx, cancel = context.WithCancel(context.Background())
				go func() {
					for e.dev.Count("fill") == 0 {
						runtime.Gosched()
					}
					cancel()
				}()
			} else {
				ctx, cancel = context.WithTimeout(context.Background(), 30*time.Millisecond)
			}
			defer cancel()
			res := e.sess.Replay(ctx, parseScript(t, "open demo\nfill id=email x\nclick id=signin\n"), ReplayOptions{})
			if res.Status != tc.status || res.Error == nil || string(res.Error.Reason) != tc.reason || res.Error.Step != 2 {
				t.Fatalf("status %s error %+v", res.Status, res.Error)
			}
			if len(res.Steps) != 2 || e.dev.Count("tap") != 0 {
				t.Fatalf("steps %v taps %d", res.Steps, e.dev.Count("tap"))
			}
		})
	}
}

// An empty tree for the whole readiness wait is capture_sparse, not a miss.
func TestReadinessSparse(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "open * -> blank\nscreen blank\nscreen full\n  button \"A\" id=a\n")
	e.sess.cfg.ReadinessTimeout = 300 * time.Millisecond
	res := e.replay(t, "open x\nclick id=a\n")
	if res.Error == nil || res.Error.Reason != "capture_sparse" {
		t.Fatalf("got %+v", res.Error)
	}
	if rd := res.Error.Details["readiness"].(map[string]any); rd["end"] != "sparse" {
		t.Fatalf("readiness %v", rd)
	}
	if div := res.Error.Divergence(); div.Screen.State != "unavailable" {
		t.Fatalf("screen %v", div.Screen)
	}
}
