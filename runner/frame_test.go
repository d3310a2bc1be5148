package runner

import (
	"context"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner/internal/frame"
)

// In loginScreens, `snapshot -i` on login prints @e1 Email, @e2 Sign in, @e3 Help.

func pinned(e *env, ref string) string {
	return fmt.Sprintf("%s~s%d", ref, e.sess.RefsGeneration())
}

// Evidence 1: a bare and a pinned second mutation reject after an unobserved
// first mutation, and nothing is dispatched for them.
func TestEvidence01SecondMutationRejected(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		second func(e *env, pin string) string
	}{
		{"bare", func(e *env, pin string) string { return "click @e3" }},
		{"pinned", func(e *env, pin string) string { return "click @e3~s" + pin }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, loginScreens)
			e.must(t, "open demo")
			e.must(t, "snapshot -i")
			pin := fmt.Sprint(e.sess.RefsGeneration())
			e.must(t, `fill @e1 "a@b.c"`) // does not navigate: the frame still expires
			before := len(e.dev.Mutations())
			_, err := e.run(t, tc.second(e, pin))
			if err == nil || err.Reason != "ref_frame_expired" || err.Code != CodeCommandFailed {
				t.Fatalf("got %+v, want ref_frame_expired", err)
			}
			// ADR 0014's example: the expiry advanced the epoch past the mint.
			if cur := err.Details["currentGeneration"]; cur != e.sess.RefsGeneration() || fmt.Sprint(cur) == pin {
				t.Fatalf("currentGeneration %v (minted %s)", cur, pin)
			}
			if tc.name == "pinned" && fmt.Sprint(err.Details["mintedGeneration"]) != pin {
				t.Fatalf("mintedGeneration %v, want %s", err.Details["mintedGeneration"], pin)
			}
			if after := len(e.dev.Mutations()); after != before {
				t.Fatalf("a rejected mutation dispatched %d device ops", after-before)
			}
		})
	}
}

// Evidence 2: definitive pre-seam failures (arguments, target not found,
// driver preflight guards, unsupported operations) preserve the frame.
func TestEvidence02PreSeamFailuresPreserve(t *testing.T) {
	t.Parallel()
	screens := loginScreens + `
screen guarded
  button "Off" id=off disabled
  button "Go" id=go -> goto home
open guarded -> guarded
`
	for _, tc := range []struct {
		name, open, line, reason string
	}{
		{"bad args", "demo", `fill @e1`, "invalid_args"},
		{"bad target", "demo", `click Continue`, "invalid_args"},
		{"selector miss", "demo", `click label="Nope"`, "selector_not_found"},
		{"ref out of range", "demo", `click @e9`, "ref_not_found"},
		{"preflight disabled", "guarded", `click @e1`, "target_disabled"},
		{"preflight not editable", "guarded", `fill @e2 "x"`, "target_not_editable"},
		{"unsupported gesture", "demo", `gesture pinch 2`, "unsupported_operation"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, screens)
			e.sess.cfg.ReadinessTimeout = -1
			e.must(t, "open "+tc.open)
			e.must(t, "snapshot -i")
			gen := e.sess.RefsGeneration()
			before := len(e.dev.Mutations())
			_, err := e.run(t, tc.line)
			if err == nil || string(err.Reason) != tc.reason {
				t.Fatalf("got %+v, want reason %s", err, tc.reason)
			}
			if !e.sess.frame.IsActive() || e.sess.RefsGeneration() != gen {
				t.Fatalf("frame changed by a pre-seam failure (active %v, gen %d->%d)", e.sess.frame.IsActive(), gen, e.sess.RefsGeneration())
			}
			if after := len(e.dev.Mutations()); after != before {
				t.Fatalf("pre-seam failure dispatched %d ops", after-before)
			}
			last := "@e2"
			e.must(t, "click "+last) // the frame still authorizes its refs
		})
	}
}

