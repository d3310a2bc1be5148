package fake

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers"
)

type stepClock struct{ now time.Time }

func (c *stepClock) Now() time.Time { return c.now }

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"element outside screen", "  button \"A\"\n", "s.txt:1: element outside a screen"},
		{"unknown directive", "screen a\nbogus x\n", `s.txt:2: unknown directive "bogus" (want screen, open, viewport, fail or hang; elements must be indented under a screen)`},
		{"unknown screen in goto", "screen a\n  button \"A\" -> goto b\n", `s.txt:2: unknown screen "b"`},
		{"unknown screen in open", "screen a\nopen x -> b\n", `s.txt:2: unknown screen "b"`},
		{"bad rect", "screen a\n  button rect=1,2,3\n", `s.txt:2: rect needs x,y,w,h, got "1,2,3"`},
		{"bad after", "screen a\n\n  button after=soon\n", `s.txt:3: after needs a duration like 500ms, got "soon"`},
		{"unknown flag", "screen a\n  button shiny\n", `s.txt:2: unknown element flag "shiny"`},
		{"unterminated quote", "screen a\n  button \"A\n", "s.txt:2: unterminated quote"},
		{"duplicate screen", "screen a\nscreen a\n", `s.txt:2: duplicate screen "a"`},
		{"bad effect", "screen a\n  button -> explode now\n", `s.txt:2: unknown effect "explode" (want goto, alert or set)`},
		{"bad times", "screen a\nfail tap times=0\n", `s.txt:2: times= needs a positive integer, got "0"`},
		{"empty", "# nothing\n", "s.txt: no screen declared"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseScreens("s.txt", tc.src)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("got %v\nwant %s", err, tc.want)
			}
		})
	}
}

const demo = `
viewport 300 200
open app -> home
open * -> other
screen home "Home"
  group "Form"
    textbox "Name" id=name editable
    button "Save" id=save -> set "saved", alert "Saved!"
  button "Next" id=next -> goto second
  button "Later" after=1s
  button "Flaky" id=flaky from-session=2
  text "Off screen" rect=0,500,100,20
screen second
  button "Back" -> goto home
screen other
  text "Other"
`

func labels(s *drivers.Snapshot) string {
	var out []string
	for _, n := range s.Nodes {
		out = append(out, n.Label)
	}
	return strings.Join(out, ",")
}

func TestDeviceBehaviour(t *testing.T) {
	ctx := context.Background()
	sc, err := ParseScreens("demo", demo)
	if err != nil {
		t.Fatal(err)
	}
	clock := &stepClock{now: time.Unix(100, 0)}
	d := New(sc, Options{Clock: clock})
	if err := d.Open(ctx, drivers.OpenRequest{Target: "app"}); err != nil {
		t.Fatal(err)
	}
	snap, _ := d.Snapshot(ctx, drivers.SnapshotOptions{})
	if got := labels(snap); got != "Form,Name,Save,Next,Off screen" {
		t.Fatalf("before 1s: %q", got)
	}
	if snap.Nodes[1].Parent != 0 || snap.Nodes[1].Depth != 1 || !snap.Nodes[1].Editable || !snap.Nodes[1].Interactive || snap.Nodes[0].Interactive {
		t.Fatalf("node model %+v", snap.Nodes[:2])
	}
	if off := snap.Nodes[4]; off.Label != "Off screen" || off.Visible || !off.Hidden {
		t.Fatalf("off-screen node %+v", off)
	}
	clock.now = clock.now.Add(time.Second)
	snap, _ = d.Snapshot(ctx, drivers.SnapshotOptions{})
	if got := labels(snap); got != "Form,Name,Save,Next,Later,Off screen" {
		t.Fatalf("after 1s: %q", got)
	}
	save := snap.Nodes[2]
	if err := d.Act(ctx, drivers.Action{Kind: drivers.ActTap, Target: &drivers.Target{Node: &save, Point: save.Rect.Center()}}); err != nil {
		t.Fatal(err)
	}
	if text, open, _ := d.AlertText(ctx); !open || text != "Saved!" {
		t.Fatalf("alert %q %v", text, open)
	}
	snap, _ = d.Snapshot(ctx, drivers.SnapshotOptions{})
	if snap.Nodes[2].Value != "saved" {
		t.Fatalf("set effect: %+v", snap.Nodes[2])
	}
	name := snap.Nodes[1]
	if err := d.Act(ctx, drivers.Action{Kind: drivers.ActFill, Target: &drivers.Target{Node: &name}, Text: "Ada"}); err != nil {
		t.Fatal(err)
	}
	if err := d.Act(ctx, drivers.Action{Kind: drivers.ActType, Text: " L"}); err != nil {
		t.Fatal(err)
	}
	snap, _ = d.Snapshot(ctx, drivers.SnapshotOptions{})
	if snap.Nodes[1].Value != "Ada L" || !snap.Nodes[1].Focused {
		t.Fatalf("fill+type: %+v", snap.Nodes[1])
	}
	// Tap by point: Next is the 4th row (y 132..176).
	if err := d.Act(ctx, drivers.Action{Kind: drivers.ActTap, Target: &drivers.Target{Point: drivers.Point{X: 10, Y: 140}}}); err != nil {
		t.Fatal(err)
	}
	if d.Screen() != "second" {
		t.Fatalf("screen %q", d.Screen())
	}
	if err := d.Act(ctx, drivers.Action{Kind: drivers.ActBack}); err != nil || d.Screen() != "home" {
		t.Fatalf("back: %v %q", err, d.Screen())
	}
	counts := d.Counts()
	if counts["tap"] != 2 || counts["fill"] != 1 || counts["snapshot"] != 4 || counts["open"] != 1 || len(d.Mutations()) != 6 {
		t.Fatalf("counts %v mutations %d", counts, len(d.Mutations()))
	}
	if err := d.Act(ctx, drivers.Action{Kind: "teleport"}); !errors.Is(err, drivers.ErrUnsupported) {
		t.Fatalf("unsupported: %v", err)
	}
	if tail := d.LogTail(2); len(tail) != 2 || !strings.HasPrefix(tail[1], "teleport") {
		t.Fatalf("log tail %q", tail)
	}
	if err := d.Open(ctx, drivers.OpenRequest{Target: "elsewhere"}); err != nil || d.Screen() != "other" {
		t.Fatalf("default open: %v %q", err, d.Screen())
	}
}

