package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
)

const richScreens = `
open shop -> catalog
screen catalog "Catalog"
  heading "Products"
  group
    text "Total: 3"
    list "Items"
      cell "Coffee" id=coffee -> goto detail
      cell "Tea" id=tea selected
      cell "Cocoa" id=cocoa disabled
  textbox "Search" id=search editable value="beans"
  button "Checkout" id=checkout
  button "Buy" id=buy1
  button "Buy" id=buy2
  group "Pay" id=paywrap
    button "Pay" id=pay
screen detail "Detail"
  button "Back" -> goto catalog
`

func golden(t *testing.T) *goldie.Goldie {
	return goldie.New(t, goldie.WithFixtureDir("testdata"), goldie.WithNameSuffix(".golden"))
}

// Snapshot text and JSON rendering: one node per line, refs in document
// order over printed nodes, refsGeneration once at the top of JSON.
func TestSnapshotRendering(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		line string
	}{
		{"full", "snapshot"},
		{"interactive", "snapshot -i"},
		{"raw", "snapshot --raw"},
		{"depth2", "snapshot -d 2"},
		{"scope-label", `snapshot -s "Items"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, richScreens)
			e.must(t, "open shop")
			out := e.must(t, tc.line)
			golden(t).Assert(t, "snapshot-"+tc.name, []byte(out.Text))
		})
	}
	e := newEnv(t, richScreens)
	e.must(t, "open shop")
	snap := e.sess.LastSnapshot()
	if snap == nil {
		e.must(t, "snapshot -i")
		snap = e.sess.LastSnapshot()
	}
	b, err := FormatSnapshotJSON(snap, drivers.SnapshotOptions{Interactive: true}, 42)
	if err != nil {
		t.Fatal(err)
	}
	golden(t).Assert(t, "snapshot-interactive-json", b)
	if n := strings.Count(string(b), "refsGeneration"); n != 1 {
		t.Fatalf("refsGeneration appears %d times", n)
	}
	if got := FormatSnapshotText(snap, drivers.SnapshotOptions{Interactive: true}); !strings.HasPrefix(got, "@e1 [cell] \"Coffee\" id=\"coffee\"\n") {
		t.Fatalf("FormatSnapshotText: %q", got)
	}
}

// Design.md: a page whose only interactive elements are a link and then a
// button prints them as @e1 and @e2.
func TestRefNumberingDesignExample(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "open * -> p\nscreen p\n  heading \"Title\"\n  text \"Intro\"\n  link \"More\"\n  group\n    button \"Go\"\n")
	e.must(t, "open x")
	out := e.must(t, "snapshot -i")
	if out.Text != "@e1 [link] \"More\"\n@e2 [button] \"Go\"\n" {
		t.Fatalf("got %q", out.Text)
	}
}

func TestSelectorResolution(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, line, reason, code string
		tapped                   string
	}{
		{"label case and whitespace", `click "label=\"  coffee \""`, "", "", "coffee"},
		{"text= uses label", `click "text=Tea"`, "", "", "tea"},
		{"role alias", `click "role=cell label=Tea"`, "", "", "tea"},
		{"fallback segment", `click "id=nope || id=checkout"`, "", "", "checkout"},
		{"boolean key", `click "role=cell selected"`, "", "", "tea"},
		{"ambiguous fails", `click "label=Buy"`, "ambiguous_match", "AMBIGUOUS_MATCH", ""},
		{"ambiguous then unique fallback", `click "label=Buy || id=buy2"`, "", "", "buy2"},
		{"wrapper chain is one target", `click "label=Pay"`, "", "", "pay"},
		{"no match", `click "label=Tee"`, "selector_not_found", "COMMAND_FAILED", ""},
		{"value key", `fill "value=beans" cocoa`, "", "", "search"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, richScreens)
			e.sess.cfg.ReadinessTimeout = -1
			e.must(t, "open shop")
			_, err := e.run(t, tc.line)
			if tc.reason != "" {
				if err == nil || string(err.Reason) != tc.reason || err.Code != tc.code {
					t.Fatalf("got %+v", err)
				}
				if len(e.dev.Mutations()) != 1 {
					t.Fatal("a failed resolution dispatched")
				}
				return
			}
			if err != nil {
				t.Fatalf("%s: %v", tc.line, err)
			}
			ops := e.dev.Ops()
			last := ops[len(ops)-1]
			if last.Element != tc.tapped || len(e.dev.Mutations()) != 2 {
				t.Fatalf("acted on %q (%v), want %q", last.Element, ops, tc.tapped)
			}
		})
	}
}

// AMBIGUOUS_MATCH lists candidates pinned and issues them as a partial frame.
func TestAmbiguousCandidatesArePublished(t *testing.T) {
	t.Parallel()
	e := newEnv(t, richScreens)
	e.must(t, "open shop")
	_, err := e.run(t, `click "label=Buy"`)
	if err == nil || err.Code != "AMBIGUOUS_MATCH" {
		t.Fatalf("got %+v", err)
	}
	cands := err.Details["candidates"].([]map[string]any)
	if len(cands) != 2 {
		t.Fatalf("candidates %v", cands)
	}
	ref := cands[1]["ref"].(string)
	if !strings.Contains(ref, "~s") {
		t.Fatalf("candidate ref %q not pinned", ref)
	}
	e.must(t, "click "+ref)
	if ops := e.dev.Ops(); ops[len(ops)-1].Kind != "tap" || !strings.Contains(ops[len(ops)-1].Target, "Buy") {
		t.Fatalf("ops %v", ops[len(ops)-1])
	}
}

func TestFind(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		line, want, reason string
	}{
		{`find "coff" get text`, "Coffee", ""},
		{`find label Tea exists`, "", ""},
		{`find id checkout get attrs`, `"id":"checkout"`, ""},
		{`find "id=tea" exists`, "", ""},
		{`find "Nothing" exists`, "", "predicate_failed"},
		{`find "Nothing" wait 300`, "", "wait_target_absent"},
		{`find Search fill "dark roast"`, "find fill", ""},
		{`find "Coffee" jump`, "", "invalid_args"},
	} {
		t.Run(tc.line, func(t *testing.T) {
			e := newEnv(t, richScreens)
			e.must(t, "open shop")
			e.expect(t, tc.line, tc.want, tc.reason)
		})
	}
}

func TestScrollUntil(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("open long -> long\nscreen long\n")
	for i := 1; i <= 40; i++ {
		b.WriteString("  button \"Row " + strings.Repeat("x", 0) + itoa(i) + "\"\n")
	}
	e := newEnv(t, b.String())
	e.must(t, "open long")
	e.must(t, "snapshot")
	gen := e.sess.RefsGeneration()
	out := e.must(t, `scroll down --until "label=\"Row 30\""`)
	if e.sess.RefsGeneration() != gen+1 || e.sess.frame.IsActive() {
		t.Fatalf("scroll --until: epoch %d -> %d, want one expiry", gen, e.sess.RefsGeneration())
	}
	if out.Text != `Scrolled down 2 time(s) until label="Row 30"` || e.dev.Count("scroll") != 2 {
		t.Fatalf("%q scrolls %d", out.Text, e.dev.Count("scroll"))
	}
	e.must(t, `scroll down --until "label=\"Row 30\""`)
	if e.dev.Count("scroll") != 2 {
		t.Fatal("scrolled although the target was visible")
	}
	if _, err := e.run(t, `scroll down --until "label=\"Row 99\""`); err == nil || err.Reason != "selector_not_found" {
		t.Fatalf("got %+v", err)
	}
}

func itoa(i int) string {
	return strings.TrimSpace(strings.Repeat(" ", 0) + string(rune('0'+i/10)) + string(rune('0'+i%10)))
}

func TestScreenshotPaths(t *testing.T) {
	e := newEnv(t, loginScreens)
	e.must(t, "open demo")
	out := e.must(t, "screenshot shots/a.png")
	want := filepath.Join(e.sess.cfg.ArtifactsDir, "shots", "a.png")
	if out.Text != want {
		t.Fatalf("path %q, want %q", out.Text, want)
	}
	if b, err := os.ReadFile(want); err != nil || string(b[1:4]) != "PNG" {
		t.Fatalf("not a PNG: %v", err)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	e.sess.cfg.ArtifactsDir = ""
	out = e.must(t, "screenshot")
	if out.Text != "screenshot-2.png" {
		t.Fatalf("default path %q", out.Text)
	}
	if _, err := os.Stat(filepath.Join(dir, "screenshot-2.png")); err != nil {
		t.Fatal(err)
	}
}

func TestMiscLeaves(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		line, text, reason string
	}{
		{"appstate", "url: login", ""},
		{"get attrs id=email", `"id":"email"`, ""},
		{"get text id=email", "Email", ""},
		{"gesture rotate 30", "", "unsupported_operation"},
		{"gesture pan 1 2", "", "invalid_args"},
		{"keyboard spin", "", "invalid_args"},
		{"alert get", "no alert", ""},
		{"viewport 0 10", "", "invalid_args"},
		{"scroll sideways", "", "invalid_args"},
		{"swipe 1 2 3", "", "invalid_args"},
	} {
		t.Run(tc.line, func(t *testing.T) {
			e := newEnv(t, loginScreens)
			e.must(t, "open demo")
			e.expect(t, tc.line, tc.text, tc.reason)
		})
	}
	e := newEnv(t, loginScreens)
	if _, err := e.sess.Dispatch(context.Background(), &lang.Action{Command: "frobnicate"}); err == nil || err.Code != "INVALID_ARGS" {
		t.Fatalf("unknown command: %+v", err)
	}
	e.must(t, "open demo")
	e.must(t, "close")
	if _, err := e.run(t, "snapshot"); err == nil || err.Code != "SESSION_NOT_FOUND" {
		t.Fatalf("after close: %+v", err)
	}
}

// A part (words in an element of their own inside a text node) is found by
// text= but not printed and given no ref: the text node shows its words,
// and the refs after it keep their numbers.
func TestSnapshotDoesNotPrintParts(t *testing.T) {
	t.Parallel()
	snap := &drivers.Snapshot{Nodes: []drivers.Node{
		{Role: "text", Text: "... a fragmented slide.", Label: "... a fragmented slide.", Parent: -1, Visible: true},
		{Role: "text", Text: "fragmented", Label: "fragmented", Parent: 0, Depth: 1, Visible: true, Part: true},
		{Role: "button", Label: "Next", Parent: -1, Visible: true, Enabled: true, Interactive: true},
	}}
	want := "@e1 [text] \"... a fragmented slide.\"\n@e2 [button] \"Next\"\n"
	if got := FormatSnapshotText(snap, drivers.SnapshotOptions{}); got != want {
		t.Errorf("snapshot:\n%s\nwant:\n%s", got, want)
	}
	if got := FormatSnapshotText(snap, drivers.SnapshotOptions{Raw: true}); got != want {
		t.Errorf("raw snapshot:\n%s\nwant:\n%s", got, want)
	}
	// A scope by a part's words is its text node's.
	if got, want := FormatSnapshotText(snap, drivers.SnapshotOptions{Scope: "fragmented"}), "@e1 [text] \"... a fragmented slide.\"\n"; got != want {
		t.Errorf("scoped snapshot:\n%s\nwant:\n%s", got, want)
	}
}

// What the driver cannot see inside a node (a closed shadow root, another
// origin's frame) is said on its line (issue 34, bad input).
func TestSnapshotSaysWhatItCannotSee(t *testing.T) {
	t.Parallel()
	snap := &drivers.Snapshot{Nodes: []drivers.Node{
		{Role: "generic", ID: "vault", Parent: -1, Visible: true, Unseen: "closed shadow root"},
		{Role: "iframe", Label: "Payment", ID: "pay", Parent: -1, Visible: true, Unseen: "cross-origin frame (http://127.0.0.2:8080)"},
	}}
	want := "@e1 [generic] id=\"vault\" [closed shadow root: adtest cannot see inside]\n" +
		"@e2 [iframe] \"Payment\" id=\"pay\" [cross-origin frame (http://127.0.0.2:8080): adtest cannot see inside]\n"
	if got := FormatSnapshotText(snap, drivers.SnapshotOptions{}); got != want {
		t.Errorf("snapshot:\n%s\nwant:\n%s", got, want)
	}
	if got, want := unseenNote(snap), `; adtest cannot see inside a closed shadow root at generic id="vault", a cross-origin frame (http://127.0.0.2:8080) at iframe "Payment" id="pay"`; got != want {
		t.Errorf("miss note %q, want %q", got, want)
	}
	if got := unseenNote(&drivers.Snapshot{Nodes: snap.Nodes[:0]}); got != "" {
		t.Errorf("miss note of a page seen whole: %q", got)
	}
}