// Evidence 3: post-seam failures (platform error, timeout, cancellation,
// connection loss) leave the frame expired.
func TestEvidence03PostSeamFailuresExpire(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		setup  func(e *env)
		ctx    func(e *env) (context.Context, context.CancelFunc)
		reason string
	}{
		{"platform error", func(e *env) { e.dev.FailOn("tap", 1, "tap exploded") }, nil, "command_failed"},
		{"connection loss", func(e *env) { e.dev.FailOn("tap", 1, "") }, nil, "command_failed"},
		{"timeout", func(e *env) { e.dev.HangOn("tap", 1) }, func(*env) (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 20*time.Millisecond)
		}, "timeout"},
		{"cancellation", func(e *env) { e.dev.HangOn("tap", 1) }, func(e *env) (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			go func() {
				for e.dev.Count("tap") == 0 { // cancel once the tap is in flight
					runtime.Gosched()
				}
				cancel()
			}()
			return ctx, cancel
		}, "cancelled"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, loginScreens)
			e.must(t, "open demo")
			e.must(t, "snapshot -i")
			tc.setup(e)
			ctx, cancel := context.Background(), context.CancelFunc(func() {})
			if tc.ctx != nil {
				ctx, cancel = tc.ctx(e)
			}
			defer cancel()
			_, err := e.sess.Dispatch(ctx, parseScript(t, "click @e3\n").Actions[0])
			if err == nil || string(err.Reason) != tc.reason {
				t.Fatalf("got %+v, want %s", err, tc.reason)
			}
			if e.dev.Count("tap") != 1 {
				t.Fatalf("taps = %d, want the one that failed after dispatch", e.dev.Count("tap"))
			}
			_, err = e.run(t, "click @e3")
			if err == nil || err.Reason != "ref_frame_expired" {
				t.Fatalf("after a post-seam failure got %+v, want ref_frame_expired", err)
			}
		})
	}
}

// Evidence 4: ref, selector and coordinate paths, provider-backed
// interactions and lifecycle/generic commands all cross the same seam before
// their device operation.
func TestEvidence04EveryPathCrossesTheSeam(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		line, op string
	}{
		{"click @e2", "tap"},
		{`click id="signin"`, "tap"},
		{"click 10 70", "tap"},
		{"press @e3", "tap"},
		{`fill @e1 "x"`, "fill"},
		{`fill id=email "x"`, "fill"},
		{`longpress @e2 900`, "longpress"},
		{`focus @e1`, "focus"},
		{`hover @e2`, "hover"},
		{`type hello`, "type"},
		{`scroll down`, "scroll"},
		{`swipe 10 10 10 300`, "swipe"},
		{`gesture pan 10 10 0 100`, "pan"},
		{`gesture fling up 100 400`, "swipe"},
		{`back`, "back"},
		{`home`, "home"},
		{`app-switcher`, "app-switcher"},
		{`viewport 400 900`, "viewport"},
		{`keyboard dismiss`, "key"},
		{`alert accept`, "alert-accept"},
		{`find "Sign in" click`, "tap"},
		{`find "Sign in"`, "tap"}, // default sub-action
		{`find id email fill "x"`, "fill"},
		{`find label Email type "x"`, "type"},
		{`find "Email" focus`, "focus"},
		{`open demo`, "open"},
		{`close`, "close-app"},
	} {
		t.Run(tc.line, func(t *testing.T) {
			e := newEnv(t, loginScreens)
			e.must(t, "open demo")
			e.must(t, "snapshot -i")
			gen := e.sess.RefsGeneration()
			before := e.dev.Count(tc.op)
			e.must(t, tc.line)
			if e.dev.Count(tc.op) != before+1 {
				t.Fatalf("%s ops %d -> %d, want one more", tc.op, before, e.dev.Count(tc.op))
			}
			if e.sess.RefsGeneration() != gen+1 {
				t.Fatalf("epoch %d -> %d, want exactly one expiry", gen, e.sess.RefsGeneration())
			}
			if e.sess.frame.IsActive() {
				t.Fatalf("frame still active after %s", tc.line)
			}
			// The seam is crossed before the op: the op saw the frame expired.
			ops := e.dev.Ops()
			if ops[len(ops)-1].Kind != tc.op && tc.op != "tap" {
				t.Fatalf("last op %q, want %q", ops[len(ops)-1].Kind, tc.op)
			}
		})
	}
}

// seamOrderDriver checks, inside Act, that the frame is already expired.
type seamOrderDriver struct {
	drivers.Driver
	sess       *Session
	sawExpired []bool
}

func (d *seamOrderDriver) Act(ctx context.Context, a drivers.Action) error {
	d.sawExpired = append(d.sawExpired, !d.sess.frame.IsActive())
	return d.Driver.Act(ctx, a)
}

// Evidence 4 (order): the frame is expired before the driver is called,
// for every repetition of a series.
func TestEvidence04SeamBeforeDeviceOp(t *testing.T) {
	t.Parallel()
	e := newEnv(t, loginScreens)
	d := &seamOrderDriver{Driver: e.dev}
	e.sess.drv = d
	d.sess = e.sess
	e.must(t, "open demo")
	e.must(t, "snapshot -i")
	e.must(t, "click @e2")
	e.must(t, "snapshot -i")
	e.must(t, "swipe 1 2 3 4 --count 3")
	if !reflect.DeepEqual(d.sawExpired, []bool{true, true, true, true}) {
		t.Fatalf("frame expired before each Act: %v", d.sawExpired)
	}
}

