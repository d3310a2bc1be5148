package trace

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/drivers/fake"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner"
)

// traceScreens is a login that leads home, where a button shows late.
const traceScreens = `
open demo -> login
screen login "Sign in"
  heading "Welcome"
  textbox "Email" id=email editable
  button "Sign in" id=signin -> goto home
screen home "Home"
  text "Signed in"
  button "Late" id=late after=1s
`

// steps parses a script of steps.
func steps(t *testing.T, src string) *lang.Script {
	t.Helper()
	s, err := lang.Parse("flow.ad", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// readTrace closes tr and reads its trace.json back.
func readTrace(t *testing.T, tr *Trace) Data {
	t.Helper()
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(tr.Dir(), File))
	if err != nil {
		t.Fatal(err)
	}
	var d Data
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestTraceFakeDevice: a replay on the fake device gives a picture before
// the first step (it does not open the app) and after each, each step's before being the previous
// step's after; the ref step's target is marked in its tree; the secret
// typed by fill appears in no file of the trace; the fake device's
// operations are unchanged by the trace (its pictures are no screenshots).
func TestTraceFakeDevice(t *testing.T) {
	sc, err := fake.ParseScreens("screens.txt", traceScreens)
	if err != nil {
		t.Fatal(err)
	}
	const secret = "hunter2-pw"
	dev := fake.New(sc, fake.Options{})
	tr, err := New(filepath.Join(t.TempDir(), "trace"), drivers.NewMasker([]string{secret}), Info{File: "flow.ad", Attempt: 1})
	if err != nil {
		t.Fatal(err)
	}
	sess := runner.NewSession(dev, runner.SessionConfig{Seed: 41, ArtifactsDir: t.TempDir(), Hooks: []runner.StepHook{tr}, ReadinessTimeout: 50 * time.Millisecond, WaitTimeout: 50 * time.Millisecond})
	script := steps(t, "snapshot -i\nopen demo\nsnapshot -i\nfill @e1 ${PASSWORD}\nclick id=signin\nclick id=nope\n")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	scope := &lang.Scope{Process: map[string]string{"PASSWORD": secret}}
	res := sess.Replay(ctx, script, runner.ReplayOptions{Scope: scope, Secrets: []string{secret}, StepTimeout: 2 * time.Second})
	if res.Status != runner.StatusFailed {
		t.Fatalf("status %s, want failed at step 5", res.Status)
	}
	d := readTrace(t, tr)
	if d.Start != "start.jpg" || len(d.Steps) != 6 {
		t.Fatalf("start %q, %d steps; want start.jpg and 6 steps (warnings %v)", d.Start, len(d.Steps), d.Warnings)
	}
	prev := d.Start
	for _, st := range d.Steps {
		if st.Before != prev || st.After == "" {
			t.Errorf("step %d: before %q after %q, want before %q and a picture after", st.Step, st.Before, st.After, prev)
		}
		prev = st.After
	}
	for _, f := range []string{d.Start, d.Steps[0].After} {
		b, err := os.ReadFile(filepath.Join(tr.Dir(), f))
		if err != nil || !bytes.HasPrefix(b, []byte{0xff, 0xd8}) {
			t.Errorf("%s: not a JPEG (%v)", f, err)
		}
	}
	fill := d.Steps[3]
	if fill.Target == nil || fill.Target.Kind != "ref" || fill.Target.Tree < 0 || fill.Target.Rect == nil {
		t.Fatalf("fill target = %+v, want a ref in a tree", fill.Target)
	}
	if n := d.Trees[fill.Target.Tree][fill.Target.Node]; n.ID != "email" {
		t.Errorf("fill target node = %+v, want the email box", n)
	}
	if c := d.Steps[4].Target; c == nil || c.Kind != "selector" || c.Point.X == 0 {
		t.Errorf("click target = %+v, want a selector with its point", c)
	}
	if last := d.Steps[5]; last.Status != runner.StatusFailed || last.Error == nil {
		t.Errorf("last step = %+v, want failed with its error", last)
	}
	if !strings.Contains(d.Steps[3].Action, "<var:PASSWORD>") {
		t.Errorf("fill action = %q, want the variable masked", d.Steps[3].Action)
	}
	if len(d.Steps[3].Events) == 0 {
		t.Errorf("fill step has no device events")
	}
	grepTrace(t, tr.Dir(), secret)
	if n := dev.Count("screenshot"); n != 0 {
		t.Errorf("the trace took %d screenshots through the driver, want its own pictures only", n)
	}
}

// grepTrace fails when any file below dir holds secret.
func grepTrace(t *testing.T, dir, secret string) {
	t.Helper()
	n := 0
	filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		n++
		b, _ := os.ReadFile(p)
		if bytes.Contains(b, []byte(secret)) {
			t.Errorf("%s holds the secret", p)
		}
		return nil
	})
	if n < 2 {
		t.Errorf("the trace has %d files", n)
	}
}

