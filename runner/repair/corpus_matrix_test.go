package repair

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner"
	"github.com/adtest/adtest/runner/match"
)

// The drift matrix: each drift of a sign-up app is replayed and repaired
// for the same flow written three ways: as the recorder writes it (a chain
// of the element's names and its target-v1 line), by hand and annotated by
// `adtest annotate` on the app before the drift, and by hand bare (labels
// only). The corpus says which element is right for each changed step (the
// one a person would pick); a verified patch that acts on another is a
// wrong-element repair. TestDriftMatrix prints the table docs/repair.md
// quotes and fails on any wrong element.

const matrixApp = `
open demo -> signup
screen signup "Sign up"
  form "Sign up"
    textbox "Name" id=name editable
    textbox "Email" id=email editable
    button "Create account" id=create -> goto home
  link "Help" id=help -> alert "Call us"
screen home "Home"
  heading "Welcome" id=welcome
  group "Account" id=account
    button "Profile" id=profile -> goto profile
    button "Log out" id=logout -> goto signup
  button "Settings" id=settings -> goto settings
screen profile "Profile"
  heading "Your profile" id=profile-title
  button "Save" id=save -> goto saved
  button "Cancel" id=cancel -> goto home
screen saved "Saved"
  text "Saved" id=saved
screen settings "Settings"
  heading "Settings" id=settings-title
`

// matrixScript is the flow as a person writes it.
const matrixScript = `context platform=fake
open demo
fill "label=Name" "Ada"
fill "label=Email" "ada@example.com"
click "label=\"Create account\""
wait text "Welcome" 1000
click "label=Profile"
click "label=Save"
wait text "Saved" 1000
`

// matrixCase is one drift; right are the ids (else labels) of the elements
// the changed steps must act on, none when no repair is right.
type matrixCase struct {
	kind, name string
	drift      string
	right      []string
}

