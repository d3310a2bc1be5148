package repair

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers/fake"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner"
)

// driftCase is one drift of an example app.
type driftCase struct {
	name   string
	script string // the script as a person wrote it (annotations are recorded)
	app    string // the app it was recorded against ("" = the rig's base app)
	drift  string // the changed app
	plain  bool   // keep the script unannotated
	want   string // repaired, refused or passes
	why    string // a words of the refusal
	hit    []string
}

// rig opens sessions on an app (fake screens, or web pages).
type rig interface {
	base() string
	// script fills the rig's own values into a corpus script.
	script(src string) string
	// open opens a fresh session on app; j (nil: none) hears its steps.
	open(t testing.TB, app string, j runner.Journal) *runner.Session
}

// stepClock advances on every wait, so polls run at once and in order.
type stepClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *stepClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *stepClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	c.now = c.now.Add(d)
	ch := make(chan time.Time, 1)
	ch <- c.now
	c.mu.Unlock()
	return ch
}

type fakeRig struct{}

func (fakeRig) base() string { return fakeApp }

func (fakeRig) script(src string) string { return src }

func (fakeRig) open(t testing.TB, app string, j runner.Journal) *runner.Session {
	t.Helper()
	sc, err := fake.ParseScreens("app.screens", app)
	if err != nil {
		t.Fatal(err)
	}
	clock := &stepClock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	return runner.NewSession(fake.New(sc, fake.Options{Clock: clock}), runner.SessionConfig{Clock: clock, Seed: 7, ArtifactsDir: t.TempDir(), Hooks: journalHooks(j)})
}

// journalHooks are the hooks of a session with journal j (none when nil).
func journalHooks(j runner.Journal) []runner.StepHook {
	if j == nil {
		return nil
	}
	return []runner.StepHook{runner.JournalHook(j)}
}

// journal keeps the step records of a replay.
type journal struct{ entries []runner.JournalEntry }

func (j *journal) Record(e runner.JournalEntry) { j.entries = append(j.entries, e) }

// scope is the script's variables, as the suite builds them.
func scope(s *lang.Script) *lang.Scope {
	sc := &lang.Scope{Script: map[string]string{}}
	for _, e := range s.Env {
		sc.Script[e.Key] = e.Value
	}
	return sc
}

// record replays src on the recorded app and annotates it from that green
// run, as `adtest annotate` does: each selector step gets the target-v1
// evidence the recorder writes.
func record(t testing.TB, r rig, app, src string) string {
	t.Helper()
	j := &journal{}
	sess := r.open(t, app, j)
	defer sess.Close(context.Background())
	script := parse(t, src)
	ro := runner.ReplayOptions{Scope: scope(script)}
	ar := sess.Replay(context.Background(), script, ro)
	if ar.Status != runner.StatusPassed {
		t.Fatalf("the script does not pass on the app it was recorded on: %s", failure(ar))
	}
	res := Annotate(script, []byte(src), "flows/flow.ad", ar, j.entries, ro)
	if res.Status != StatusAnnotated {
		t.Fatalf("annotate: %s %s", res.Status, res.Refusal)
	}
	return string(res.Source)
}

