package recorder

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner"
)

// node is a tree row: depth, role, label, id, and optional extras.
type node struct {
	depth              int
	role, label, id    string
	text, value        string
	interactive, edit  bool
	x, y, w, h, handle string
}

// tree builds a snapshot from rows in document order (parents by depth).
func tree(rows ...node) *drivers.Snapshot {
	s := &drivers.Snapshot{}
	var stack []int
	for i, r := range rows {
		for len(stack) > r.depth {
			stack = stack[:len(stack)-1]
		}
		parent := -1
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		s.Nodes = append(s.Nodes, drivers.Node{Role: r.role, Label: r.label, ID: r.id, Text: r.text, Value: r.value,
			Interactive: r.interactive, Editable: r.edit, Visible: true, Enabled: true, Hittable: true,
			Rect: drivers.Rect{X: 10, Y: float64(10 + 40*i), Width: 100, Height: 30}, Parent: parent, Depth: r.depth, Handle: r.handle})
		stack = append(stack, i)
	}
	return s
}

func action(t *testing.T, line string) *lang.Action {
	t.Helper()
	s, errs := lang.ParseAll("t.ad", []byte(line+"\n"))
	if len(errs) > 0 {
		t.Fatalf("%s: %v", line, errs[0])
	}
	return s.Actions[0]
}

// record feeds steps (line, the index of its target in tr, or -1) and
// returns the script.
type step struct {
	line string
	kind lang.TargetKind
	idx  int
	tr   *drivers.Snapshot
	full *drivers.Snapshot
}

func script(t *testing.T, steps ...step) (string, error) {
	t.Helper()
	r := New(Options{Platform: "web"})
	for i, s := range steps {
		if s.full != nil {
			r.Capture(s.full)
		}
		r.add(Step{Step: i + 1, Written: action(t, s.line), Kind: s.kind, Index: s.idx, Tree: s.tr})
	}
	b, err := r.Script()
	return string(b), err
}

var login = tree(
	node{depth: 0, role: "form", label: "Sign in"},
	node{depth: 1, role: "textbox", label: "Email", id: "email", interactive: true, edit: true},
	node{depth: 1, role: "textbox", label: "Password", id: "password", interactive: true, edit: true},
	node{depth: 1, role: "button", label: "Sign in", id: "sign-in", interactive: true},
)

func TestRefsBecomeSelectors(t *testing.T) {
	got, err := script(t,
		step{line: `open "http://x/login.html"`},
		step{line: `snapshot -i`},
		step{line: `fill @e1~s42 "ada@example.com"`, kind: "ref", idx: 1, tr: login},
		step{line: `fill @e2 "${PASSWORD}"`, kind: "ref", idx: 2, tr: login},
		step{line: `get text @e3`, kind: "ref", idx: 3, tr: login},
		step{line: `click @e3`, kind: "ref", idx: 3, tr: login},
		step{line: `wait "text=\"Hello\"" 5000`},
		step{line: `close`},
	)
	if err != nil {
		t.Fatal(err)
	}
	want := `context platform=web device="chromium" theme=unknown
open "http://x/login.html"
# agent-device:target-v1 {"id":"email","role":"textbox","label":"Email","ancestry":[{"role":"form","label":"Sign in"}],"sibling":0,"viewportOrder":0,"rect":{"x":10,"y":50,"width":100,"height":30},"verification":"verified"}
fill "id=\"email\" editable=true || role=\"textbox\" label=\"Email\" editable=true || label=\"Email\" editable=true" "ada@example.com"
# agent-device:target-v1 {"id":"password","role":"textbox","label":"Password","ancestry":[{"role":"form","label":"Sign in"}],"sibling":1,"viewportOrder":0,"rect":{"x":10,"y":90,"width":100,"height":30},"verification":"verified"}
fill "id=\"password\" editable=true || role=\"textbox\" label=\"Password\" editable=true || label=\"Password\" editable=true" "${PASSWORD}"
# agent-device:target-v1 {"id":"sign-in","role":"button","label":"Sign in","ancestry":[{"role":"form","label":"Sign in"}],"sibling":2,"viewportOrder":0,"rect":{"x":10,"y":130,"width":100,"height":30},"verification":"verified"}
click "id=\"sign-in\" || role=\"button\" label=\"Sign in\""
wait "text=\"Hello\"" 5000
close
`
	if got != want {
		t.Fatalf("script:\n%s\nwant:\n%s", got, want)
	}
	// The script parses back, without refs or pins, and checks clean.
	s, errs := lang.ParseAll("rec.ad", []byte(got))
	if len(errs) > 0 {
		t.Fatal(errs[0])
	}
	if regexp.MustCompile(`@e\d|~s\d`).MatchString(got) {
		t.Fatal("a ref or a pin reached the script")
	}
	// Canonical: each parsed action formats back to the lines it came from.
	var again strings.Builder
	again.WriteString(strings.SplitAfter(got, "\n")[0])
	for _, a := range s.Actions {
		again.WriteString(lang.FormatAction(a) + "\n")
	}
	if again.String() != got {
		t.Fatalf("the script does not format back to itself:\n%s", again.String())
	}
	for _, d := range lang.Check(s, got, lang.CheckOptions{Vars: map[string]string{"PASSWORD": "x"}}) {
		t.Errorf("check: %s", d.Format("rec.ad"))
	}
}

