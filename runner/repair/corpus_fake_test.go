package repair

import (
	"strings"
	"testing"
)

// The drift corpus on the fake Android device: each case is the example
// app changed in one realistic way. The script is recorded (annotated with
// target-v1 evidence) against the original app, then replayed on the
// drifted one.

const fakeApp = `
open demo -> login
screen login "Sign in"
  heading "Sign in" id=title
  textbox "Email" id=email editable
  textbox "Password" id=password editable
  button "Sign in" id=signin -> goto home
  button "Help" id=help -> alert "Call us"
screen home "Home"
  heading "Home" id=home-title
  text "Signed in" id=status
  group "Account" id=account
    button "Profile" id=profile -> goto profile
    button "Log out" id=logout -> goto login
  group "Toolbar" id=toolbar
    button "☰" id=menu -> goto menu
  button "Settings" id=settings -> goto settings
screen profile "Profile"
  heading "Profile" id=profile-title
  button "Save" id=save -> goto saved
  button "Cancel" -> goto home
screen saved "Saved"
  text "Saved" id=saved
screen menu "Menu"
  heading "Main menu" id=menu-title
screen settings "Settings"
  heading "Settings" id=settings-title
`

const fakeScript = `context platform=fake
env PASSWORD=hunter2-secret
open demo
fill "role=textbox label=\"Email\"" "ada@example.com"
fill "role=textbox label=\"Password\"" "${PASSWORD}"
click "role=button label=\"Sign in\""
wait text "Signed in" 1000
click "role=button label=\"Profile\""
click "role=button label=\"Save\""
wait text "Saved" 1000
`

const fakeMenuScript = `context platform=fake
open demo
click "role=button label=\"Sign in\""
click "role=button label=\"☰\""
wait text "Main menu" 1000
`

// fakeForm is a contact form, and fakeFormScript the flow as a person
// writes it by hand: bare labels, no role, no annotation.
const fakeForm = `
open demo -> contact
screen contact "Contact"
  form "Contact"
    textbox "Name" id=name editable
    textbox "Email" id=email editable
    button "Submit" id=submit -> goto thanks
screen thanks "Thanks"
  text "Thanks" id=thanks
`

const fakeFormScript = `context platform=fake
open demo
fill "label=Name" "Ada"
click "label=Submit"
wait text "Thanks" 1000
`

// edit applies replacements to the app, each old text required to occur.
func edit(t testing.TB, app string, pairs ...string) string {
	t.Helper()
	for i := 0; i+1 < len(pairs); i += 2 {
		if !strings.Contains(app, pairs[i]) {
			t.Fatalf("corpus app has no %q", pairs[i])
		}
		app = strings.Replace(app, pairs[i], pairs[i+1], 1)
	}
	return app
}

