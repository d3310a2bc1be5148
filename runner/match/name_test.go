package match

import (
	"fmt"
	"testing"

	"github.com/adtest/adtest/drivers"
)

// form: a form named like its field, the field, a button that shows an
// icon, and a text.
func form() *drivers.Snapshot {
	return &drivers.Snapshot{Nodes: []drivers.Node{
		{Role: "form", Label: "Name", Parent: -1},
		{Role: "textbox", Label: "Name", ID: "name", Editable: true, Interactive: true, Parent: 0, Depth: 1},
		{Role: "button", Text: "💾", ID: "save", Interactive: true, Parent: 0, Depth: 1},
		{Role: "text", Text: "Name required", Parent: 0, Depth: 1},
	}}
}

func TestNames(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		snap    *drivers.Snapshot
		node    int
		command string
		want    string
	}{
		{"an id first, then role+label; label alone is not unique", form(), 1, "click", `[{id="name" id} {role="textbox" label="Name" role-label}]`},
		{"a fill's names say editable=true", form(), 1, "fill", `[{id="name" editable=true id} {role="textbox" label="Name" editable=true role-label} {label="Name" editable=true label}]`},
		{"a shared label names neither", tree(), 3, "click", `[]`},
		{"the form: role+label only", form(), 0, "click", `[{role="form" label="Name" role-label}]`},
		{"text when no label", form(), 3, "click", `[{text="Name required" text}]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := fmt.Sprint(Names([]Place{{tc.snap, tc.node}}, Naming{Command: tc.command}))
			if got != tc.want {
				t.Fatalf("Names = %s, want %s", got, tc.want)
			}
		})
	}
}

// TestSuggestOffersWhatTheCommandActsOn: a failed fill is offered the
// editable field, never the form that shares its name; a click the
// actionable elements; a read any element.
func TestSuggestOffersWhatTheCommandActsOn(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ command, want string }{
		{"fill", `[{id Name textbox id="name" editable=true 1}]`},
		{"click", `[{id Name textbox id="name" 1}]`},
		{"get", `[{id Name textbox id="name" 1} {role-label Name form role="form" label="Name" 0} {other  text text="Name required" 3}]`},
	} {
		if got := fmt.Sprint(Suggest(form(), tc.command, "name", 5)); got != tc.want {
			t.Errorf("%s: Suggest = %s, want %s", tc.command, got, tc.want)
		}
	}
}
