package runner

import (
	"strings"
	"testing"
)

const annotatedScreens = `
open shop -> shop
screen shop
  toolbar "Top"
    button "Buy" id=buy-top
  list "Items"
    button "Buy" id=buy-a
    button "Buy" id=buy-b
  button "Checkout" id=checkout
  button "Impostor" id=fake-checkout
`

// Target-binding verification (spec §4.2.2) runs before dispatch; a
// divergence dispatches nothing and preserves the frame (ADR 0014 evidence 2).
func TestTargetVerification(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, annotation, step string
		kind, hint             string // "" = verified, step passes
	}{
		{"verified by id", `{"id":"checkout","role":"button","label":"Checkout","verification":"verified"}`, `click id=checkout`, "", ""},
		{"verified by role+label+ancestry", `{"role":"button","label":"Checkout","ancestry":[],"verification":"verified"}`, `click "label=Checkout"`, "", ""},
		{"unverifiable annotation", `{"role":"button","label":"Checkout","verification":"unverifiable"}`, `click id=checkout`, "identity-unverifiable", "manual"},
		{"selector miss", `{"role":"button","label":"Pay","verification":"verified"}`, `click "label=Pay"`, "selector-miss", "record-and-heal"},
		{"identity mismatch by id", `{"id":"checkout","role":"button","label":"Checkout","verification":"verified"}`, `click id=fake-checkout`, "identity-mismatch", "caution"},
		{"ancestry mismatch", `{"role":"button","label":"Buy","ancestry":[{"role":"toolbar"}],"verification":"verified"}`, `click "id=buy-a"`, "identity-mismatch", "caution"},
		{"sibling isolates", `{"role":"button","label":"Buy","ancestry":[{"role":"list","label":"Items"}],"sibling":1,"verification":"verified"}`, `click "role=button label=Buy || id=buy-b"`, "", ""},
		{"sibling isolates another node", `{"role":"button","label":"Buy","ancestry":[{"role":"list","label":"Items"}],"sibling":0,"verification":"verified"}`, `click "role=button label=Buy || id=buy-b"`, "identity-mismatch", "caution"},
		{"nothing isolates", `{"role":"button","label":"Buy","ancestry":[{"role":"list"}],"sibling":5,"verification":"verified"}`, `click "role=button label=Buy || id=buy-b"`, "identity-unverifiable", "manual"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, annotatedScreens)
			e.sess.cfg.ReadinessTimeout = -1
			e.must(t, "open shop")
			e.must(t, "snapshot -i")
			gen := e.sess.RefsGeneration()
			res := e.replay(t, "# agent-device:target-v1 "+tc.annotation+"\n"+tc.step+"\n")
			if tc.kind == "" {
				if res.Status != StatusPassed || e.dev.Count("tap") != 1 {
					t.Fatalf("%+v taps %d", res.Error, e.dev.Count("tap"))
				}
				return
			}
			if res.Error == nil {
				t.Fatal("passed")
			}
			div := res.Error.Divergence()
			if div.Kind != tc.kind || div.RepairHint != tc.hint {
				t.Fatalf("kind %v hint %v (%s)", div.Kind, div.RepairHint, res.Error.Message)
			}
			if tb := div.TargetBinding; tb.Classification != tc.kind {
				t.Fatalf("targetBinding %v", tb)
			}
			if e.dev.Count("tap") != 0 {
				t.Fatal("a diverged step dispatched")
			}
			// The frame was preserved by the binding divergence until the
			// divergence screen published its partial frame.
			if !e.sess.frame.IsActive() || e.sess.RefsGeneration() != gen+1 {
				t.Fatalf("frame state after binding divergence: active %v gen %d (was %d)", e.sess.frame.IsActive(), e.sess.RefsGeneration(), gen)
			}
			if !strings.HasPrefix(res.Error.Message, "Replay failed at step 1 (click ") {
				t.Fatalf("message %q", res.Error.Message)
			}
		})
	}
}

// An annotated selector wait is a landmark: impostors keep it polling and
// end it as an identity mismatch; a real match passes.
func TestWaitLandmark(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, annotation, step, kind string
	}{
		{"landmark present", `{"id":"checkout","role":"button","label":"Checkout","verification":"verified"}`, `wait "label=Checkout" 500`, ""},
		{"only impostors", `{"id":"real-checkout","role":"button","label":"Checkout","verification":"verified"}`, `wait "label=Checkout" 500`, "identity-mismatch"},
		{"nothing matched", `{"role":"button","label":"Pay","verification":"verified"}`, `wait "label=Pay" 500`, "action-failure"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, annotatedScreens)
			e.must(t, "open shop")
			res := e.replay(t, "# agent-device:target-v1 "+tc.annotation+"\n"+tc.step+"\n")
			if tc.kind == "" {
				if res.Status != StatusPassed {
					t.Fatalf("%+v", res.Error)
				}
				return
			}
			if res.Error == nil {
				t.Fatal("passed")
			}
			if div := res.Error.Divergence(); div.Kind != tc.kind {
				t.Fatalf("kind %v (%s)", div.Kind, res.Error.Message)
			}
		})
	}
}
