package reporters

import (
	"bytes"
	"strings"
	"testing"

	"github.com/adtest/adtest/runner"
)

// repaired is a failed test whose last attempt carries a verified repair,
// and one whose repair was refused.
func repaired() *runner.Result {
	diff := "--- flows/login.ad\n+++ flows/login.ad\n@@ -3,1 +3,1 @@\n-click \"role=button label=\\\"Sign in\\\"\"\n+click \"role=button label=\\\"Log in\\\"\"\n"
	return &runner.Result{Version: 1, Stats: runner.Stats{Total: 2, Failed: 2}, Tests: []runner.TestResult{
		{File: "flows/login.ad", Name: "login", Status: runner.StatusFailed, Attempts: []runner.AttemptResult{{Status: runner.StatusFailed,
			Error: &runner.ErrorInfo{Code: "REPLAY_DIVERGENCE", Reason: "selector_miss", Message: "Replay failed at step 3", Step: 3, Line: 3, Command: "click"},
			Repair: &runner.RepairReport{Status: "repaired", Verified: true, Patch: "art/r1/repairs/flows/login.ad.patch", ApplyCommand: "git apply -p0 'art/r1/repairs/flows/login.ad.patch'", Record: "art/r1/repairs/flows/login.ad.json",
				Diff: diff, Changes: []runner.RepairChange{{File: "flows/login.ad", Line: 3, OldLine: `click "role=button label=\"Sign in\""`, NewLine: `click "role=button label=\"Log in\""`, Basis: "id"}}}}}},
		{File: "flows/welcome.ad", Name: "welcome", Status: runner.StatusFailed, Attempts: []runner.AttemptResult{{Status: runner.StatusFailed,
			Error:  &runner.ErrorInfo{Code: "REPLAY_DIVERGENCE", Reason: "wait_target_absent", Message: "Replay failed at step 2", Step: 2, Line: 2, Command: "wait"},
			Repair: &runner.RepairReport{Status: "refused", Refusal: "step 2 (line 2, wait) failed (wait_target_absent): a real failure"}}}},
	}}
}

func TestConsoleShowsTheRepairUnderTheFailure(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := WriteSummary(&b, repaired(), false); err != nil {
		t.Fatal(err)
	}
	want := `
Failures:
  1) flows/login.ad:3 login
     step 3 click: Replay failed at step 3 [selector_miss]
     repair: suggested repair (verified by a re-run from the start; the test stays failed)
     patch: art/r1/repairs/flows/login.ad.patch
     review, then from here: git apply -p0 'art/r1/repairs/flows/login.ad.patch'
       --- flows/login.ad
       +++ flows/login.ad
       @@ -3,1 +3,1 @@
       -click "role=button label=\"Sign in\""
       +click "role=button label=\"Log in\""
  2) flows/welcome.ad:2 welcome
     step 2 wait: Replay failed at step 2 [wait_target_absent]
     repair: refused: step 2 (line 2, wait) failed (wait_target_absent): a real failure

0 passed, 2 failed
`
	if got := b.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestGitHubNoticePerRepairedLine(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := WriteGitHub(&b, repaired()); err != nil {
		t.Fatal(err)
	}
	want := `::notice file=flows/login.ad,line=3,title=adtest suggested repair (id)::click "role=button label=\"Sign in\""%0Abecomes%0Aclick "role=button label=\"Log in\""%0Apatch: art/r1/repairs/flows/login.ad.patch%0Aapply: git apply -p0 'art/r1/repairs/flows/login.ad.patch'`
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	var notices []string
	for _, l := range lines {
		if strings.HasPrefix(l, "::notice") {
			notices = append(notices, l)
		}
	}
	if len(notices) != 1 || notices[0] != want {
		t.Errorf("notices %q, want [%q]", notices, want)
	}
}

func TestJUnitAttachesThePatch(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := Render("junit", &b, repaired(), false); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"[[ATTACHMENT|art/r1/repairs/flows/login.ad.patch]]", "[[ATTACHMENT|art/r1/repairs/flows/login.ad.json]]", "apply: git apply -p0 'art/r1/repairs/flows/login.ad.patch'",
		"repair: refused: step 2 (line 2, wait) failed (wait_target_absent): a real failure"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("JUnit report lacks %q:\n%s", want, b.String())
		}
	}
}