func TestPreflight(t *testing.T) {
	ctx := context.Background()
	sc, _ := ParseScreens("p", "open * -> a\nscreen a\n  button \"Off\" disabled\n  text \"Label\" rect=0,900,10,10\n  button \"Gone\" hidden\n")
	d := New(sc, Options{})
	_ = d.Open(ctx, drivers.OpenRequest{Target: "x"})
	snap, _ := d.Snapshot(ctx, drivers.SnapshotOptions{})
	for i, want := range []string{"target_disabled", "target_not_visible", "target_not_visible"} {
		n := snap.Nodes[i]
		err := d.Preflight(ctx, drivers.Action{Kind: drivers.ActTap, Target: &drivers.Target{Node: &n, Describe: n.Label}})
		var te *drivers.TargetError
		if !errors.As(err, &te) || string(te.Reason) != want {
			t.Fatalf("node %d: %v, want %s", i, err, want)
		}
	}
	if len(d.Mutations()) != 1 {
		t.Fatal("preflight counted as a mutation")
	}
}

func TestFaults(t *testing.T) {
	ctx := context.Background()
	sc, err := ParseScreens("f", "open * -> a\nscreen a\n  button \"A\"\nfail tap times=2 \"boom\"\nhang fill\n")
	if err != nil {
		t.Fatal(err)
	}
	d := New(sc, Options{})
	_ = d.Open(ctx, drivers.OpenRequest{Target: "x"})
	var errs []string
	for i := 0; i < 3; i++ {
		if err := d.Act(ctx, drivers.Action{Kind: drivers.ActTap}); err != nil {
			errs = append(errs, err.Error())
		} else {
			errs = append(errs, "ok")
		}
	}
	if strings.Join(errs, ",") != "boom,boom,ok" {
		t.Fatalf("tap results %v", errs)
	}
	cctx, cancel := context.WithTimeout(ctx, 10*time.Millisecond)
	defer cancel()
	if err := d.Act(cctx, drivers.Action{Kind: drivers.ActFill}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("hang: %v", err)
	}
	if d.Count("tap") != 3 || d.Count("fill") != 1 {
		t.Fatalf("counts %v", d.Counts())
	}
}

// The provider numbers sessions: a from-session=2 element is absent in the
// first session and present from the second (flaky scenarios).
func TestProviderSessions(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "screens.txt")
	if err := os.WriteFile(path, []byte(demo), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := LoadProvider(path)
	if err != nil {
		t.Fatal(err)
	}
	var got []bool
	for i := 0; i < 2; i++ {
		drv, err := p.NewSession(ctx, drivers.SessionOptions{Worker: i})
		if err != nil {
			t.Fatal(err)
		}
		_ = drv.Open(ctx, drivers.OpenRequest{Target: "app"})
		snap, _ := drv.Snapshot(ctx, drivers.SnapshotOptions{})
		got = append(got, strings.Contains(labels(snap), "Flaky"))
	}
	if got[0] || !got[1] || len(p.Devices()) != 2 {
		t.Fatalf("flaky presence by session %v", got)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := p.NewSession(ctx, drivers.SessionOptions{}); !errors.Is(err, drivers.ErrInfrastructure) {
		t.Fatalf("closed provider: %v", err)
	}
	if _, err := LoadProvider(filepath.Join(t.TempDir(), "missing.txt")); err == nil {
		t.Fatal("missing file loaded")
	}
}

// FuzzParseScreens: the screens parser never panics, and every error names
// the file and, for line errors, the line.
func FuzzParseScreens(f *testing.F) {
	f.Add(demo)
	f.Add("screen a\n  button \"x\" rect=1,2,3,4 after=1s from-session=2 -> on fill goto a, set \"v\"\nfail tap times=1\n")
	f.Add("open * -> a\nscreen a\n\tgroup\n\t\tbutton \"\\u00e9\"\n")
	f.Fuzz(func(t *testing.T, src string) {
		sc, err := ParseScreens("f.txt", src)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.txt") {
				t.Fatalf("error without file: %v", err)
			}
			return
		}
		d := New(sc, Options{})
		ctx := context.Background()
		_ = d.Open(ctx, drivers.OpenRequest{Target: "x"})
		if _, err := d.Snapshot(ctx, drivers.SnapshotOptions{}); err != nil && d.Screen() != "" {
			t.Fatal(err)
		}
	})
}