func TestDuplicateLabels(t *testing.T) {
	rows := tree(
		node{depth: 0, role: "list", label: "Cart"},
		node{depth: 1, role: "button", label: "Remove", id: "rm-1", interactive: true},
		node{depth: 1, role: "button", label: "Remove", interactive: true},
		node{depth: 1, role: "button", label: "Remove", id: "dup", interactive: true},
		node{depth: 1, role: "button", label: "Remove", id: "dup", interactive: true},
	)
	// A unique id wins; the shared label is not a candidate.
	got, err := script(t, step{line: `click @e2`, kind: "ref", idx: 1, tr: rows})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "\nclick \"id=\\\"rm-1\\\"\"\n") {
		t.Fatalf("want the unique id alone:\n%s", got)
	}
	// No unique selector (no id; an id shared by two nodes is demoted): refused, naming the step.
	for _, idx := range []int{2, 3} {
		_, err = script(t, step{line: `open x`}, step{line: `click @e3`, kind: "ref", idx: idx, tr: rows})
		var ei *runner.ErrorInfo
		if !errors.As(err, &ei) || ei.Reason != "unrecordable_step" || ei.Step != 2 || !strings.Contains(ei.Message, `step 2 "click @e3"`) {
			t.Fatalf("node %d: want a refusal naming step 2, got %v", idx, err)
		}
	}
}

func TestFullTreeDecidesUniqueness(t *testing.T) {
	// The ref came from snapshot -i (interactive nodes only); in the full tree
	// a heading shares the button's label, so label= alone would be
	// ambiguous on replay and is dropped; role+label stays.
	inter := tree(node{depth: 0, role: "button", label: "Checkout", interactive: true, handle: "h:2"})
	full := tree(
		node{depth: 0, role: "main"},
		node{depth: 1, role: "heading", label: "Checkout", handle: "h:1"},
		node{depth: 1, role: "button", label: "Checkout", interactive: true, handle: "h:2"},
	)
	got, err := script(t, step{line: `click @e1`, kind: "ref", idx: 0, tr: inter, full: full})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "\nclick \"role=\\\"button\\\" label=\\\"Checkout\\\"\"\n") || !strings.Contains(got, `"ancestry":[{"role":"main"}]`) {
		t.Fatalf("want role+label only, evidence from the full tree:\n%s", got)
	}
}

func TestContainerRetargeting(t *testing.T) {
	rows := tree(
		node{depth: 0, role: "list"},
		node{depth: 1, role: "cell", interactive: true},
		node{depth: 2, role: "text", text: "Blue shirt"},
		node{depth: 1, role: "cell", interactive: true},
		node{depth: 2, role: "text", text: "Red shirt"},
	)
	// Rect of the text must lie in the cell: make the cell cover it.
	rows.Nodes[1].Rect = drivers.Rect{X: 0, Y: 0, Width: 400, Height: 200}
	got, err := script(t, step{line: `click @e1`, kind: "ref", idx: 1, tr: rows})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "\nclick \"text=\\\"Blue shirt\\\"\"\n") {
		t.Fatalf("want the click recorded on the labelled descendant:\n%s", got)
	}
}