func TestModes(t *testing.T) {
	for _, c := range []struct {
		mode          Mode
		attempt       int
		passed        bool
		records, keep bool
	}{
		{Off, 1, false, false, false},
		{On, 1, true, true, true},
		{On, 2, false, true, true},
		{RetainOnFailure, 1, true, true, false},
		{RetainOnFailure, 1, false, true, true},
		{OnFirstRetry, 1, false, false, false},
		{OnFirstRetry, 2, true, true, true},
		{OnFirstRetry, 3, false, false, false},
		{"", 1, false, false, false},
	} {
		if r, k := c.mode.Records(c.attempt), c.mode.Keeps(c.attempt, c.passed); r != c.records || k != c.keep {
			t.Errorf("%q attempt %d passed %v: records %v keeps %v, want %v %v", c.mode, c.attempt, c.passed, r, k, c.records, c.keep)
		}
	}
	for _, m := range Modes {
		if got, err := ParseMode(string(m)); err != nil || got != m {
			t.Errorf("ParseMode(%q) = %q, %v", m, got, err)
		}
	}
	if _, err := ParseMode("always"); err == nil || !strings.Contains(err.Error(), "retain-on-failure") {
		t.Errorf("ParseMode(always) = %v, want an error naming the modes", err)
	}
}

// TestTraceWaitAtOnce: a wait that finds what it waits for at its first
// look shares the picture it began on (no time passed for the screen to
// change); one that polled until the screen changed gets its own.
func TestTraceWaitAtOnce(t *testing.T) {
	sc, err := fake.ParseScreens("screens.txt", traceScreens)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := New(filepath.Join(t.TempDir(), "trace"), drivers.NewMasker(nil), Info{File: "flow.ad", Attempt: 1})
	if err != nil {
		t.Fatal(err)
	}
	sess := runner.NewSession(fake.New(sc, fake.Options{}), runner.SessionConfig{Seed: 41, ArtifactsDir: t.TempDir(), Hooks: []runner.StepHook{tr}, PollInterval: 50 * time.Millisecond})
	script := steps(t, "open demo\nwait text \"Welcome\" 1000\nclick id=signin\nwait id=late 5000\n")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if res := sess.Replay(ctx, script, runner.ReplayOptions{StepTimeout: 10 * time.Second}); res.Status != runner.StatusPassed {
		t.Fatalf("status %s %+v, want passed", res.Status, res.Error)
	}
	d := readTrace(t, tr)
	if len(d.Steps) != 4 {
		t.Fatalf("%d steps, want 4 (warnings %v)", len(d.Steps), d.Warnings)
	}
	if w := d.Steps[1]; w.After == "" || w.After != w.Before {
		t.Errorf("wait found at once: before %q after %q, want the picture it began on", w.Before, w.After)
	}
	if w := d.Steps[3]; w.After == "" || w.After == w.Before {
		t.Errorf("wait that polled: before %q after %q, want a picture of its own", w.Before, w.After)
	}
}