// fakeCorpus is the table; want is the outcome, hit the id (else label) of
// the element a repaired step must act on.
func fakeCorpus(t testing.TB) []driftCase {
	return []driftCase{
		{name: "renamed label, id kept", script: fakeScript, want: "repaired", hit: []string{"signin"},
			drift: edit(t, fakeApp, `button "Sign in" id=signin`, `button "Log in" id=signin`)},
		{name: "changed id, label kept", script: fakeScript, want: "repaired", hit: []string{"save-button"},
			drift: edit(t, fakeApp, `button "Save" id=save`, `button "Save" id=save-button`)},
		{name: "removed id", script: fakeScript, want: "repaired", hit: []string{"Save"},
			drift: edit(t, fakeApp, `button "Save" id=save`, `button "Save"`)},
		{name: "wrapped in a new container", script: fakeScript, want: "repaired", hit: []string{"profile"},
			drift: edit(t, fakeApp, "    button \"Profile\" id=profile -> goto profile\n", "    group \"Card\"\n      button \"Profile\" id=profile -> goto profile\n")},
		{name: "reordered siblings", script: fakeScript, want: "passes",
			drift: edit(t, fakeApp, "    button \"Profile\" id=profile -> goto profile\n    button \"Log out\" id=logout -> goto login\n",
				"    button \"Log out\" id=logout -> goto login\n    button \"Profile\" id=profile -> goto profile\n")},
		{name: "moved to another section", script: fakeScript, want: "repaired", hit: []string{"profile"},
			drift: edit(t, fakeApp, "    button \"Profile\" id=profile -> goto profile\n", "",
				"  button \"Settings\"", "  group \"Personal\" id=personal\n    button \"Profile\" id=profile -> goto profile\n  button \"Settings\"")},
		{name: "icon button gained a label", script: fakeMenuScript, want: "repaired", hit: []string{"menu"},
			drift: edit(t, fakeApp, `button "☰" id=menu`, `button "Main navigation" text="☰" id=menu`)},
		{name: "icon button gained a label, no id", script: fakeMenuScript, want: "repaired", hit: []string{"Open menu"},
			app:   edit(t, fakeApp, `button "☰" id=menu`, `button "☰"`),
			drift: edit(t, fakeApp, `button "☰" id=menu`, `button "Open menu" text="☰"`)},
		{name: "fill target renamed", script: fakeScript, want: "repaired", hit: []string{"email"},
			drift: edit(t, fakeApp, `textbox "Email" id=email`, `textbox "E-mail address" id=email`)},
		{name: "secret fill target renamed keeps the reference", script: fakeScript, want: "repaired", hit: []string{"password"},
			drift: edit(t, fakeApp, `textbox "Password" id=password`, `textbox "Passphrase" id=password`)},
		{name: "two drifts in one script", script: fakeScript, want: "repaired", hit: []string{"signin", "profile"},
			drift: edit(t, fakeApp, `button "Sign in" id=signin`, `button "Log in" id=signin`, `button "Profile" id=profile`, `button "My profile" id=profile`)},
		{name: "duplicate label, the id tells them apart", script: fakeScript, want: "repaired", hit: []string{"save"},
			drift: edit(t, fakeApp, `  button "Cancel"`, "  button \"Save\" id=save-copy -> goto home\n  button \"Cancel\"")},
		{name: "changed assertion text", script: fakeScript, want: "refused", why: "real failure",
			drift: edit(t, fakeApp, `text "Signed in" id=status`, `text "Welcome back" id=status`)},
		{name: "duplicate label appearing", script: fakeScript, want: "refused", why: "ambiguous",
			app:   edit(t, fakeApp, `button "Save" id=save`, `button "Save"`),
			drift: edit(t, fakeApp, `button "Save" id=save`, `button "Save"`, `  button "Cancel"`, "  button \"Save\" -> goto home\n  button \"Cancel\"")},
		{name: "page split in two", script: fakeScript, want: "refused", why: "shares an id, label or text",
			drift: edit(t, fakeApp, "  button \"Save\" id=save -> goto saved\n  button \"Cancel\" -> goto home\n",
				"  button \"Next\" id=next -> goto profile2\nscreen profile2 \"Profile 2\"\n  button \"Save\" id=save -> goto saved\n")},
		{name: "role changed", script: fakeScript, want: "refused", why: "shares an id, label or text",
			drift: edit(t, fakeApp, `button "Save" id=save`, `link "Save" id=save`)},
		{name: "label and id both changed", script: fakeScript, want: "refused", why: "shares an id, label or text",
			drift: edit(t, fakeApp, `button "Save" id=save`, `button "Store" id=store`)},
		{name: "element removed", script: fakeScript, want: "refused", why: "shares an id, label or text",
			drift: edit(t, fakeApp, "  button \"Save\" id=save -> goto saved\n", "")},
		{name: "same element now goes elsewhere", script: fakeScript, want: "refused", why: "no candidate made the rest",
			drift: edit(t, fakeApp, `button "Save" id=save -> goto saved`, `button "Save draft" id=save -> goto home`)},
		{name: "unannotated script, renamed label: the id spells the old words", script: fakeScript, want: "repaired", hit: []string{"signin"}, plain: true,
			drift: edit(t, fakeApp, `button "Sign in" id=signin`, `button "Log in" id=signin`)},
		{name: "hand-written: field and button renamed, ids kept", script: fakeFormScript, app: fakeForm, plain: true, want: "repaired", hit: []string{"name", "submit"},
			drift: edit(t, fakeForm, `textbox "Name" id=name`, `textbox "Full name" id=name`, `button "Submit" id=submit`, `button "Send" id=submit`)},
		{name: "hand-written: the form moved beside an unrelated same-named button", script: fakeFormScript, app: fakeForm, plain: true, want: "repaired", hit: []string{"name", "submit"},
			drift: edit(t, fakeForm, "  form \"Contact\"\n", "  group \"Newsletter\"\n    button \"Send\" id=newsletter-send -> goto contact\n  group \"Support\"\n   form \"Contact\"\n",
				`textbox "Name" id=name`, `textbox "Full name" id=name`, `button "Submit" id=submit`, `button "Send" id=submit`)},
		{name: "hand-written: another button holds the old words", script: fakeFormScript, app: fakeForm, plain: true, want: "refused", why: "2 actionable elements share",
			drift: edit(t, fakeForm, "  form \"Contact\"\n", "  button \"Submit feedback\" id=feedback -> goto contact\n  form \"Contact\"\n",
				`button "Submit" id=submit`, `button "Send" id=submit`)},
		{name: "hand-written: the field split in two", script: fakeFormScript, app: fakeForm, plain: true, want: "refused", why: "2 editable elements share",
			drift: edit(t, fakeForm, "    textbox \"Name\" id=name editable\n", "    textbox \"First name\" id=first editable\n    textbox \"Last name\" id=last editable\n")},
		{name: "hand-written: the button's words and id both gone", script: fakeFormScript, app: fakeForm, plain: true, want: "refused", why: "no actionable element shares",
			drift: edit(t, fakeForm, `button "Submit" id=submit`, `button "Send" id=send`)},
		{name: "unannotated id selector, id changed", want: "refused", why: "no actionable element shares the selector's id or words", plain: true,
			script: "context platform=fake\nopen demo\nclick id=\"signin\"\nwait text \"Signed in\" 1000\n",
			drift:  edit(t, fakeApp, `button "Sign in" id=signin`, `button "Sign in" id=login`)},
	}
}

func TestFakeDriftCorpus(t *testing.T) {
	t.Parallel()
	runCorpus(t, fakeRig{}, fakeCorpus(t))
}