// Evidence 6: read-only operational captures do not replace the authorized
// frame: after them a ref still resolves in the frame's own tree.
func TestEvidence06ReadsDoNotReplaceFrame(t *testing.T) {
	t.Parallel()
	e := newEnv(t, loginScreens)
	e.must(t, "open demo")
	e.must(t, "snapshot -i")
	gen := e.sess.RefsGeneration()
	ev := e.sess.frame.Evidence()
	for _, line := range []string{
		`is exists id=email`, `get text id=signin`, `wait text "Welcome"`, `wait id=help 100`,
		`keyboard status`, `alert get`, `appstate`, `screenshot shot.png`, `wait 10`, `get attrs @e2`,
	} {
		e.must(t, line)
	}
	if e.sess.RefsGeneration() != gen || e.sess.frame.Evidence() != ev || !e.sess.frame.IsActive() {
		t.Fatal("a read replaced, reindexed or expired the frame")
	}
	if e.sess.last == ev {
		t.Fatal("reads should have refreshed the latest observation")
	}
	// An external change plus an internal capture: @e2 still means the
	// frame's "Sign in", not whatever is second now.
	e.must(t, `is exists id=email`)
	out := e.must(t, "get text @e2")
	if out.Text != "Sign in" {
		t.Fatalf("get text @e2 = %q, want Sign in", out.Text)
	}
}

// Evidence 7: partial publication admits only emitted pinned refs, reports
// each typed failure in order, and renders pins in text, plain in JSON.
func TestEvidence07PartialPublication(t *testing.T) {
	t.Parallel()
	e := newEnv(t, loginScreens)
	e.must(t, "open demo")
	e.must(t, "snapshot")
	completeGen := e.sess.RefsGeneration()
	out := e.must(t, `find "Help" exists`)
	gen := e.sess.RefsGeneration()
	if gen == completeGen {
		t.Fatal("find did not publish a partial frame")
	}
	// full (non -i) snapshot on login: e1 Welcome, e2 Email, e3 Sign in, e4 Help
	if want := fmt.Sprintf("@e4~s%d", gen); out.Text != want {
		t.Fatalf("text %q, want pinned %q", out.Text, want)
	}
	if out.Data["ref"] != "@e4" || out.Data["refsGeneration"] != gen {
		t.Fatalf("JSON data %v: want plain ref and one refsGeneration", out.Data)
	}
	for _, tc := range []struct {
		line, reason, msg string
	}{
		{"click @e4", "plain_ref_requires_complete_frame", "Ref @e4 needs a complete snapshot — the current frame only authorizes its emitted refs"},
		{fmt.Sprintf("click @e3~s%d", gen), "ref_not_issued", "Ref @e3 was not issued by the current ref frame"},
		{fmt.Sprintf("click @e4~s%d", completeGen), "ref_generation_mismatch", "Ref @e4 was minted from a superseded snapshot generation"},
	} {
		_, err := e.run(t, tc.line)
		if err == nil || string(err.Reason) != tc.reason || err.Message != tc.msg {
			t.Fatalf("%s: got %+v, want %s %q", tc.line, err, tc.reason, tc.msg)
		}
		if got := err.Details["scope"]; !reflect.DeepEqual(got, []string{"@e4"}) {
			t.Fatalf("scope detail %v", got)
		}
	}
	if e.dev.Count("tap") != 0 {
		t.Fatal("a rejected ref dispatched a tap")
	}
	e.must(t, fmt.Sprintf("click @e4~s%d", gen))
	if e.dev.Count("tap") != 1 {
		t.Fatal("the emitted pinned ref was not admitted")
	}
}

// Evidence 7: an empty partial publication changes nothing.
func TestEvidence07EmptyPartialKeepsFrame(t *testing.T) {
	t.Parallel()
	obs := newObservation(bigSnapshot(3), drivers.SnapshotOptions{})
	f := frame.NewLifetime(3).ActivateComplete(obs)
	if g := f.PublishPartial(obs, nil); !reflect.DeepEqual(g, f) {
		t.Fatalf("empty publication changed the frame: %+v -> %+v", f, g)
	}
	e := newEnv(t, loginScreens)
	e.must(t, "open demo")
	e.must(t, "snapshot -i")
	gen := e.sess.RefsGeneration()
	if _, err := e.run(t, `find "Nothing here" exists`); err == nil {
		t.Fatal("find of nothing passed")
	}
	if e.sess.RefsGeneration() != gen {
		t.Fatal("empty find superseded the frame")
	}
	e.must(t, "click @e2")
}