func matrixCases(t testing.TB) []matrixCase {
	e := func(pairs ...string) string { return edit(t, matrixApp, pairs...) }
	profileRow := "    button \"Profile\" id=profile -> goto profile\n"
	saveRow := "  button \"Save\" id=save -> goto saved\n"
	return []matrixCase{
		{"label", "field renamed, id kept", e(`textbox "Name" id=name`, `textbox "Full name" id=name`), []string{"name"}},
		{"label", "second field renamed, id kept", e(`textbox "Email" id=email`, `textbox "E-mail address" id=email`), []string{"email"}},
		{"label", "button renamed, id kept", e(`button "Create account" id=create`, `button "Sign up" id=create`), []string{"create"}},
		{"label", "button renamed with more words, id kept", e(`button "Save" id=save`, `button "Save changes" id=save`), []string{"save"}},
		{"label", "nested button renamed, id kept", e(`button "Profile" id=profile`, `button "My profile" id=profile`), []string{"profile"}},
		{"label", "two renames in one flow", e(`textbox "Name" id=name`, `textbox "Full name" id=name`, `button "Save" id=save`, `button "Save changes" id=save`), []string{"name", "save"}},
		{"label", "case and spacing only", e(`button "Save" id=save`, `button " SAVE " id=save`), nil},
		{"label", "button renamed keeping its words, id kept", e(`button "Create account" id=create`, `button "Create your account" id=create`), []string{"create"}},
		{"label", "field renamed keeping its word, id kept", e(`textbox "Email" id=email`, `textbox "Work email" id=email`), []string{"email"}},
		{"id", "field id changed, label kept", e(`textbox "Name" id=name`, `textbox "Name" id=full-name`), []string{"full-name"}},
		{"id", "button id changed, label kept", e(`button "Create account" id=create`, `button "Create account" id=create-account`), []string{"create-account"}},
		{"id", "button id removed", e(`button "Save" id=save`, `button "Save"`), []string{"Save"}},
		{"id", "id changed and a same-named button appears", e(`button "Save" id=save`, `button "Save" id=save-button`, `  button "Cancel"`, "  button \"Save\" id=save-draft -> goto home\n  button \"Cancel\""), []string{"save-button"}},
		{"text", "button shows other words than its name", e(`button "Save" id=save`, `button "Save" text="Save now" id=save`), nil},
		{"text", "button shows an icon, its name kept", e(`button "Save" id=save`, `button "Save" text="💾" id=save`), nil},
		{"text", "icon button gained words", e(`button "Profile" id=profile`, `button "Open profile" text="👤" id=profile`), []string{"profile"}},
		{"role", "button became a link", e(`button "Save" id=save`, `link "Save" id=save`), []string{"save"}},
		{"structure", "button wrapped in a new container", e(profileRow, "    group \"Card\"\n      button \"Profile\" id=profile -> goto profile\n"), []string{"profile"}},
		{"structure", "button moved to another section", e(profileRow, "", `  button "Settings"`, "  group \"Personal\" id=personal\n    button \"Profile\" id=profile -> goto profile\n  button \"Settings\""), []string{"profile"}},
		{"role", "field became a search box", e(`textbox "Name" id=name editable`, `searchbox "Name" id=name editable`), []string{"name"}},
		{"structure", "button moved into a new group", e(saveRow, "  group \"Actions\"\n    button \"Save\" id=save -> goto saved\n"), nil},
		{"structure", "form moved into a section", e("  form \"Sign up\"\n", "  group \"Main\"\n   form \"Sign up\"\n"), nil},
		{"duplicates", "a second Save appears, the id tells", e(`  button "Cancel"`, "  button \"Save\" id=save-draft -> goto home\n  button \"Cancel\""), []string{"save"}},
		{"duplicates", "renamed button beside an unrelated same-named one", e(`button "Create account" id=create`, `button "Sign up" id=create`, "  link \"Help\"", "  group \"Newsletter\"\n    button \"Sign up\" id=newsletter -> alert \"Subscribed\"\n  link \"Help\""), []string{"create"}},
		{"duplicates", "another form with a Name field appears", e("  link \"Help\"", "  form \"Billing\"\n    textbox \"Name\" id=billing-name editable\n  link \"Help\""), []string{"name"}},
		{"duplicates", "renamed field beside another form's field with the new words", e(`textbox "Name" id=name`, `textbox "Full name" id=name`, "  link \"Help\"", "  form \"Billing\"\n    textbox \"Full name\" id=billing-name editable\n  link \"Help\""), []string{"name"}},
		{"duplicates", "a second Profile button in another section", e(`  button "Settings"`, "  group \"Team\"\n    button \"Profile\" id=team-profile -> goto settings\n  button \"Settings\""), []string{"profile"}},
		{"removal", "nested button removed", e(profileRow, ""), nil},
		{"removal", "button removed", e(saveRow, ""), nil},
		{"removal", "field removed", e("    textbox \"Email\" id=email editable\n", ""), nil},
		{"removal", "button removed, another with its words stays", e(saveRow, "", `  button "Cancel"`, "  button \"Save draft\" id=draft -> goto home\n  button \"Cancel\""), nil},
		{"reorder", "buttons swapped", e(profileRow+"    button \"Log out\" id=logout -> goto signup\n", "    button \"Log out\" id=logout -> goto signup\n"+profileRow), nil},
		{"reorder", "fields swapped", e("    textbox \"Name\" id=name editable\n    textbox \"Email\" id=email editable\n", "    textbox \"Email\" id=email editable\n    textbox \"Name\" id=name editable\n"), nil},
		{"reorder", "Save and Cancel swapped", e(saveRow+"  button \"Cancel\" id=cancel -> goto home\n", "  button \"Cancel\" id=cancel -> goto home\n"+saveRow), nil},
		{"i18n", "button translated, id kept", e(`button "Save" id=save`, `button "Speichern" id=save`), []string{"save"}},
		{"i18n", "field translated, id kept", e(`textbox "Name" id=name`, `textbox "Nom" id=name`), []string{"name"}},
		{"i18n", "button translated into several words, id kept", e(`button "Create account" id=create`, `button "Créer un compte" id=create`), []string{"create"}},
		{"i18n", "button translated, id gone", e(`button "Save" id=save`, `button "Speichern"`), nil},
		{"swap", "two fields swap their labels (ids stay)", e(`textbox "Name" id=name`, `textbox "Email" id=name`, `textbox "Email" id=email`, `textbox "Name" id=email`), nil},
		{"swap", "the id moved to another button", e(`button "Save" id=save`, `button "Save" id=store`, `button "Cancel" id=cancel`, `button "Cancel" id=save`), []string{"store"}},
		{"assertion", "the text waited for changed", e(`heading "Welcome" id=welcome`, `heading "Hello" id=welcome`), nil},
	}
}

