package runner

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers/fake"
	"github.com/adtest/adtest/lang"
)

// testClock is a deterministic clock: After advances time by d and fires at
// once, so polls and sleeps run instantly and in order.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func newTestClock() *testClock { return &testClock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)} }

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	c.now = c.now.Add(d)
	t := c.now
	c.mu.Unlock()
	ch := make(chan time.Time, 1)
	ch <- t
	return ch
}

const loginScreens = `
open demo -> login
screen login "Sign in"
  heading "Welcome"
  textbox "Email" id=email editable
  button "Sign in" id=signin -> goto home
  button "Help" id=help -> alert "Call us"
screen home "Home"
  text "Signed in"
  button "Settings" id=settings -> goto settings
  button "Log out" id=logout -> goto login
  button "Late" id=late after=1s
screen settings
  group "Account"
    button "Profile" id=profile
    switch "Dark mode" id=dark
  button "Back" -> goto home
`

type env struct {
	dev   *fake.Device
	sess  *Session
	clock *testClock
}

func newEnv(t testing.TB, screens string) *env {
	t.Helper()
	sc, err := fake.ParseScreens("screens.txt", screens)
	if err != nil {
		t.Fatal(err)
	}
	clock := newTestClock()
	dev := fake.New(sc, fake.Options{Clock: clock})
	sess := NewSession(dev, SessionConfig{Clock: clock, Seed: 41, ArtifactsDir: t.TempDir()})
	return &env{dev: dev, sess: sess, clock: clock}
}

func parseScript(t testing.TB, src string) *lang.Script {
	t.Helper()
	s, err := lang.Parse("flow.ad", []byte(src))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return s
}

// run dispatches one script line on the session.
func (e *env) run(t testing.TB, line string) (*Output, *ErrorInfo) {
	t.Helper()
	if strings.Contains(line, "~s") {
		// Script parsing strips pins (spec §3.3); interactive input keeps them.
		f := strings.Fields(line)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return e.sess.Dispatch(ctx, &lang.Action{Command: f[0], Positionals: f[1:]})
	}
	s := parseScript(t, line+"\n")
	if len(s.Actions) != 1 {
		t.Fatalf("%q: want one action, got %d", line, len(s.Actions))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return e.sess.Dispatch(ctx, s.Actions[0])
}

// must dispatches a line that has to succeed.
func (e *env) must(t testing.TB, line string) *Output {
	t.Helper()
	out, err := e.run(t, line)
	if err != nil {
		t.Fatalf("%s: %s (%s)", line, err.Message, err.Reason)
	}
	return out
}

// expect dispatches line as one case of a dispatch table: with reason set it
// must fail with that reason, otherwise succeed with text containing want.
func (e *env) expect(t testing.TB, line, want, reason string) {
	t.Helper()
	out, err := e.run(t, line)
	if reason != "" {
		if err == nil || string(err.Reason) != reason {
			t.Fatalf("got %+v", err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.Text, want) {
		t.Fatalf("text %q, want %q", out.Text, want)
	}
}

func (e *env) replay(t testing.TB, src string) AttemptResult {
	t.Helper()
	return e.sess.Replay(context.Background(), parseScript(t, src), ReplayOptions{})
}