// Spec §6 rule 6: admission order and the exact error shape.
func TestAdmissionOrderAndShape(t *testing.T) {
	t.Parallel()
	obs := newObservation(&drivers.Snapshot{Nodes: []drivers.Node{{Role: "button", Label: "A", Interactive: true, Parent: -1}, {Role: "button", Label: "B", Interactive: true, Parent: -1}}}, drivers.SnapshotOptions{})
	base := frame.NewLifetime(41)
	complete := base.ActivateComplete(obs)
	partial := complete.PublishPartial(obs, []int{2})
	for _, tc := range []struct {
		name   string
		frame  frame.Frame
		ref    frame.Ref
		reason string
		minted bool
	}{
		{"expired beats mismatch", partial.Expire(), lang.Ref{N: 1, Pinned: true, Pin: 7}, "ref_frame_expired", true},
		{"mismatch beats plain-on-partial", partial, lang.Ref{N: 1, Pinned: true, Pin: 7}, "ref_generation_mismatch", true},
		{"plain on partial beats not issued", partial, lang.Ref{N: 1}, "plain_ref_requires_complete_frame", false},
		{"not issued", partial, lang.Ref{N: 1, Pinned: true, Pin: partial.Generation()}, "ref_not_issued", true},
		{"plain expired", complete.Expire(), lang.Ref{N: 2}, "ref_frame_expired", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, rej := tc.frame.AdmitMutation(tc.ref)
			err := refRejected(rej)
			if err == nil || string(err.Reason) != tc.reason || err.Code != "COMMAND_FAILED" {
				t.Fatalf("got %+v, want %s", err, tc.reason)
			}
			keys := []string{"currentGeneration", "reason", "ref", "scope"}
			if tc.minted {
				keys = append(keys, "mintedGeneration")
			}
			if len(err.Details) != len(keys) {
				t.Fatalf("details %v, want keys %v", err.Details, keys)
			}
			for _, k := range keys {
				if _, ok := err.Details[k]; !ok {
					t.Fatalf("details lack %s: %v", k, err.Details)
				}
			}
			if err.Details["currentGeneration"] != tc.frame.Generation() || err.Hint != "Capture a fresh interactive snapshot (snapshot -i) or use a stable selector, then retry." {
				t.Fatalf("details %v hint %q", err.Details, err.Hint)
			}
		})
	}
	if _, err := partial.AdmitMutation(lang.Ref{N: 2, Pinned: true, Pin: partial.Generation()}); err != nil {
		t.Fatalf("issued pinned ref rejected: %v", err)
	}
}

// Evidence 8: a complete publication admits its plain namespace; a sparse
// (empty) capture does not replace useful authority.
func TestEvidence08CompleteVsSparse(t *testing.T) {
	t.Parallel()
	e := newEnv(t, loginScreens+"screen empty\nopen blank -> empty\n")
	e.must(t, "open demo")
	out := e.must(t, "snapshot -i")
	if out.Data["refsGeneration"] != e.sess.RefsGeneration() {
		t.Fatal("snapshot does not report its refsGeneration")
	}
	gen := e.sess.RefsGeneration()
	if err := e.dev.SetScreen("empty"); err != nil {
		t.Fatal(err)
	}
	out = e.must(t, "snapshot -i")
	if out.Warning == "" || e.sess.RefsGeneration() != gen || !e.sess.frame.IsActive() {
		t.Fatalf("sparse capture changed the frame (gen %d -> %d) warning %q", gen, e.sess.RefsGeneration(), out.Warning)
	}
	if err := e.dev.SetScreen("login"); err != nil {
		t.Fatal(err)
	}
	e.must(t, "click @e2") // still admitted against the retained tree
}