func TestMaskedLiteralNeverWritten(t *testing.T) {
	r := New(Options{Platform: "web"})
	r.Mask("hunter2")
	rows := tree(node{depth: 0, role: "textbox", label: "PIN", value: "hunter2", interactive: true, edit: true})
	r.add(Step{Step: 1, Written: action(t, `fill @e1 "${PIN}"`), Kind: "ref", Index: 0, Tree: rows})
	b, err := r.Script()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "hunter2") || !strings.Contains(string(b), `"${PIN}"`) {
		t.Fatalf("script:\n%s", b)
	}
}

func TestFailedAndAbortedSteps(t *testing.T) {
	r := New(Options{Platform: "web"})
	r.add(Step{Step: 1, Written: action(t, `click @e9`), Failed: true})
	if _, err := r.Script(); err != nil {
		t.Fatalf("a failed step is not recorded: %v", err)
	}
	r.Abort("a second open")
	if _, err := r.Script(); err == nil || !strings.Contains(err.Error(), "aborted") {
		t.Fatalf("want aborted, got %v", err)
	}
}

func TestWriteFileExclusive(t *testing.T) {
	p := filepath.Join(t.TempDir(), "sub", "flow.ad")
	if err := WriteFile(p, []byte("a\n"), false); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(p, []byte("b\n"), false); !errors.Is(err, os.ErrExist) {
		t.Fatalf("want ErrExist, got %v", err)
	}
	if err := WriteFile(p, []byte("c\n"), true); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	if string(b) != "c\n" {
		t.Fatalf("got %q", b)
	}
	ents, _ := os.ReadDir(filepath.Dir(p))
	if len(ents) != 1 {
		t.Fatalf("temp files left: %v", ents)
	}
}

func TestWaitAndLongpressRefs(t *testing.T) {
	got, err := script(t,
		step{line: `wait @e3 5000`, kind: "ref", idx: 3, tr: login},
		step{line: `longpress @e3~s7 "Sign in" 900`, kind: "ref", idx: 3, tr: login},
		step{line: `click 10 20`, kind: "point", idx: -1},
		step{line: `scroll down 0.5`},
		step{line: `is visible "id=sign-in"`},
	)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"\nwait \"id=\\\"sign-in\\\" || role=\\\"button\\\" label=\\\"Sign in\\\"\" 5000\n",
		"\nlongpress \"id=\\\"sign-in\\\" || role=\\\"button\\\" label=\\\"Sign in\\\"\" 900\n",
		"\nclick 10 20\n",
		"\nscroll down 0.5\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("want %q in:\n%s", want, got)
		}
	}
	if strings.Contains(got, "is visible") {
		t.Errorf("a read was recorded:\n%s", got)
	}
}

// Record reads the step's binding from the journal entry when the step ran
// the action as written, and binds the written action itself when
// interpolation changed it (its ${NAME} must be written, not the value).
func TestRecordReadsTheJournalsBinding(t *testing.T) {
	rows := tree(node{depth: 0, role: "textbox", label: "PIN", id: "pin", interactive: true, edit: true})
	res := &runner.Resolution{Kind: lang.TargetRef, Index: 0, Tree: rows}
	w := action(t, `fill @e1 "1234"`)
	given, err := lang.Bind(w)
	if err != nil {
		t.Fatal(err)
	}
	ta := given.(lang.TargetArgs)
	ta.Text, ta.Tail = "from the journal", []string{"from the journal"}

	r := New(Options{Platform: "web"})
	r.Record(runner.JournalEntry{Written: w, Bound: w, Args: ta, Resolution: res})
	written := action(t, `fill @e1 "${PIN}"`)
	bound := action(t, `fill @e1 "1234"`)
	r.Record(runner.JournalEntry{Written: written, Bound: bound, Args: ta, Resolution: res})
	b, err := r.Script()
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	if !strings.Contains(got, `"from the journal"`) || !strings.Contains(got, `"${PIN}"`) || strings.Contains(got, "1234") {
		t.Fatalf("script:\n%s", got)
	}
}
