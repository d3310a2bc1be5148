package repair

import (
	"context"
	"strings"
	"testing"

	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner"
)

// annotateOn replays src on app with a journal and annotates it.
func annotateOn(t *testing.T, app, src string, secrets ...string) *Annotation {
	t.Helper()
	j := &journal{}
	sess := fakeRig{}.open(t, app, j)
	defer sess.Close(context.Background())
	script := parse(t, src)
	ro := runner.ReplayOptions{Scope: scope(script), Secrets: secrets}
	ar := sess.Replay(context.Background(), script, ro)
	return Annotate(script, []byte(src), "flows/flow.ad", ar, j.entries, ro)
}

func TestAnnotate(t *testing.T) {
	t.Parallel()
	const app = `
open demo -> form
screen form "Form"
  group "Contact"
    textbox "Name" id=name editable
    button "hunter2" id=shown
    button "Send" id=send -> goto done
screen done "Done"
  text "Done" id=done
`
	src := "context platform=fake\nenv WHO=Ada\nenv FIELD=Name\nopen demo\n  fill \"label=Name\" \"${WHO}\"\nclick \"id=shown\"\nfill \"label=${FIELD}\" \"Lovelace\"\nclick \"label=Send\"\nwait text \"Done\" 1000\n"
	res := annotateOn(t, app, src, "hunter2")
	if res.Status != StatusAnnotated || len(res.Added) != 2 || len(res.Skipped) != 2 || !strings.Contains(res.Skipped[1].Why, "${VAR} reference") {
		t.Fatalf("annotate: %s %s added %+v skipped %+v", res.Status, res.Refusal, res.Added, res.Skipped)
	}
	got := string(res.Source)
	// Only the annotation lines are new, indented as their step; the rest
	// is the script byte for byte.
	want := "context platform=fake\nenv WHO=Ada\nenv FIELD=Name\nopen demo\n" +
		`  # agent-device:target-v1 {"id":"name","role":"textbox","label":"Name","ancestry":[{"role":"group","label":"Contact"}],"sibling":0,"viewportOrder":0,"rect":{"x":8,"y":44,"width":374,"height":44},"verification":"verified"}` + "\n" +
		"  fill \"label=Name\" \"${WHO}\"\nclick \"id=shown\"\nfill \"label=${FIELD}\" \"Lovelace\"\n" +
		`# agent-device:target-v1 {"id":"send","role":"button","label":"Send","ancestry":[{"role":"group","label":"Contact"}],"sibling":2,"viewportOrder":0,"rect":{"x":8,"y":132,"width":374,"height":44},"verification":"verified"}` + "\n" +
		"click \"label=Send\"\nwait text \"Done\" 1000\n"
	if got != want {
		t.Fatalf("annotated script:\n%s\nwant:\n%s", got, want)
	}
	if strings.Contains(got, "hunter2") || strings.Contains(res.Patch, "hunter2") || res.Skipped[0].Why != "its evidence would hold a secret's value" {
		t.Fatalf("the secret's element: %+v\n%s", res.Skipped, res.Patch)
	}
	if applied := applyPatch(t, src, res.Patch); applied != got {
		t.Fatalf("the patch applies to\n%s", applied)
	}

	// Annotated again: kept byte for byte, nothing to add.
	again := annotateOn(t, app, got, "hunter2")
	if again.Status != StatusUnchanged || len(again.Kept) != 2 || again.Source != nil {
		t.Fatalf("second pass: %s added %+v kept %+v drifts %+v", again.Status, again.Added, again.Kept, again.Drifts)
	}

	// An annotation that no longer matches the element fails replay's
	// identity check: the run annotates nothing and reports the drift.
	stale := strings.Replace(got, `{"id":"send","role":"button","label":"Send",`, `{"id":"send-old","role":"button","label":"Send",`, 1)
	drift := annotateOn(t, app, stale, "hunter2")
	if drift.Status != StatusRefused || len(drift.Drifts) != 1 || drift.Drifts[0].Line != 10 || !strings.Contains(drift.Drifts[0].Why, "no longer matches") {
		t.Fatalf("stale annotation: %s %q drifts %+v", drift.Status, drift.Refusal, drift.Drifts)
	}

	// A failing run annotates nothing.
	failing := annotateOn(t, app, strings.Replace(src, `wait text "Done"`, `wait text "Nope"`, 1))
	if failing.Status != StatusRefused || failing.Source != nil || !strings.Contains(failing.Refusal, "a failing run annotates nothing") {
		t.Fatalf("failing run: %s %q", failing.Status, failing.Refusal)
	}
	if _, err := lang.Parse("x.ad", res.Source); err != nil {
		t.Fatal(err)
	}
}