// Evidence 9: mutating find omits refsGeneration and never activates its ref.
func TestEvidence09MutatingFindDoesNotPublish(t *testing.T) {
	t.Parallel()
	e := newEnv(t, loginScreens)
	e.must(t, "open demo")
	e.must(t, "snapshot -i")
	gen := e.sess.RefsGeneration()
	out := e.must(t, `find "Help" click`)
	if _, ok := out.Data["refsGeneration"]; ok {
		t.Fatalf("mutating find reported refsGeneration: %v", out.Data)
	}
	if strings.Contains(out.Text, "~s") {
		t.Fatalf("mutating find rendered a pin: %q", out.Text)
	}
	if e.sess.frame.IsActive() || e.sess.RefsGeneration() != gen+1 {
		t.Fatal("mutating find activated a frame (or did not expire the old one)")
	}
	if _, err := e.run(t, "click @e3"); err == nil || err.Reason != "ref_frame_expired" {
		t.Fatalf("after mutating find got %+v", err)
	}
	if _, err := e.run(t, fmt.Sprintf("click @e3~s%d", gen)); err == nil || err.Reason != "ref_frame_expired" {
		t.Fatalf("remembered old pin: got %+v, want ref_frame_expired", err)
	}
}

// Evidence 12: press series, double tap and swipe series resolve and expire once.
func TestEvidence12SeriesExpireOnce(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		line     string
		op       string
		ops      int
		captures int // internal captures for resolution
	}{
		{"click @e2 --count 3 --interval-ms 10", "tap", 1, 0},
		{"click @e3 --double-tap", "tap", 1, 0},
		{`click id=help --count 4`, "tap", 1, 1},
		{"swipe 10 10 10 300 --count 3 --pause-ms 50 --pattern ping-pong", "swipe", 3, 0},
	} {
		t.Run(tc.line, func(t *testing.T) {
			e := newEnv(t, loginScreens)
			e.must(t, "open demo")
			e.must(t, "snapshot -i")
			gen, snaps := e.sess.RefsGeneration(), e.dev.Count("snapshot")
			e.must(t, tc.line)
			if e.sess.RefsGeneration() != gen+1 || e.sess.frame.IsActive() {
				t.Fatalf("epoch %d -> %d, want one expiry", gen, e.sess.RefsGeneration())
			}
			if e.dev.Count(tc.op) != tc.ops {
				t.Fatalf("%s ops = %d, want %d", tc.op, e.dev.Count(tc.op), tc.ops)
			}
			if got := e.dev.Count("snapshot") - snaps; got != tc.captures {
				t.Fatalf("resolved with %d captures, want %d", got, tc.captures)
			}
		})
	}
	e := newEnv(t, loginScreens)
	e.must(t, "open demo")
	e.must(t, "snapshot -i")
	e.must(t, "click @e3 --count 3")
	var tap drivers.Action
	_ = tap
	ops := e.dev.Ops()
	if last := ops[len(ops)-1]; last.Kind != "tap" || !strings.Contains(last.Target, "Help") {
		t.Fatalf("series acted on %+v", last)
	}
	// ping-pong reverses every other swipe on the same plan.
	e.must(t, "swipe 1 2 3 4 --count 2 --pattern ping-pong")
}

