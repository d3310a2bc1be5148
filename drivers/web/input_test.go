package web

import (
	"context"
	"strings"
	"testing"

	"github.com/adtest/adtest/drivers"
	"github.com/chromedp/chromedp"
)

// Input as a user's (issue 16): the page sees the events Chromium sends for
// a user's input and nothing else.

// pageValue evaluates expr in the page's own (main) world.
func pageValue[T any](t *testing.T, s *Session, expr string) T {
	t.Helper()
	var v T
	err := s.do(testCtx(t), "test", func(ctx context.Context, tg *chromedp.Target) error {
		var err error
		v, err = chromedp.Evaluate[T](expr)(ctx, tg)
		return err
	})
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

func byID(t *testing.T, s *Session, id string) *drivers.Node {
	t.Helper()
	sn := snap(t, s, drivers.SnapshotOptions{})
	for i := range sn.Nodes {
		if sn.Nodes[i].ID == id {
			return &sn.Nodes[i]
		}
	}
	t.Fatalf("no node with id %q:\n%s", id, dump(sn))
	return nil
}

func act(t *testing.T, s *Session, a drivers.Action) {
	t.Helper()
	if err := s.Act(testCtx(t), a); err != nil {
		t.Fatalf("%s: %v", a.Kind, err)
	}
}

func fillAction(n *drivers.Node, text string) drivers.Action {
	return drivers.Action{Kind: drivers.ActFill, Target: &drivers.Target{Node: n}, Text: text}
}

// TestFillSendsNoChange is the page 1: an app that adds the text on
// change and clears the field. fill inserts the text (trusted beforeinput
// and input) and sends no change; the browser fires change when the field
// commits (Enter here).
func TestFillSendsNoChange(t *testing.T) {
	t.Parallel()
	s := session(t, "input.html")
	act(t, s, fillAction(byID(t, s, "q"), "hello"))
	if got := byID(t, s, "q").Value; got != "hello" {
		t.Errorf("the field shows %q after fill, want hello", got)
	}
	if got := pageValue[string](t, s, "document.getElementById('events').textContent"); got != "beforeinput input" {
		t.Errorf("the field got %q, want the trusted %q", got, "beforeinput input")
	}
	if n := pageValue[int](t, s, "document.querySelectorAll('#todos li').length"); n != 0 {
		t.Errorf("%d todos before the field committed, want none", n)
	}
	act(t, s, drivers.Action{Kind: drivers.ActKey, Key: "enter"})
	if got := pageValue[string](t, s, "Array.from(document.querySelectorAll('#todos li'), l => l.textContent).join('|') + ' / ' + document.getElementById('q').value"); got != "hello / " {
		t.Errorf("after Enter: todos / field = %q, want %q", got, "hello / ")
	}
	// A second fill replaces the content (select all, insert).
	act(t, s, fillAction(byID(t, s, "q"), "abc"))
	act(t, s, fillAction(byID(t, s, "q"), "xy"))
	if got := byID(t, s, "q").Value; got != "xy" {
		t.Errorf("the field shows %q after the second fill, want xy", got)
	}
	// An empty fill deletes the selection with a key press (trusted input).
	act(t, s, fillAction(byID(t, s, "q"), ""))
	if got := pageValue[string](t, s, "document.getElementById('q').value + '|' + document.getElementById('events').textContent.split(' ').slice(-3).join(' ')"); got != "|keydown beforeinput input" {
		t.Errorf("after the empty fill: value|last events = %q", got)
	}
	// Leaving the field commits it too.
	act(t, s, fillAction(byID(t, s, "q"), "bye"))
	act(t, s, drivers.Action{Kind: drivers.ActKey, Key: "dismiss"})
	if got := pageValue[string](t, s, "Array.from(document.querySelectorAll('#todos li'), l => l.textContent).join('|') + ' / ' + document.getElementById('q').value"); got != "hello|bye / " {
		t.Errorf("after leaving the field: todos / field = %q, want %q", got, "hello|bye / ")
	}
}

// TestCancelledKeydownInsertsNothing: a keydown the page cancels inserts no
// text and triggers no default action (Enter does not submit the form).
func TestCancelledKeydownInsertsNothing(t *testing.T) {
	t.Parallel()
	s := session(t, "input.html")
	act(t, s, drivers.Action{Kind: drivers.ActFocus, Target: &drivers.Target{Node: byID(t, s, "k")}})
	act(t, s, drivers.Action{Kind: drivers.ActType, Text: "axbx"})
	if got := byID(t, s, "k").Value; got != "ab" {
		t.Errorf("typed axbx with x cancelled: %q, want ab", got)
	}
	e := byID(t, s, "e")
	act(t, s, fillAction(e, "block"))
	act(t, s, drivers.Action{Kind: drivers.ActKey, Key: "enter"})
	if got := textByID(t, s, "log"); got != "ready" {
		t.Errorf("a cancelled Enter submitted the form: %q", got)
	}
	act(t, s, fillAction(e, "go"))
	act(t, s, drivers.Action{Kind: drivers.ActKey, Key: "enter"})
	if got := textByID(t, s, "log"); got != "submitted go" {
		t.Errorf("Enter did not submit the form: %q", got)
	}
}

// TestFillEditorComparesWhatAPersonReads: an editor keeps its text in
// markup (a paragraph per line, spaces as no-break spaces); the fill
// verifies the text a person reads, not the markup's characters.
func TestFillEditorComparesWhatAPersonReads(t *testing.T) {
	t.Parallel()
	s := session(t, "input.html")
	for _, text := range []string{"two  spaces  here", "line one\nline two"} {
		act(t, s, fillAction(byID(t, s, "ed"), text))
		want := strings.Join(strings.Fields(text), " ")
		if got := pageValue[string](t, s, "document.getElementById('ed').innerText.replace(/\\s+/g, ' ').trim()"); got != want {
			t.Errorf("the editor reads %q, want %q", got, want)
		}
	}
}

// TestDoubleTapIsTwoClicksOfAUser: the second press carries clickCount 2,
// and Chromium fires dblclick itself.
func TestDoubleTapIsTwoClicksOfAUser(t *testing.T) {
	t.Parallel()
	s := session(t, "input.html")
	a := tap(byID(t, s, "dbl"))
	a.DoubleTap = true
	act(t, s, a)
	if got := textByID(t, s, "log"); got != "dblclick 1,2" {
		t.Errorf("log %q, want dblclick 1,2", got)
	}
}

// TestPageGlobalsCannotBreakTheDriver is the page 2: the page
// replaces window.Event, wraps elementFromPoint, JSON.stringify and
// Array.from. The driver's code runs in its own world: it is not misled,
// and it leaves nothing in the page's.
func TestPageGlobalsCannotBreakTheDriver(t *testing.T) {
	t.Parallel()
	s := session(t, "hostile.html")
	act(t, s, fillAction(byID(t, s, "q"), "hello"))
	act(t, s, fillAction(byID(t, s, "s"), "b"))
	if got := textByID(t, s, "out"); got != "picked b" {
		t.Errorf("after choosing b: %q", got)
	}
	act(t, s, tap(byID(t, s, "go")))
	if got := textByID(t, s, "out"); got != "go hello" {
		t.Errorf("after the click: %q", got)
	}
	if got := pageValue[string](t, s, "typeof window.__adtestLib + ' ' + new Event({type: 'x'}).type"); got != "undefined x" {
		t.Errorf("the page's world: %q, want no driver global and the page's own Event", got)
	}
}

// TestKeysMoveTheCaret: named keys are the keys of their names (arrows,
// Home, Backspace, Delete move and edit as a user's).
func TestKeysMoveTheCaret(t *testing.T) {
	t.Parallel()
	s := session(t, "input.html")
	act(t, s, drivers.Action{Kind: drivers.ActFocus, Target: &drivers.Target{Node: byID(t, s, "k")}})
	for _, a := range []drivers.Action{
		{Kind: drivers.ActType, Text: "ab"},
		{Kind: drivers.ActKey, Key: "left"},
		{Kind: drivers.ActType, Text: "c"},
		{Kind: drivers.ActKey, Key: "home"},
		{Kind: drivers.ActType, Text: "Z"},
		{Kind: drivers.ActKey, Key: "end"},
		{Kind: drivers.ActKey, Key: "backspace"},
		{Kind: drivers.ActKey, Key: "arrowleft"},
		{Kind: drivers.ActKey, Key: "delete"},
		{Kind: drivers.ActType, Text: "é!"},
	} {
		act(t, s, a)
	}
	if got := byID(t, s, "k").Value; got != "Zaé!" {
		t.Errorf("the field shows %q, want Zaé!", got)
	}
}

// TestScrollIsAUsersWheel: a scroll is a user's mouse wheel over the
// container: the page sees a trusted wheel event, and the report says how
// far the container moved.
func TestScrollIsAUsersWheel(t *testing.T) {
	t.Parallel()
	s := session(t, "wheel.html")
	act(t, s, drivers.Action{Kind: drivers.ActScroll, Direction: "down", Amount: 0.5, Target: &drivers.Target{Node: byID(t, s, "row")}})
	if got := textByID(t, s, "log"); got != "wheel true 100" {
		t.Errorf("the page saw %q, want a trusted wheel of 100 px", got)
	}
	if r := s.LastScroll(); r.Distance != 100 || r.Container != "div#box" || r.AtEnd {
		t.Errorf("scroll report %+v, want 100 px of div#box", r)
	}
}

// TestClickIsAUsersEventSequence: a click's move, press and release reach
// the page in a user's order, each event once and trusted, whether they go
// pipelined (pipe.go) or one by one (a browser without a pipelining
// session); so does a double click's second press.
func TestClickIsAUsersEventSequence(t *testing.T) {
	t.Parallel()
	const once = "pointerover pointerenter mouseover mouseenter pointermove mousemove pointerdown mousedown:1 pointerup mouseup:1 click:1"
	const twice = once + " pointermove mousemove pointerdown mousedown:2 pointerup mouseup:2 click:2 dblclick:2"
	for _, tc := range []struct {
		name      string
		piped     bool
		doubleTap bool
		want      string
	}{
		{"pipelined", true, false, once},
		{"one by one", false, false, once},
		{"double, pipelined", true, true, twice},
		{"double, one by one", false, true, twice},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := session(t, "clickseq.html")
			if !tc.piped {
				s.refusePipe()
			}
			a := tap(byID(t, s, "go"))
			a.DoubleTap = tc.doubleTap
			act(t, s, a)
			if got := textByID(t, s, "log"); got != tc.want {
				t.Errorf("events\n got %s\nwant %s", got, tc.want)
			}
			s.mu.Lock()
			sid := s.pipe.sid
			s.mu.Unlock()
			if piped := sid != ""; piped != tc.piped {
				t.Errorf("pipelined %v, want %v", piped, tc.piped)
			}
		})
	}
}