// recordedScript is src as the recorder writes it: each selector step's
// selector replaced by the chain of its element's names on app, with the
// element's target-v1 line above it.
func recordedScript(t testing.TB, app, src string) string {
	t.Helper()
	j := &journal{}
	sess := fakeRig{}.open(t, app, j)
	defer sess.Close(context.Background())
	script := parse(t, src)
	if ar := sess.Replay(context.Background(), script, runner.ReplayOptions{Scope: scope(script)}); ar.Status != runner.StatusPassed {
		t.Fatalf("the flow does not pass on the app: %s", failure(ar))
	}
	lines := strings.Split(src, "\n")
	for _, e := range j.entries {
		if e.Resolution == nil || e.Resolution.Kind != "selector" || !lang.TraitsOf(e.Written.Command).Touch {
			continue
		}
		place := []match.Place{{Tree: e.Resolution.Tree, Node: e.Resolution.Index}}
		chain := match.Chain(place, match.Segments(match.Names(place, match.Naming{Command: e.Written.Command})), true)
		if chain == nil {
			t.Fatalf("line %d: no chain names its element", e.Line)
		}
		a := *e.Written
		args, err := lang.Bind(&a)
		if err != nil {
			t.Fatal(err)
		}
		a.Positionals = append([]string{chain.Raw}, args.(lang.TargetArgs).Tail...)
		a.ArgPos, a.Tokens = nil, nil
		a.TargetEvidence = match.Evidence(e.Resolution.Tree, e.Resolution.Index, chain, true, nil)
		lines[e.Line-1] = lang.FormatAction(&a)
	}
	return strings.Join(lines, "\n")
}

// matrixOutcome is one cell of the matrix.
type matrixOutcome struct {
	status   string // repaired, refused or passes
	proposed bool   // a candidate line was tried
	wrong    bool
	note     string
	tries    string
}

func runMatrixCell(t *testing.T, c matrixCase, src string) matrixOutcome {
	ctx := context.Background()
	script := parse(t, src)
	sess := fakeRig{}.open(t, c.drift, nil)
	defer sess.Close(ctx)
	ro := runner.ReplayOptions{Scope: scope(script)}
	ar := sess.Replay(ctx, script, ro)
	if ar.Status == runner.StatusPassed {
		return matrixOutcome{status: "passes"}
	}
	res := Repair(ctx, sess, script, []byte(src), ar, Options{
		Open:   func(context.Context) (*runner.Session, error) { return fakeRig{}.open(t, c.drift, nil), nil },
		Replay: ro, Path: "flows/flow.ad",
	})
	o := matrixOutcome{status: res.Status, proposed: len(res.Tries) > 0, note: res.Refusal, tries: fmt.Sprintf("%+v", res.Tries)}
	if res.Status != StatusRepaired {
		return o
	}
	for _, ch := range res.Changes {
		if !slices.Contains(c.right, ch.Evidence.New.ID) && !(ch.Evidence.New.ID == "" && slices.Contains(c.right, ch.Evidence.New.Label)) {
			o.wrong = true
			o.note = fmt.Sprintf("step %d now acts on %s, the right one is %q", ch.Step, describe(ch.Evidence.New), c.right)
		}
	}
	// The patch applies as a reviewer applies it, and the result passes.
	applied := applyPatch(t, src, res.Patch)
	fresh := fakeRig{}.open(t, c.drift, nil)
	defer fresh.Close(ctx)
	again := parse(t, applied)
	if ar := fresh.Replay(ctx, again, runner.ReplayOptions{Scope: scope(again)}); ar.Status != runner.StatusPassed {
		t.Errorf("the patched script fails: %s", failure(ar))
	}
	return o
}