// Evidence 14: consecutive `snapshot -s @ref` repetitions keep the admitted
// semantic scope; a mutation, another publication or scope breaks it; an
// arbitrary stale ref cannot borrow it; an unusable repetition keeps both.
func TestEvidence14ScopeLineage(t *testing.T) {
	t.Parallel()
	const screens = `
open app -> list
screen list
  button "Top"
  group "Account" id=acct
    button "Profile" id=profile
    button "Billing" id=billing
    button "Logout" id=logout
  button "Bottom"
screen gone
  button "Other"
`
	setup := func(t *testing.T) *env {
		e := newEnv(t, screens)
		e.must(t, "open app")
		e.must(t, "snapshot") // e1 Top, e2 Account, e3 Profile, e4 Billing, e5 Logout, e6 Bottom
		out := e.must(t, "snapshot -s @e2")
		want := "@e1 [group] \"Account\" id=\"acct\"\n  @e2 [button] \"Profile\" id=\"profile\"\n  @e3 [button] \"Billing\" id=\"billing\"\n  @e4 [button] \"Logout\" id=\"logout\"\n"
		if out.Text != want {
			t.Fatalf("scoped snapshot\n%s\nwant\n%s", out.Text, want)
		}
		return e
	}
	t.Run("repeat resolves the same scope", func(t *testing.T) {
		e := setup(t)
		// In the scoped namespace @e2 is Profile, but the lineage keeps Account.
		out := e.must(t, "snapshot -s @e2")
		if !strings.HasPrefix(out.Text, "@e1 [group] \"Account\"") {
			t.Fatalf("repeat scoped to %q", out.Text)
		}
		out = e.must(t, "snapshot -s @e2")
		if !strings.HasPrefix(out.Text, "@e1 [group] \"Account\"") {
			t.Fatalf("third repeat scoped to %q", out.Text)
		}
	})
	t.Run("mutation breaks it", func(t *testing.T) {
		e := setup(t)
		e.must(t, "click @e3") // Billing in the scoped namespace
		// Without lineage @e2 is read from the retained (scoped) tree: Profile,
		// with a staleness warning — no longer the Account scope.
		out := e.must(t, "snapshot -s @e2")
		if !strings.HasPrefix(out.Text, "@e1 [button] \"Profile\"") || !strings.Contains(out.Warning, "stale") {
			t.Fatalf("after a mutation: %q warning %q", out.Text, out.Warning)
		}
	})
	t.Run("another publication breaks it", func(t *testing.T) {
		e := setup(t)
		e.must(t, "snapshot") // complete frame over the whole screen: @e2 = Account again
		out := e.must(t, "snapshot -s @e3")
		if !strings.HasPrefix(out.Text, "@e1 [button] \"Profile\"") {
			t.Fatalf("got %q", out.Text)
		}
		// and now @e3 in the Profile-scoped namespace does not exist
		if _, err := e.run(t, "snapshot -s @e2"); err == nil || err.Reason != "ref_not_found" {
			t.Fatalf("different scope borrowed lineage: %+v", err)
		}
	})
	t.Run("different scope is admitted normally", func(t *testing.T) {
		e := setup(t)
		out := e.must(t, "snapshot -s @e3") // Billing in the scoped namespace
		if !strings.HasPrefix(out.Text, "@e1 [button] \"Billing\"") {
			t.Fatalf("got %q", out.Text)
		}
	})
	t.Run("stale ref cannot borrow it", func(t *testing.T) {
		e := setup(t)
		if _, err := e.run(t, "snapshot -s @e9"); err == nil || err.Reason != "ref_not_found" {
			t.Fatalf("got %+v", err)
		}
	})
	t.Run("unusable repetition preserves frame and lineage", func(t *testing.T) {
		e := setup(t)
		gen := e.sess.RefsGeneration()
		if err := e.dev.SetScreen("gone"); err != nil {
			t.Fatal(err)
		}
		if _, err := e.run(t, "snapshot -s @e2"); err == nil || err.Reason != "scope_not_found" {
			t.Fatalf("got %+v", err)
		}
		if e.sess.RefsGeneration() != gen || !e.sess.frame.IsActive() {
			t.Fatal("unusable repetition changed the frame")
		}
		if err := e.dev.SetScreen("list"); err != nil {
			t.Fatal(err)
		}
		out := e.must(t, "snapshot -s @e2")
		if !strings.HasPrefix(out.Text, "@e1 [group] \"Account\"") {
			t.Fatalf("lineage lost: %q", out.Text)
		}
	})
}

// Evidence 15: fused keyboard/alert requests expire even when nothing was
// there; status/get reads preserve.
func TestEvidence15FusedAndSplitSeams(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		line    string
		expires bool
	}{
		{"keyboard status", false},
		{"keyboard get", false},
		{"keyboard dismiss", true}, // keyboard already hidden
		{"keyboard enter", true},
		{"alert get", false},
		{"alert wait 100", false},
		{"alert accept", true}, // no alert open
		{"alert dismiss", true},
	} {
		t.Run(tc.line, func(t *testing.T) {
			e := newEnv(t, loginScreens)
			e.must(t, "open demo")
			e.must(t, "snapshot -i")
			if tc.line == "alert wait 100" {
				e.must(t, "click @e3") // Help opens an alert
				e.must(t, "snapshot -i")
			}
			_, err := e.run(t, tc.line)
			if err != nil && !tc.expires {
				t.Fatalf("%s: %v", tc.line, err)
			}
			if got := !e.sess.frame.IsActive(); got != tc.expires {
				t.Fatalf("expired = %v, want %v", got, tc.expires)
			}
		})
	}
}

// Evidence 16: a failed or timed-out open on an existing session leaves the
// old frame expired after dispatch.
func TestEvidence16FailedOpenExpires(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		fault  func(e *env)
		reason string
	}{
		{"failed", func(e *env) { e.dev.FailOn("open", 1, "launch failed") }, "command_failed"},
		{"timed out", func(e *env) { e.dev.HangOn("open", 1) }, "timeout"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, loginScreens)
			e.must(t, "open demo")
			e.must(t, "snapshot -i")
			tc.fault(e)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
			defer cancel()
			_, err := e.sess.Dispatch(ctx, parseScript(t, "open demo --relaunch\n").Actions[0])
			if err == nil || string(err.Reason) != tc.reason {
				t.Fatalf("got %+v", err)
			}
			if _, err := e.run(t, "click @e2"); err == nil || err.Reason != "ref_frame_expired" {
				t.Fatalf("after failed open got %+v", err)
			}
		})
	}
}

