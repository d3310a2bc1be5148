package web

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/adtest/adtest/drivers"
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
		return &drivers.TargetError{Reason: "target_not_focusable", Message: fmt.Sprintf("%s cannot take the focus", describeTarget(a.Target)), Hint: "focus a field, button or link"}
	}
	return nil
}

// fill focuses the field, selects its content and inserts the text like a
// user (beforeinput/input events), fires change, then verifies the value.
// A select element is filled by choosing the option with that text or value.
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
			return &drivers.TargetError{Reason: "target_not_editable", Message: fmt.Sprintf("nothing editable took the focus at %s", desc), Hint: "target the field itself"}
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
		return &drivers.TargetError{Reason: "target_disabled", Message: fmt.Sprintf("%s is disabled", desc), Hint: "wait until it is enabled"}
	case "not_editable":
		return &drivers.TargetError{Reason: "target_not_editable", Message: fmt.Sprintf("%s is not an editable field", desc), Hint: "fill a text field, text area or select"}
	case "no_option":
		return &drivers.TargetError{Reason: "option_not_found", Message: fmt.Sprintf("%s has no option %q (options: %s)", desc, a.Text, strings.Join(r.Options, ", ")), Hint: "use the visible text or the value of an option"}
	case "done":
		return nil
	}
	if a.Text != "" {
		err := s.input(ctx, "fill", func(ctx context.Context, t *chromedp.Target) error {
			if a.DelayMs <= 0 {
				_, err := cdp.Call(ctx, t, input.InsertText, input.InsertTextParams{Text: a.Text})
				return err
			}
			for i, ch := range a.Text {
				if i > 0 {
					if err := wait(ctx, time.Duration(a.DelayMs)*time.Millisecond); err != nil {
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
	}
	if err := s.lib(ctx, "fill", "fillEnd("+jsArgs(handle)+")", &r); err != nil {
		return err
	}
	if r.State == "stale" {
		return staleError(desc)
	}
	if r.Value != a.Text {
		return &drivers.TargetError{
			Reason: "fill_mismatch",
			Message: fmt.Sprintf("%s shows a different value after fill (%d characters, expected %d): the page changed or limited the input",
				desc, utf8.RuneCountInString(r.Value), utf8.RuneCountInString(a.Text)),
			Hint: "check the field's maxlength, input mask or script; use type to append instead",
		}
	}
	return nil
}

// typeText types into the focused element with key events, one character
// after another.
func (s *Session) typeText(ctx context.Context, a drivers.Action) error {
	delay := time.Duration(a.DelayMs) * time.Millisecond
	return s.input(ctx, "type", func(ctx context.Context, t *chromedp.Target) error {
		if delay <= 0 {
			_, err := chromedp.KeyEvent(a.Text)(ctx, t)
			return err
		}
		for i, ch := range a.Text {
			if i > 0 {
				if err := wait(ctx, delay); err != nil {
					return err
				}
			}
			if _, err := chromedp.KeyEvent(string(ch))(ctx, t); err != nil {
				return err
			}
		}
		return nil
	})
}

// keyNames maps key names of scripts to chromedp key runes.
var keyNames = map[string]string{
	"enter": kb.Enter, "return": kb.Enter, "tab": kb.Tab, "escape": kb.Escape, "esc": kb.Escape,
	"backspace": kb.Backspace, "delete": kb.Delete, "space": " ",
	"arrowup": kb.ArrowUp, "up": kb.ArrowUp, "arrowdown": kb.ArrowDown, "down": kb.ArrowDown,
	"arrowleft": kb.ArrowLeft, "left": kb.ArrowLeft, "arrowright": kb.ArrowRight, "right": kb.ArrowRight,
	"home": kb.Home, "end": kb.End, "pageup": kb.PageUp, "pagedown": kb.PageDown,
}

func (s *Session) key(ctx context.Context, a drivers.Action) error {
	name := strings.ToLower(strings.TrimSpace(a.Key))
	if name == "dismiss" {
		// The keyboard of a page: Escape, then leave the focused field.
		if err := s.input(ctx, "keyboard dismiss", func(ctx context.Context, t *chromedp.Target) error {
			_, err := chromedp.KeyEvent(kb.Escape)(ctx, t)
			return err
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
		k = a.Key
	}
	return s.input(ctx, "key "+name, func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.KeyEvent(k)(ctx, t)
		return err
	})
}
