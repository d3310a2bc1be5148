package web

import (
	"errors"
	"strings"
	"testing"

	"github.com/adtest/adtest/drivers"
)

// A tap scrolls the element into view the least a user would have to: the
// row below the list's bottom edge ends at that edge (not centred).
func TestTapScrollsOnlyAsFarAsNeeded(t *testing.T) {
	t.Parallel()
	s := session(t, "reveal.html")
	sn := snap(t, s, drivers.SnapshotOptions{})
	row := find(t, sn, "button", "Row 6")
	if err := s.Act(testCtx(t), tap(row)); err != nil {
		t.Fatal(err)
	}
	waitText(t, s, "result", "Row 6")
	after := snap(t, s, drivers.SnapshotOptions{})
	got := find(t, after, "button", "Row 6").Rect
	if bottom := got.Y + got.Height; bottom != 200 {
		t.Errorf("Row 6 ends at y=%g after the tap, want 200 (the list's bottom edge: scrolled only as far as needed)", bottom)
	}
	if r1 := find(t, after, "button", "Row 1").Rect; r1.Y != -100 {
		t.Errorf("Row 1 at y=%g, want -100 (the list scrolled by 100)", r1.Y)
	}
}

// A container that hides its overflow is not scrolled: a user cannot reach
// what it hides, so the tap fails and nothing moves or is clicked.
func TestTapNeverScrollsAHiddenOverflow(t *testing.T) {
	t.Parallel()
	s := session(t, "reveal.html")
	n := find(t, snap(t, s, drivers.SnapshotOptions{}), "button", "Clipped")
	a := tap(n)
	a.Target.Describe = "id=clipped"
	err := s.Act(testCtx(t), a)
	var te *drivers.TargetError
	if !errors.As(err, &te) || te.Reason != "target_not_visible" || !strings.HasPrefix(te.Message, "id=clipped could not be scrolled into view") {
		t.Fatalf("got %v, want target_not_visible: could not be scrolled into view", err)
	}
	if got := find(t, snap(t, s, drivers.SnapshotOptions{}), "button", "Clipped").Rect.Y; got != n.Rect.Y {
		t.Errorf("the button moved from y=%g to %g: the hidden overflow was scrolled", n.Rect.Y, got)
	}
	if got := textByID(t, s, "result"); got != "none" {
		t.Errorf("something was clicked: %q", got)
	}
}

// A press that would land on another element at the moment it lands (the
// target moved away as the pointer reached it) is held back from the page
// and reported: nothing was done. The settle reads the press guard's
// report back with its frame; a page that renders no frame within
// frameBound after the press (busy) still has its report read, and the
// missed press fails the click.
func TestPressThatMissesIsHeldBack(t *testing.T) {
	for _, page := range []string{"jump.html", "jump-busy.html"} {
		t.Run(page, func(t *testing.T) {
			t.Parallel()
			s := session(t, page)
			n := find(t, snap(t, s, drivers.SnapshotOptions{}), "button", "Jump")
			a := tap(n)
			a.Target.Describe = "@e2"
			err := s.Act(testCtx(t), a)
			var te *drivers.TargetError
			want := `@e2: the click landed on button#decoy "Decoy" at the moment of the press (the element moved or was covered), so the page did not receive it`
			if !errors.As(err, &te) || te.Reason != "target_covered" || te.Message != want {
				t.Fatalf("got %v\nwant target_covered: %s", err, want)
			}
			if got := textByID(t, s, "result"); got != "none" {
				t.Errorf("the press reached the page: %q", got)
			}
		})
	}
}

// A transparent element (opacity 0) is visible for Playwright and for a
// user's click: TodoMVC's toggles are such checkboxes. The tap reaches it.
func TestTapReachesATransparentElement(t *testing.T) {
	t.Parallel()
	s := session(t, "transparent.html")
	n := find(t, snap(t, s, drivers.SnapshotOptions{}), "checkbox", "Toggle")
	if err := s.Act(testCtx(t), tap(n)); err != nil {
		t.Fatal(err)
	}
	waitText(t, s, "result", "checked")
}

// A target that scrolling only as far as needed leaves under a bar fixed at
// that edge is scrolled on (centred) as a user would, and the tap lands.
func TestTapScrollsPastAFixedBar(t *testing.T) {
	t.Parallel()
	s := session(t, "fixedbar.html")
	n := find(t, snap(t, s, drivers.SnapshotOptions{}), "button", "Go")
	if err := s.Act(testCtx(t), tap(n)); err != nil {
		t.Fatal(err)
	}
	waitText(t, s, "result", "clicked")
}