// Evidence 17: a read-only ref with retained evidence answers with a
// staleness warning; missing evidence fails instead of resolving the same
// ref body in a newer observation.
func TestEvidence17StaleReads(t *testing.T) {
	t.Parallel()
	e := newEnv(t, loginScreens)
	e.must(t, "open demo")
	e.must(t, "snapshot -i")
	e.must(t, "click @e2") // navigates to home; frame expired
	out := e.must(t, "get text @e2")
	if out.Text != "Sign in" || !strings.Contains(out.Warning, "stale") {
		t.Fatalf("stale read: text %q warning %q", out.Text, out.Warning)
	}
	// @e5 exists in the newer home screen (positionally) but not in the frame.
	e.must(t, "snapshot")
	e.must(t, "click @e2") // frame expired again
	if _, err := e.run(t, "get text @e9"); err == nil || err.Reason != "ref_not_found" {
		t.Fatalf("missing evidence: got %+v", err)
	}
	fresh := newEnv(t, loginScreens)
	fresh.must(t, "open demo")
	if _, err := fresh.run(t, "get text @e1"); err == nil || err.Reason != "ref_frame_missing" {
		t.Fatalf("no frame: got %+v", err)
	}
	if _, err := fresh.run(t, "wait @e1 100"); err == nil || err.Reason != "ref_frame_missing" {
		t.Fatalf("wait without frame: got %+v", err)
	}
	// wait @ref polls for the frame node's text on fresh captures.
	fresh.must(t, "snapshot -i")
	out = fresh.must(t, "wait @e2 100")
	if out.Warning != "" {
		t.Fatalf("fresh wait warned: %q", out.Warning)
	}
}

// Evidence 18: frame/observation separation copies no tree: the frame and
// the latest observation share one immutable capture.
func TestEvidence18NoDeepCopy(t *testing.T) {
	snap := bigSnapshot(10000)
	obs := newObservation(snap, drivers.SnapshotOptions{})
	lifetime := frame.NewLifetime(7)
	allocs := testing.AllocsPerRun(100, func() {
		f := lifetime.ActivateComplete(obs)
		f = f.Expire()
		_ = f
	})
	if allocs > 1 {
		t.Fatalf("activate+expire over 10,000 nodes allocated %v times, want <= 1", allocs)
	}
	f := lifetime.ActivateComplete(obs)
	if f.Evidence().Snap != snap || &f.Evidence().Snap.Nodes[0] != &snap.Nodes[0] {
		t.Fatal("the frame does not share the capture")
	}
	e := newEnv(t, loginScreens)
	e.must(t, "open demo")
	e.must(t, "snapshot -i")
	if e.sess.frame.Evidence() != e.sess.last {
		t.Fatal("snapshot's frame and observation are not the same capture")
	}
	// Bounded retention: however many reads run, the session holds at most
	// two captures (the frame's evidence and the latest observation).
	for i := 0; i < 5; i++ {
		e.must(t, "is exists id=email")
	}
	retained := map[*drivers.Snapshot]bool{e.sess.frame.Evidence().Snap: true, e.sess.last.Snap: true}
	nodes := 0
	for sn := range retained {
		nodes += len(sn.Nodes)
	}
	if len(retained) != 2 || nodes != 8 {
		t.Fatalf("retained %d captures with %d nodes, want 2 captures, 8 nodes", len(retained), nodes)
	}
	t.Logf("peak retained: %d captures, %d nodes", len(retained), nodes)
}

func bigSnapshot(n int) *drivers.Snapshot {
	nodes := make([]drivers.Node, n)
	for i := range nodes {
		nodes[i] = drivers.Node{Role: "button", Label: fmt.Sprintf("Item %d", i), Interactive: true, Parent: -1, Rect: drivers.Rect{Y: float64(i * 44), Width: 300, Height: 44}}
	}
	return &drivers.Snapshot{Nodes: nodes}
}

// Evidence 19: the rejection shape is the same for every targeting command
// (one enforcement path).
func TestEvidence19ConsistentShapes(t *testing.T) {
	t.Parallel()
	var shapes []string
	for _, line := range []string{"click @e1", "press @e1", `fill @e1 "x"`, "longpress @e1", "focus @e1", "hover @e1"} {
		e := newEnv(t, loginScreens)
		e.must(t, "open demo")
		e.must(t, "snapshot -i")
		e.must(t, "back")
		_, err := e.run(t, line)
		if err == nil {
			t.Fatalf("%s passed on an expired frame", line)
		}
		shapes = append(shapes, fmt.Sprintf("%s|%s|%s|%v", err.Code, err.Reason, err.Message, len(err.Details)))
	}
	for _, s := range shapes[1:] {
		if s != shapes[0] {
			t.Fatalf("shapes differ:\n%s\n%s", shapes[0], s)
		}
	}
}

