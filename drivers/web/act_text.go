package web

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/internal/pause"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// Text entry: focus, fill, type and keys.

func (s *Session) focus(ctx context.Context, a drivers.Action) error {
	if a.Target == nil {
		return fmt.Errorf("web: focus needs a target")
	}
	if nodeHandle(a.Target) == "" {
		return s.tap(ctx, drivers.Action{Kind: drivers.ActTap, Target: a.Target})
	}
	if _, err := s.check(ctx, "focus", a.Target, true, false); err != nil {
		return err
	}
	var r stateResult
	if err := s.lib(ctx, "focus", "focus("+jsArgs(a.Target.Node.Handle)+")", &r); err != nil {
		return err
	}
	switch r.State {
	case "stale":
		return staleError(describeTarget(a.Target))
	case "not_focusable":
		return &drivers.TargetError{Reason: drivers.ReasonTargetNotFocusable, Message: fmt.Sprintf("%s cannot take the focus", describeTarget(a.Target)), Hint: "focus a field, button or link"}
	}
	return nil
}

// fill fills a field as a user does: it focuses the field, selects its
// whole content and replaces it with the text (Input.insertText: the browser
// fires beforeinput and input; an empty text is a press of Delete on the
// selection). No change event is sent: the browser fires change when the
// field commits (blur, Enter), as for a user. A select element chooses the
// option with that text or value. The field then has to show the text: a
// text field its value exactly (maxlength, masks), an editor the text a
// person reads (its markup and whitespace aside).
func (s *Session) fill(ctx context.Context, a drivers.Action) error {
	if a.Target == nil {
		return fmt.Errorf("web: fill needs a target")
	}
	desc := describeTarget(a.Target)
	handle := nodeHandle(a.Target)
	if handle != "" {
		if _, err := s.point(ctx, "fill", a.Target, true); err != nil {
			return err
		}
	} else {
		// A point: click it, then fill whatever took the focus.
		if err := s.tap(ctx, drivers.Action{Kind: drivers.ActTap, Target: a.Target}); err != nil {
			return err
		}
		var r stateResult
		if err := s.lib(ctx, "fill", "active()", &r); err != nil {
			return err
		}
		if r.State != "ok" {
			return &drivers.TargetError{Reason: drivers.ReasonTargetNotEditable, Message: fmt.Sprintf("nothing editable took the focus at %s", desc), Hint: "target the field itself"}
		}
		handle = r.Handle
	}
	var r stateResult
	if err := s.lib(ctx, "fill", "fillStart("+jsArgs(handle, a.Text)+")", &r); err != nil {
		return err
	}
	switch r.State {
	case "stale":
		return staleError(desc)
	case "disabled":
		return &drivers.TargetError{Reason: drivers.ReasonTargetDisabled, Message: fmt.Sprintf("%s is disabled", desc), Hint: "wait until it is enabled"}
	case "not_editable":
		msg := fmt.Sprintf("%s is not an editable field", desc)
		if r.Why != "" {
			msg += " (" + r.Why + ")"
		}
		return &drivers.TargetError{Reason: drivers.ReasonTargetNotEditable, Message: msg, Hint: "fill a text field, text area or select"}
	case "no_option":
		return &drivers.TargetError{Reason: drivers.ReasonOptionNotFound, Message: fmt.Sprintf("%s has no option %q (options: %s)", desc, a.Text, strings.Join(r.Options, ", ")), Hint: "use the visible text or the value of an option"}
	case "bad_value":
		return &drivers.TargetError{Reason: drivers.ReasonFillMismatch, Message: fmt.Sprintf("%s does not take the value %q", desc, a.Text), Hint: "give the value in the field's own format (a date as 2006-01-02, a time as 15:04, a colour as #rrggbb)"}
	case "done":
		return nil
	}
	err := s.input(ctx, "fill", func(ctx context.Context, t *chromedp.Target) error {
		if a.Text == "" {
			return pressKey(ctx, t, '\u007f') // Delete: removes the selection
		}
		if a.DelayMs <= 0 {
			_, err := cdp.Call(ctx, t, input.InsertText, input.InsertTextParams{Text: a.Text})
			return err
		}
		for i, ch := range a.Text {
			if i > 0 {
				if err := pause.For(ctx, time.Duration(a.DelayMs)*time.Millisecond); err != nil {
					return err
				}
			}
			if _, err := cdp.Call(ctx, t, input.InsertText, input.InsertTextParams{Text: string(ch)}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	var end struct {
		State string `json:"state"`
		Value string `json:"value"`
		Exact bool   `json:"exact"`
	}
	if err := s.lib(ctx, "fill", "fillEnd("+jsArgs(handle)+")", &end); err != nil {
		return err
	}
	if end.State == "stale" {
		// The text was already typed: not a TargetError, so a selector
		// target is not found again and filled a second time.
		return fmt.Errorf("%s was removed from the page while it was being filled (the text was typed into it)", desc)
	}
	want := a.Text
	if !end.Exact {
		want = readText(want)
	}
	if end.Value != want {
		return &drivers.TargetError{
			Reason: drivers.ReasonFillMismatch,
			Message: fmt.Sprintf("%s shows a different value after fill (%d characters, expected %d): the page changed or limited the input",
				desc, utf8.RuneCountInString(end.Value), utf8.RuneCountInString(want)),
			Hint: "check the field's maxlength, input mask or script; use type to append instead",
		}
	}
	return nil
}

// readText is text as a person reads it: whitespace runs (no-break spaces
// included) are one space, none at the ends, as the page library's norm.
func readText(s string) string { return strings.Join(strings.Fields(s), " ") }

// typeText types into the focused element with a user's key presses, one
// character after another.
func (s *Session) typeText(ctx context.Context, a drivers.Action) error {
	delay := time.Duration(a.DelayMs) * time.Millisecond
	return s.input(ctx, "type", func(ctx context.Context, t *chromedp.Target) error {
		for i, ch := range a.Text {
			if i > 0 {
				if err := pause.For(ctx, delay); err != nil {
					return err
				}
			}
			if err := pressKey(ctx, t, ch); err != nil {
				return err
			}
		}
		return nil
	})
}

// pressKey presses and releases the key of r as a user's keyboard does in
// Chromium: one keyDown that carries the key's text (rawKeyDown for a key
// without text), then keyUp. Chromium fires keydown and, only when the page
// did not cancel it, keypress and the text input and the key's default
// action (Enter submits, Delete deletes); a separate char event would insert
// the text even after a cancelled keydown. A character no key of the US
// layout types (é, emoji) is entered as text input, as an input method does.
func pressKey(ctx context.Context, t *chromedp.Target, r rune) error {
	if r == '\n' {
		r = '\r'
	}
	k, ok := kb.Keys[r]
	if !ok {
		_, err := cdp.Call(ctx, t, input.InsertText, input.InsertTextParams{Text: string(r)})
		return err
	}
	down := input.DispatchKeyEventParams{
		Type: input.DispatchKeyEventTypeRawKeyDown, Key: k.Key, Code: k.Code,
		WindowsVirtualKeyCode: k.Windows, NativeVirtualKeyCode: k.Native,
	}
	if k.Shift {
		down.Modifiers = int64(kb.ModifierShift)
	}
	up := down
	up.Type = input.DispatchKeyEventTypeKeyUp
	if k.Print && k.Text != "" {
		down.Type = input.DispatchKeyEventTypeKeyDown
		down.Text, down.UnmodifiedText = k.Text, k.Unmodified
	}
	if _, err := cdp.Call(ctx, t, input.DispatchKeyEvent, down); err != nil {
		return err
	}
	_, err := cdp.Call(ctx, t, input.DispatchKeyEvent, up)
	return err
}

// keyNames maps key names of scripts to the characters of their keys.
var keyNames = map[string]rune{
	"enter": '\r', "return": '\r', "tab": '\t', "escape": '\u001b', "esc": '\u001b',
	"backspace": '\b', "delete": '\u007f', "space": ' ',
	"arrowup": keyRune(kb.ArrowUp), "up": keyRune(kb.ArrowUp), "arrowdown": keyRune(kb.ArrowDown), "down": keyRune(kb.ArrowDown),
	"arrowleft": keyRune(kb.ArrowLeft), "left": keyRune(kb.ArrowLeft), "arrowright": keyRune(kb.ArrowRight), "right": keyRune(kb.ArrowRight),
	"home": keyRune(kb.Home), "end": keyRune(kb.End), "pageup": keyRune(kb.PageUp), "pagedown": keyRune(kb.PageDown),
}

// keyRune is the character chromedp's kb package names a key by.
func keyRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

func (s *Session) key(ctx context.Context, a drivers.Action) error {
	name := strings.ToLower(strings.TrimSpace(a.Key))
	if name == "dismiss" {
		// The keyboard of a page: Escape, then leave the focused field.
		if err := s.input(ctx, "keyboard dismiss", func(ctx context.Context, t *chromedp.Target) error {
			return pressKey(ctx, t, '\u001b')
		}); err != nil {
			return err
		}
		return s.lib(ctx, "keyboard dismiss", "blur()", nil)
	}
	k, ok := keyNames[name]
	if !ok {
		if utf8.RuneCountInString(a.Key) != 1 {
			return fmt.Errorf("web: unknown key %q (enter, dismiss, tab, escape, backspace, delete, space, arrows, home, end, pageup, pagedown, or one character)", a.Key)
		}
		k, _ = utf8.DecodeRuneInString(a.Key)
	}
	return s.input(ctx, "key "+name, func(ctx context.Context, t *chromedp.Target) error {
		return pressKey(ctx, t, k)
	})
}
