package runner

// System leaves: open/close, navigation, app switcher, settings, keyboard, alert,
// screenshot, viewport, appstate.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
)

func (s *Session) leafNoop(ctx context.Context, a *lang.Action, args lang.Args) (*Output, mutation, *ErrorInfo) {
	return &Output{}, mutation{}, nil
}

func (s *Session) leafOpen(ctx context.Context, a *lang.Action, args lang.Args) (*Output, mutation, *ErrorInfo) {
	oa := args.(lang.OpenArgs)
	req := drivers.OpenRequest{Relaunch: a.Flags.Bool("relaunch"), Target: oa.Target, URL: oa.URL}
	if u, ok := a.Runtime.String("launchUrl"); ok && req.URL == "" {
		req.URL = u
	}
	// An open against an existing session expires its frame before the first
	// close/launch dispatch; a failure after dispatch leaves it expired.
	return nil, mutation{then: func(ctx context.Context) (*Output, *ErrorInfo) {
		if err := s.drv.Open(ctx, req); err != nil {
			return nil, fromError(ctx, a.Command, s.cfg.Platform, err)
		}
		s.opened, s.closed = true, false
		return &Output{Text: "Opened " + req.Target}, nil
	}}, nil
}

func (s *Session) leafClose(ctx context.Context, a *lang.Action, args lang.Args) (*Output, mutation, *ErrorInfo) {
	ac, ok := s.drv.(drivers.AppCloser)
	if !ok {
		return nil, mutation{}, unsupported("close", s.cfg.Platform)
	}
	// The script's close ends the app or page; the session itself is
	// released by Session.Close.
	return nil, mutation{then: func(ctx context.Context) (*Output, *ErrorInfo) {
		if err := ac.CloseApp(ctx); err != nil {
			return nil, fromError(ctx, a.Command, s.cfg.Platform, err)
		}
		s.frame = s.frame.CloseSession()
		s.closed = true
		return &Output{Text: "Closed"}, nil
	}}, nil
}

func (s *Session) leafBack(ctx context.Context, a *lang.Action, args lang.Args) (*Output, mutation, *ErrorInfo) {
	return nil, does(drivers.Action{Kind: drivers.ActBack}, &Output{Text: "Went back"}), nil
}

func (s *Session) leafHome(ctx context.Context, a *lang.Action, args lang.Args) (*Output, mutation, *ErrorInfo) {
	return nil, does(drivers.Action{Kind: drivers.ActHome}, &Output{Text: "Went home"}), nil
}

func (s *Session) leafAppSwitcher(ctx context.Context, a *lang.Action, args lang.Args) (*Output, mutation, *ErrorInfo) {
	return nil, does(drivers.Action{Kind: drivers.ActAppSwitcher}, &Output{Text: "Opened the app switcher"}), nil
}

// leafSettings is `settings NAME VALUE` on a driver that can set it. A
// setting or value the driver does not list is refused before the seam,
// naming what it can set.
func (s *Session) leafSettings(ctx context.Context, a *lang.Action, args lang.Args) (*Output, mutation, *ErrorInfo) {
	sa := args.(lang.SubArgs)
	st, ok := s.drv.(drivers.Settings)
	if !ok {
		return nil, mutation{}, unsupported("settings", s.cfg.Platform)
	}
	can := st.SettingValues()
	names := make([]string, 0, len(can))
	for n := range can {
		names = append(names, n)
	}
	sort.Strings(names)
	usage := make([]string, len(names))
	for i, n := range names {
		usage[i] = n + " " + strings.Join(can[n], "|")
	}
	values, ok := can[sa.Sub]
	if !ok {
		e := newErr(CodeUnsupportedOperation, drivers.ReasonUnsupportedSetting, "settings %s is not supported on %s", sa.Sub, s.cfg.Platform)
		e.Details = map[string]any{"command": "settings", "setting": sa.Sub, "platform": s.cfg.Platform, "supported": usage}
		e.Hint = fmt.Sprintf("On %s, settings can set: %s.", s.cfg.Platform, strings.Join(usage, ", "))
		return nil, mutation{}, e
	}
	if len(sa.Rest) != 1 || !slices.Contains(values, sa.Rest[0]) {
		e := newErr(CodeInvalidArgs, drivers.ReasonInvalidArgs, "settings %s takes one of %s, got %q", sa.Sub, strings.Join(values, "|"), strings.Join(sa.Rest, " "))
		e.Hint = fmt.Sprintf("Write settings %s %s.", sa.Sub, values[0])
		return nil, mutation{}, e
	}
	value := sa.Rest[0]
	return nil, mutation{out: &Output{Text: "settings " + sa.Sub + " " + value}, then: func(ctx context.Context) (*Output, *ErrorInfo) {
		if err := st.Setting(ctx, sa.Sub, value); err != nil {
			return nil, fromError(ctx, a.Command, s.cfg.Platform, err)
		}
		return nil, nil
	}}, nil
}