func TestDriftMatrix(t *testing.T) {
	t.Parallel()
	variants := []struct{ name, src string }{
		{"recorded", recordedScript(t, matrixApp, matrixScript)},
		{"annotated", record(t, fakeRig{}, matrixApp, matrixScript)},
		{"bare", matrixScript},
	}
	type tally struct{ drifts, proposed, verified, refused, passes, wrong int }
	counts := map[string]map[string]*tally{} // kind -> variant
	var kinds []string
	wrong := 0
	for _, c := range matrixCases(t) {
		if counts[c.kind] == nil {
			counts[c.kind] = map[string]*tally{}
			kinds = append(kinds, c.kind)
			for _, v := range variants {
				counts[c.kind][v.name] = &tally{}
			}
		}
		status := map[string]string{}
		for _, v := range variants {
			t.Run(c.kind+"/"+c.name+"/"+v.name, func(t *testing.T) {
				o := runMatrixCell(t, c, v.src)
				status[v.name] = o.status
				tl := counts[c.kind][v.name]
				tl.drifts++
				if o.proposed {
					tl.proposed++
				}
				switch o.status {
				case StatusRepaired:
					tl.verified++
				case StatusRefused:
					tl.refused++
				default:
					tl.passes++
				}
				if o.wrong {
					tl.wrong++
					wrong++
					t.Errorf("wrong element: %s", o.note)
				}
				t.Logf("%s: %s %s", o.status, o.note, o.tries)
			})
		}
		// Annotated, a hand-written script is as repairable as a recorded
		// one: where the recorded script passes or is repaired and some
		// element is right, the annotated one is not refused.
		if c.right != nil && status["recorded"] != StatusRefused && status["annotated"] == StatusRefused {
			t.Errorf("%s/%s: the recorded script %s, the annotated one is refused", c.kind, c.name, status["recorded"])
		}
	}
	var b strings.Builder
	b.WriteString("| kind | drifts | recorded: proposed / verified / refused / wrong | annotated: … | bare: … | pass as written |\n|---|---|---|---|---|---|\n")
	total := map[string]*tally{}
	for _, v := range variants {
		total[v.name] = &tally{}
	}
	for _, k := range kinds {
		row := counts[k]
		fmt.Fprintf(&b, "| %s | %d ", k, row["bare"].drifts)
		for _, v := range variants {
			tl := row[v.name]
			fmt.Fprintf(&b, "| %d / %d / %d / %d ", tl.proposed, tl.verified, tl.refused, tl.wrong)
			tt := total[v.name]
			tt.drifts, tt.proposed, tt.verified, tt.refused, tt.passes, tt.wrong = tt.drifts+tl.drifts, tt.proposed+tl.proposed, tt.verified+tl.verified, tt.refused+tl.refused, tt.passes+tl.passes, tt.wrong+tl.wrong
		}
		fmt.Fprintf(&b, "| %d / %d / %d |\n", row["recorded"].passes, row["annotated"].passes, row["bare"].passes)
	}
	fmt.Fprintf(&b, "| all | %d ", total["bare"].drifts)
	for _, v := range variants {
		tt := total[v.name]
		fmt.Fprintf(&b, "| %d / %d / %d / %d ", tt.proposed, tt.verified, tt.refused, tt.wrong)
	}
	fmt.Fprintf(&b, "| %d / %d / %d |\n", total["recorded"].passes, total["annotated"].passes, total["bare"].passes)
	t.Logf("drift matrix (fake device):\n%s", b.String())
	if wrong != 0 {
		t.Errorf("%d wrong-element repairs", wrong)
	}
}
