package match

import (
	"fmt"
	"testing"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
)

// tree: a toolbar "Editor" holding a group that wraps a Save button, and two
// "Open" buttons side by side.
func tree() *drivers.Snapshot {
	return &drivers.Snapshot{Nodes: []drivers.Node{
		{Role: "toolbar", Label: "Editor", Parent: -1},
		{Role: "group", Label: "Save", Parent: 0, Depth: 1},
		{Role: "XCUIElementTypeButton", Label: " save ", ID: "save", Interactive: true, Parent: 1, Depth: 2},
		{Role: "button", Label: "Open", Interactive: true, Parent: 0, Depth: 1},
		{Role: "button", Label: "Open", Interactive: true, Parent: 0, Depth: 1},
	}}
}

// chain binds a selector the way a step does (is exists <selector>).
func chain(t *testing.T, s string) *lang.SelectorChain {
	t.Helper()
	args, err := lang.Bind(&lang.Action{Command: "is", Positionals: []string{"exists", s}})
	if err != nil {
		t.Fatal(err)
	}
	return args.(lang.IsArgs).Selector
}

func TestResolve(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		selector string
		mutating bool
		want     string // fmt of the Result
	}{
		{"unique id", "id=save", true, "{2 false [] [id=save -> 1]}"},
		{"wrapper chain resolves a mutation to the interactive member", "label=save", true, "{2 false [] [label=save -> 2]}"},
		{"a read does not walk the wrapper chain", "label=save", false, "{-1 true [1 2] [label=save -> 2]}"},
		{"siblings are ambiguous", "label=Open", true, "{-1 true [3 4] [label=Open -> 2]}"},
		{"the next segment is tried", "label=Close || role=toolbar", true, "{0 false [] [label=Close -> 0 role=toolbar -> 1]}"},
		{"no match", "role=link", true, "{-1 false [] [role=link -> 0]}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := Resolve(tree(), chain(t, tc.selector), tc.mutating)
			if r.Candidates == nil {
				r.Candidates = []int{}
			}
			if got := fmt.Sprint(r); got != tc.want {
				t.Fatalf("Resolve(%s) = %s, want %s", tc.selector, got, tc.want)
			}
		})
	}
}

func TestHasIdentity(t *testing.T) {
	t.Parallel()
	snap := tree()
	for _, tc := range []struct {
		name string
		node int
		ev   lang.TargetEvidence
		want bool
	}{
		{"id and ancestry", 2, lang.TargetEvidence{ID: "save", Role: "button", Ancestry: []lang.AncestorEntry{{Role: "group"}, {Role: "toolbar", Label: "editor"}}}, true},
		{"role and label without id (roles normalised)", 2, lang.TargetEvidence{Role: "button", Label: "Save"}, true},
		{"another id", 2, lang.TargetEvidence{ID: "open", Role: "button"}, false},
		{"ancestry deeper than the tree", 3, lang.TargetEvidence{Role: "button", Label: "Open", Ancestry: []lang.AncestorEntry{{Role: "toolbar"}, {Role: "window"}}}, false},
		{"ancestry label differs", 2, lang.TargetEvidence{ID: "save", Role: "button", Ancestry: []lang.AncestorEntry{{Role: "group", Label: "Load"}}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := HasIdentity(snap, tc.node, &tc.ev); got != tc.want {
				t.Fatalf("HasIdentity = %v, want %v", got, tc.want)
			}
		})
	}
	if SiblingIndex(snap, 4) != 2 || SiblingIndex(snap, 3) != 1 || SiblingIndex(snap, 2) != 0 {
		t.Fatalf("sibling indexes %d %d %d", SiblingIndex(snap, 4), SiblingIndex(snap, 3), SiblingIndex(snap, 2))
	}
}

// TestTextMatchesNameAndWords: text= finds a control by its name (the first
// non-empty of label, value, id) and by the words it shows (issue 16: a
// button named "Remove Buy milk" that shows "×").
func TestTextMatchesNameAndWords(t *testing.T) {
	t.Parallel()
	snap := &drivers.Snapshot{Nodes: []drivers.Node{
		{Role: "button", Label: "Remove Buy milk", Text: "×", Parent: -1},
		{Role: "link", Label: "More about pricing", Text: "Read more", Parent: -1},
		{Role: "textbox", Value: "typed", ID: "q", Parent: -1},
	}}
	for _, tc := range []struct {
		selector string
		want     []int
	}{
		{"text=×", []int{0}},
		{`text="remove buy milk"`, []int{0}},
		{`text="Read more"`, []int{1}},
		{`text="More about pricing"`, []int{1}},
		{"text=typed", []int{2}},
		{"text=q", nil}, // the value comes first: the id is not the text
		{"text=Remove", nil},
	} {
		if got := Exists(snap, chain(t, tc.selector)); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s matches %v, want %v", tc.selector, got, tc.want)
		}
	}
}

// TestRoleImageIsImg: ARIA 1.3 calls img image (Chromium's accessibility
// tree does); a selector may say either (issue 34).
func TestRoleImageIsImg(t *testing.T) {
	t.Parallel()
	snap := &drivers.Snapshot{Nodes: []drivers.Node{{Role: "img", Label: "Logo", Parent: -1}}}
	for _, s := range []string{"role=img label=Logo", "role=image label=Logo"} {
		if got := Exists(snap, chain(t, s)); fmt.Sprint(got) != "[0]" {
			t.Errorf("%s matches %v, want [0]", s, got)
		}
	}
}
