package repair

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/recorder"
	"github.com/adtest/adtest/runner"
	"github.com/adtest/adtest/runner/match"
)

// The one place that names an element: the recorder (a ref rewritten to a
// selector), the repair (a new line for a candidate) and a divergence's
// suggestions give every node of these screens the same first selector, or
// none of them names it. A fill is only ever offered an editable element.

var namingScreens = []struct{ name, app string }{
	{"a login form", `
open demo -> login
screen login "Sign in"
  form "Sign in"
    heading "Sign in" id=title
    textbox "Email" id=email editable
    textbox "Password" editable
    button "Sign in" id=signin
    button "Help"
  button "Open"
  button "Open"
`},
	{"nested sections, an icon button, a shared id", `
open demo -> home
screen home "Home"
  group "Account" id=account
    button "Profile" id=profile
    button "Log out" id=dup
  group "Toolbar"
    button "Main navigation" text="☰" id=dup
    link "Docs"
  textbox "Search" value="shoes" editable
  text "Signed in" id=status
`},
}

// recorderName is the first segment of the chain the recorder writes for
// a ref step on node i ("" when it refuses the step).
func recorderName(t *testing.T, snap *drivers.Snapshot, i int, command string) string {
	t.Helper()
	r := recorder.New(recorder.Options{Platform: "fake"})
	pos := []string{"@e1"}
	if command == "fill" {
		pos = append(pos, "x")
	}
	r.Record(runner.JournalEntry{Written: &lang.Action{Command: command, Positionals: pos},
		Resolution: &runner.Resolution{Kind: "ref", Index: i, Tree: snap}})
	src, err := r.Script()
	if err != nil {
		return ""
	}
	s, err := lang.Parse("rec.ad", src)
	if err != nil {
		t.Fatalf("the recording does not parse: %v\n%s", err, src)
	}
	first, _, _ := strings.Cut(s.Actions[0].Positionals[0], " || ")
	return first
}

// divergenceNames are a divergence's suggestions for a step of command
// whose selector names no element but the words of node i's label.
func divergenceNames(t *testing.T, app string, n *drivers.Node, command string) []match.Suggestion {
	t.Helper()
	words := strings.Join([]string{n.Label, n.Text, n.ID, "zzqq"}, " ")
	line := fmt.Sprintf("%s %q", command, "label="+lang.QuoteSelectorValue(words))
	if command == "fill" {
		line += ` "x"`
	}
	sess := fakeRig{}.open(t, app, nil)
	defer sess.Close(context.Background())
	ar := sess.Replay(context.Background(), parse(t, "context platform=fake\nopen demo\n"+line+"\n"), runner.ReplayOptions{})
	div := ar.Error.Divergence()
	if div == nil {
		t.Fatalf("no divergence for %s: %+v", line, ar.Error)
	}
	return div.Suggestions
}

func TestOneNamingPlace(t *testing.T) {
	t.Parallel()
	for _, sc := range namingScreens {
		sess := fakeRig{}.open(t, sc.app, nil)
		if ar := sess.Replay(context.Background(), parse(t, "context platform=fake\nopen demo\n"), runner.ReplayOptions{}); ar.Status != runner.StatusPassed {
			t.Fatal(failure(ar))
		}
		snap, err := sess.Capture(context.Background())
		sess.Close(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		// A chain the repair cannot reshape: its fallback names the node.
		gone, err := lang.ParseSelectorChain(`appname="gone"`)
		if err != nil {
			t.Fatal(err)
		}
		for i := range snap.Nodes {
			n := &snap.Nodes[i]
			for _, command := range []string{"click", "fill"} {
				t.Run(fmt.Sprintf("%s/%s %d %s", sc.name, command, i, match.Describe(n.Role, n.Label, n.Text, n.ID)), func(t *testing.T) {
					want := ""
					if names := match.Names([]match.Place{{Tree: snap, Node: i}}, match.Naming{Command: command}); len(names) > 0 {
						want = names[0].Segment
					}
					rec := recorderName(t, snap, i, command)
					rep := selectorFor(snap, i, gone, command, true)
					sugg := divergenceNames(t, sc.app, n, command)
					div := ""
					for _, s := range sugg {
						if command == "fill" && !snap.Nodes[s.Node].Editable {
							t.Errorf("a fill is offered %s, which is not editable", s.Selector)
						}
						if s.Node == i {
							div = s.Selector
						}
					}
					if !match.Acts(command, n) {
						// Not a target of the command: never suggested.
						if div != "" {
							t.Errorf("%s is offered %s, which it cannot act on", command, div)
						}
						return
					}
					if rec != want || rep != want || div != want {
						t.Errorf("names differ: recorder %q, repair %q, divergence %q, want %q", rec, rep, div, want)
					}
				})
			}
		}
	}
}

func TestHoldsWords(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		old  string
		node drivers.Node
		want bool
	}{
		{"name", drivers.Node{Label: "Full name"}, true},
		{"name", drivers.Node{Label: "Full name:"}, true},
		{"e-mail", drivers.Node{Label: "E-mail address"}, true},
		{"submit", drivers.Node{Label: "Send", ID: "submit"}, true},
		{"submit", drivers.Node{Label: "Send", ID: "btnSubmit"}, true},
		{"sign in", drivers.Node{Label: "Log in", ID: "signin"}, true},
		{"sign in", drivers.Node{Label: "Log in", ID: "sign-in-button"}, true},
		{"sign in", drivers.Node{Label: "Log in", ID: "login"}, false},
		{"name", drivers.Node{Label: "Username"}, false},
		{"create account", drivers.Node{Label: "Sign up", ID: "create"}, false},
		{"save", drivers.Node{Text: "Save now"}, true},
		{"save", drivers.Node{Label: "Saved"}, false},
	} {
		if got := holdsWords(&tc.node, tc.old); got != tc.want {
			t.Errorf("holdsWords(%+v, %q) = %v, want %v", tc.node, tc.old, got, tc.want)
		}
	}
}