// Spec §6 rule 13: a new session starts a new random lifetime; close drops the frame.
func TestLifecycleNewSessionRejectsOldPins(t *testing.T) {
	t.Parallel()
	e := newEnv(t, loginScreens)
	e.must(t, "open demo")
	e.must(t, "snapshot -i")
	old := e.sess.RefsGeneration()
	e.must(t, "close")
	if e.sess.frame.Evidence() != nil || e.sess.frame.IsActive() {
		t.Fatal("close kept a frame")
	}
	e.must(t, "open demo")
	if _, err := e.run(t, fmt.Sprintf("click @e1~s%d", old)); err == nil || err.Reason != "ref_frame_missing" {
		t.Fatalf("old pin after reopen: %+v", err)
	}
	a := NewSession(e.dev, SessionConfig{}).RefsGeneration()
	b := NewSession(e.dev, SessionConfig{}).RefsGeneration()
	c := NewSession(e.dev, SessionConfig{}).RefsGeneration()
	if a == b && b == c {
		t.Fatalf("unseeded sessions share epoch %d", a)
	}
}

// Every command a script can reach has a ref-frame classification and a
// dispatch decision (a leaf, or a typed UNSUPPORTED_OPERATION).
func TestEveryCommandClassified(t *testing.T) {
	t.Parallel()
	if len(lang.Commands) == 0 {
		t.Fatal("the command table is empty")
	}
	for _, c := range lang.Commands {
		if _, ok := lang.EffectOf(&lang.Action{Command: c.Name}); !ok {
			t.Errorf("%s: no ref-frame effect", c.Name)
		}
		leaf, ok := leaves[c.Name]
		switch {
		case !ok:
			t.Errorf("%s: no dispatch decision", c.Name)
		case leaf != nil:
		default:
			e := newEnv(t, loginScreens)
			_, err := e.sess.Dispatch(context.Background(), &lang.Action{Command: c.Name})
			if err == nil || err.Code != CodeUnsupportedOperation || !strings.Contains(err.Message, c.Name) || !strings.Contains(err.Message, "fake") {
				t.Errorf("%s: got %+v, want UNSUPPORTED_OPERATION naming command and platform", c.Name, err)
			}
			if len(e.dev.Ops()) != 0 {
				t.Errorf("%s: unsupported command touched the device", c.Name)
			}
		}
	}
}

// Evidence 7 (diffs): `diff snapshot` publishes only the added refs, pinned
// in text; no change publishes nothing.
func TestDiffSnapshotPublishesAddedRefs(t *testing.T) {
	t.Parallel()
	e := newEnv(t, loginScreens)
	e.must(t, "open demo")
	e.must(t, "click id=signin")
	e.must(t, "snapshot -i") // home: e1 Settings, e2 Log out (Late not yet there)
	gen := e.sess.RefsGeneration()
	if out := e.must(t, "diff snapshot"); out.Text != "+ @e1~s"+fmt.Sprint(gen+1)+" [text] \"Signed in\"\n" {
		// the previous observation was -i; the diff is over full captures
		t.Fatalf("first diff %q", out.Text)
	}
	gen = e.sess.RefsGeneration()
	out := e.must(t, "diff snapshot")
	if out.Text != "no changes\n" || e.sess.RefsGeneration() != gen {
		t.Fatalf("unchanged screen: %q gen %d -> %d", out.Text, gen, e.sess.RefsGeneration())
	}
	e.must(t, "wait 1000") // Late appears
	out = e.must(t, "diff snapshot")
	want := fmt.Sprintf("+ @e4~s%d [button] \"Late\" id=\"late\"\n", gen+1)
	if out.Text != want {
		t.Fatalf("diff %q, want %q", out.Text, want)
	}
	if _, err := e.run(t, "click @e4"); err == nil || err.Reason != "plain_ref_requires_complete_frame" {
		t.Fatalf("plain ref after diff: %+v", err)
	}
	if _, err := e.run(t, fmt.Sprintf("click @e2~s%d", gen+1)); err == nil || err.Reason != "ref_not_issued" {
		t.Fatalf("unissued pinned ref after diff: %+v", err)
	}
	e.must(t, fmt.Sprintf("click @e4~s%d", gen+1))
}