func parse(t testing.TB, src string) *lang.Script {
	t.Helper()
	s, err := lang.Parse("flows/flow.ad", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// outcome is what a corpus case did.
type outcome struct {
	status string
	res    *Result
	wrong  int
}

// runCase records, drifts, replays and repairs one case.
func runCase(t *testing.T, r rig, c driftCase) outcome {
	app := c.app
	if app == "" {
		app = r.base()
	}
	src := r.script(c.script)
	if !c.plain {
		src = record(t, r, app, src)
	}
	script := parse(t, src)
	ctx := context.Background()
	sess := r.open(t, c.drift, nil)
	defer sess.Close(ctx)
	ro := runner.ReplayOptions{Scope: scope(script)}
	ar := sess.Replay(ctx, script, ro)
	if ar.Status == runner.StatusPassed {
		return outcome{status: "passes"}
	}
	res := Repair(ctx, sess, script, []byte(src), ar, Options{
		Open:   func(context.Context) (*runner.Session, error) { return r.open(t, c.drift, nil), nil },
		Replay: ro,
		Path:   "flows/flow.ad",
	})
	o := outcome{status: res.Status, res: res}
	if res.Status != StatusRepaired {
		return o
	}
	for _, ch := range res.Changes {
		// A line without the old element's identity is proposed with
		// caution, and says what it stood on.
		if ch.Caution != c.plain || (c.plain && !strings.HasPrefix(ch.StoodOn, "command contract")) || (!c.plain && ch.StoodOn != "annotation") {
			t.Errorf("step %d: caution %v, stood on %q (plain script: %v)", ch.Step, ch.Caution, ch.StoodOn, c.plain)
		}
		if !slices.Contains(c.hit, ch.Evidence.New.ID) && !slices.Contains(c.hit, ch.Evidence.New.Label) {
			o.wrong++
			t.Errorf("wrong element: step %d now hits %+v, want one of %q", ch.Step, ch.Evidence.New, c.hit)
		}
	}
	if len(res.Changes) != len(c.hit) {
		t.Errorf("%d changes, want %d", len(res.Changes), len(c.hit))
	}
	for _, l := range strings.Split(res.Patch, "\n") {
		if (strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-")) && strings.Contains(l, "hunter2-secret") {
			t.Errorf("a changed line holds a secret value: %s", l)
		}
	}
	// The patch, applied the way a reviewer does, makes the script pass.
	applied := applyPatch(t, src, res.Patch)
	if applied != string(res.Source) {
		t.Errorf("the patch applied gives\n%s\nthe repair says\n%s", applied, res.Source)
	}
	again := parse(t, applied)
	fresh := r.open(t, c.drift, nil)
	defer fresh.Close(ctx)
	if ar := fresh.Replay(ctx, again, runner.ReplayOptions{Scope: scope(again)}); ar.Status != runner.StatusPassed {
		t.Errorf("the patched script fails: %s\n%s", failure(ar), applied)
	}
	return o
}

// applyPatch applies patch to src with `patch -p0` and checks it with
// `git apply -p0 --check`, both from the directory above flows/.
func applyPatch(t *testing.T, src, patch string) string {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "flows", "flow.ad")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "fix.patch"), []byte(patch), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "-C", dir, "apply", "-p0", "--check", "fix.patch").CombinedOutput(); err != nil {
		t.Fatalf("git apply --check: %v\n%s\n%s", err, out, patch)
	}
	cmd := exec.Command("patch", "-p0", "--batch", "-i", "fix.patch")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("patch -p0: %v\n%s\n%s", err, out, patch)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// runCorpus runs every case and reports the figures of the corpus.
func runCorpus(t *testing.T, r rig, cases []driftCase) {
	counts := map[string]int{}
	wrong, refusedRight := 0, 0
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := runCase(t, r, c)
			counts[o.status]++
			wrong += o.wrong
			if o.status != c.want {
				why := ""
				if o.res != nil {
					why = o.res.Refusal
				}
				t.Fatalf("outcome %s (%s), want %s", o.status, why, c.want)
			}
			if c.want == StatusRefused {
				if !strings.Contains(o.res.Refusal, c.why) {
					t.Errorf("refusal %q, want it to say %q", o.res.Refusal, c.why)
				}
				refusedRight++
			}
			if o.res != nil {
				t.Logf("%s: %s; tries %+v", o.status, o.res.Refusal, o.res.Tries)
				if o.res.Patch != "" {
					t.Logf("patch:\n%s", o.res.Patch)
				}
			}
		})
	}
	t.Logf("drift corpus: %d drifts: %d repaired and verified, %d refused (%d as expected), %d pass as written, %d wrong-element repairs",
		counts[StatusRepaired]+counts[StatusRefused]+counts["passes"], counts[StatusRepaired], counts[StatusRefused], refusedRight, counts["passes"], wrong)
	if wrong != 0 {
		t.Errorf("%d wrong-element repairs", wrong)
	}
}