func (s *Session) leafKeyboard(ctx context.Context, a *lang.Action, args lang.Args) (*Output, mutation, *ErrorInfo) {
	sub := args.(lang.SubArgs).Sub
	switch sub {
	case "status", "get":
		obs, e := s.observe(ctx, drivers.SnapshotOptions{})
		if e != nil {
			return nil, mutation{}, e
		}
		visible := false
		for i := range obs.Snap.Nodes {
			if obs.Snap.Nodes[i].Focused && obs.Snap.Nodes[i].Editable {
				visible = true
			}
		}
		return &Output{Text: fmt.Sprintf("keyboard visible: %v", visible), Data: map[string]any{"visible": visible}}, mutation{}, nil
	case "dismiss", "enter", "return":
		key := sub
		if key == "return" {
			key = "enter"
		}
		// Fused request: dispatching it is the conservative seam, even when
		// the keyboard turns out to be hidden already.
		return nil, does(drivers.Action{Kind: drivers.ActKey, Key: key}, &Output{Text: "keyboard " + sub}), nil
	}
	return nil, mutation{}, newErr(CodeInvalidArgs, drivers.ReasonInvalidArgs, "Unknown keyboard action %q. Supported: status, get, dismiss, enter, return", sub)
}

func (s *Session) leafAlert(ctx context.Context, a *lang.Action, args lang.Args) (*Output, mutation, *ErrorInfo) {
	sa := args.(lang.SubArgs)
	sub := sa.Sub
	ah, ok := s.drv.(drivers.AlertHandler)
	if !ok {
		return nil, mutation{}, unsupported("alert", s.cfg.Platform)
	}
	switch sub {
	case "get":
		text, open, err := ah.AlertText(ctx)
		if err != nil {
			return nil, mutation{}, fromError(ctx, a.Command, s.cfg.Platform, err)
		}
		if !open {
			return &Output{Text: "no alert", Data: map[string]any{"open": false}}, mutation{}, nil
		}
		return &Output{Text: text, Data: map[string]any{"open": true, "text": text}}, mutation{}, nil
	case "wait":
		timeout := s.cfg.WaitTimeout
		if sa.HasMs {
			timeout = time.Duration(sa.Ms) * time.Millisecond
		}
		deadline := s.cfg.Clock.Now().Add(timeout)
		for {
			text, open, err := ah.AlertText(ctx)
			if err != nil {
				return nil, mutation{}, fromError(ctx, a.Command, s.cfg.Platform, err)
			}
			if open {
				return &Output{Text: text, Data: map[string]any{"open": true, "text": text}}, mutation{}, nil
			}
			if !s.cfg.Clock.Now().Before(deadline) {
				return nil, mutation{}, newErr(CodeCommandFailed, drivers.ReasonWaitTargetAbsent, "Timed out after %dms waiting for an alert", timeout.Milliseconds())
			}
			if e := s.sleep(ctx, min(s.cfg.PollInterval, deadline.Sub(s.cfg.Clock.Now()))); e != nil {
				return nil, mutation{}, e
			}
		}
	case "accept", "dismiss":
		// Fused request: the seam is crossed even when no alert is open.
		return nil, mutation{out: &Output{Text: "alert " + sub}, then: func(ctx context.Context) (*Output, *ErrorInfo) {
			if err := ah.AlertRespond(ctx, sub == "accept"); err != nil {
				return nil, fromError(ctx, a.Command, s.cfg.Platform, err)
			}
			return nil, nil
		}}, nil
	}
	return nil, mutation{}, newErr(CodeInvalidArgs, drivers.ReasonInvalidArgs, "Unknown alert action %q. Supported: get, wait, accept, dismiss", sub)
}

func (s *Session) leafScreenshot(ctx context.Context, a *lang.Action, args lang.Args) (*Output, mutation, *ErrorInfo) {
	png, err := s.drv.Screenshot(ctx, drivers.ScreenshotOptions{FullPage: a.Flags.Bool("screenshotFullscreen")})
	if err != nil {
		return nil, mutation{}, fromError(ctx, a.Command, s.cfg.Platform, err)
	}
	s.shots++
	path := fmt.Sprintf("screenshot-%d.png", s.shots)
	if p := args.(lang.TextArgs).Text; p != "" {
		path = p
	}
	if !filepath.IsAbs(path) && s.cfg.ArtifactsDir != "" {
		path = filepath.Join(s.cfg.ArtifactsDir, path)
	}
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, mutation{}, fromError(ctx, a.Command, s.cfg.Platform, err)
		}
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		return nil, mutation{}, fromError(ctx, a.Command, s.cfg.Platform, err)
	}
	return &Output{Text: path, Data: map[string]any{"path": path}}, mutation{}, nil
}

func (s *Session) leafViewport(ctx context.Context, a *lang.Action, args lang.Args) (*Output, mutation, *ErrorInfo) {
	v := args.(lang.ViewportArgs)
	return nil, does(drivers.Action{Kind: drivers.ActViewport, Size: drivers.Point{X: v.Width, Y: v.Height}}, &Output{Text: fmt.Sprintf("Viewport %gx%g", v.Width, v.Height)}), nil
}

func (s *Session) leafAppState(ctx context.Context, a *lang.Action, args lang.Args) (*Output, mutation, *ErrorInfo) {
	obs, e := s.observe(ctx, drivers.SnapshotOptions{})
	if e != nil {
		return nil, mutation{}, e
	}
	data := map[string]any{"platform": s.cfg.Platform, "url": obs.Snap.URL, "title": obs.Snap.Title, "open": s.opened && !s.closed}
	keys := make([]string, 0, len(data))
	for k := range data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s: %v\n", k, data[k])
	}
	return &Output{Text: b.String(), Data: data}, mutation{}, nil
}
