package android

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/drivers/android/adb"
)

// Screenshot implements drivers.Driver: exec-out screencap -p.
func (s *Session) Screenshot(ctx context.Context, opts drivers.ScreenshotOptions) ([]byte, error) {
	if err := s.live(); err != nil {
		return nil, err
	}
	out, err := s.p.client.Exec(ctx, s.serial, "screencap -p", nil)
	if err != nil {
		return nil, s.wrap(err)
	}
	if len(out) < 8 || string(out[1:4]) != "PNG" {
		return nil, fmt.Errorf("screencap: not a PNG (%d bytes)", len(out))
	}
	return out, nil
}

var (
	alertPackages = map[string]bool{"android": true, "com.android.systemui": true, "com.android.permissioncontroller": true,
		"com.google.android.permissioncontroller": true, "com.android.packageinstaller": true, "com.google.android.packageinstaller": true}
	acceptLabels  = map[string]bool{"ok": true, "allow": true, "allow all": true, "while using the app": true, "only this time": true, "yes": true, "continue": true, "save": true, "confirm": true, "turn on": true, "open settings": true}
	dismissLabels = map[string]bool{"cancel": true, "deny": true, "don't allow": true, "not now": true, "no": true, "dismiss": true, "close": true, "close app": true, "later": true, "skip": true}
)

// alert finds a system dialog: its message and its accept/dismiss buttons.
func (s *Session) alert(ctx context.Context) (msg string, accept, dismiss *drivers.Node, open bool, err error) {
	xml, err := s.captureXML(ctx, "snapshot")
	if err != nil {
		return "", nil, nil, false, err
	}
	roots, err := parseHierarchy(xml)
	if err != nil {
		return "", nil, nil, false, err
	}
	for _, r := range roots {
		if !alertPackages[r.get("package")] {
			continue
		}
		snap := toSnapshot([]*xnode{r}, drivers.Rect{})
		var buttons []*drivers.Node
		for i := range snap.Nodes {
			n := &snap.Nodes[i]
			id := n.ID
			switch {
			case strings.HasSuffix(id, ":id/message") || strings.HasSuffix(id, ":id/alertTitle") || strings.Contains(id, ":id/permission_message"):
				if msg == "" || strings.HasSuffix(id, ":id/message") {
					msg = n.Label
				}
			case strings.Contains(id, ":id/button") || strings.Contains(id, ":id/permission_") && n.Role == "button" || n.Role == "button":
				buttons = append(buttons, n)
			}
		}
		for _, b := range buttons {
			l := strings.ToLower(b.Label)
			switch {
			case strings.HasSuffix(b.ID, ":id/button1") || acceptLabels[l]:
				accept = b
			case strings.HasSuffix(b.ID, ":id/button2") || dismissLabels[l]:
				dismiss = b
			}
		}
		if len(buttons) == 1 && accept == nil {
			accept = buttons[0]
		}
		if msg != "" || len(buttons) > 0 {
			return msg, accept, dismiss, true, nil
		}
	}
	return "", nil, nil, false, nil
}

// AlertText implements drivers.AlertHandler for system dialogs.
func (s *Session) AlertText(ctx context.Context) (string, bool, error) {
	if err := s.live(); err != nil {
		return "", false, err
	}
	msg, _, _, open, err := s.alert(ctx)
	return msg, open, err
}

// AlertRespond implements drivers.AlertHandler: taps the accept or dismiss button.
func (s *Session) AlertRespond(ctx context.Context, accept bool) error {
	if err := s.live(); err != nil {
		return err
	}
	_, yes, no, open, err := s.alert(ctx)
	if err != nil || !open {
		return err
	}
	b := no
	if accept {
		b = yes
	}
	if b == nil {
		return fmt.Errorf("the dialog has no %s button", map[bool]string{true: "accept", false: "dismiss"}[accept])
	}
	before := s.beforeAction(ctx)
	c := b.Rect.Center()
	if _, err := s.sh(ctx, "input tap "+px(c.X)+" "+px(c.Y)); err != nil {
		return err
	}
	s.settle(ctx, before)
	return nil
}

// Attrs implements drivers.AttrReader.
func (s *Session) Attrs(ctx context.Context, n *drivers.Node) (map[string]string, error) {
	m := map[string]string{"role": n.Role, "enabled": strconv.FormatBool(n.Enabled), "focused": strconv.FormatBool(n.Focused),
		"bounds": fmt.Sprintf("[%s,%s][%s,%s]", px(n.Rect.X), px(n.Rect.Y), px(n.Rect.X+n.Rect.Width), px(n.Rect.Y+n.Rect.Height))}
	for k, v := range map[string]string{"label": n.Label, "resource-id": n.ID, "text": n.Text, "value": n.Value} {
		if v != "" {
			m[k] = v
		}
	}
	if class, _, ok := strings.Cut(strings.TrimSuffix(n.Handle, coveredMark), "@"); ok {
		m["class"] = class
	}
	return m, nil
}

// logStamp is the length of logcat's "MM-DD hh:mm:ss.mmm" line prefix.
const logStamp = len("01-02 15:04:05.000")

// LogTail implements drivers.LogTailer: the last n lines of logcat since
// the session began (from the timestamp of the line that was last then,
// cut after that line).
func (s *Session) LogTail(n int) []string {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	lines, err := s.logSince(ctx, s.logMark, n)
	if err != nil {
		return []string{"logcat: " + err.Error()}
	}
	return lines
}

// logSince returns the last n lines of logcat after the line mark (read
// from mark's timestamp on and cut after mark); with no mark, the last n.
func (s *Session) logSince(ctx context.Context, mark string, n int) ([]string, error) {
	cmd := "logcat -d -t " + strconv.Itoa(n)
	if i := strings.LastIndexByte(mark, '\n'); i >= 0 {
		mark = mark[i+1:] // past a "--------- beginning of main" header
	}
	if len(mark) > logStamp {
		cmd = "logcat -d -T " + adb.Quote(mark[:logStamp])
	}
	out, err := s.sh(ctx, cmd)
	if err != nil {
		return nil, err
	}
	out = strings.TrimRight(out, "\r\n")
	if out == "" {
		return nil, nil
	}
	lines := strings.Split(out, "\n")
	if len(mark) > logStamp {
		for i, l := range lines {
			if strings.TrimRight(l, "\r") == mark {
				lines = lines[i+1:]
				break
			}
		}
	}
	return lines[max(0, len(lines)-n):], nil
}

// AppState returns the package in front (dumpsys window focus).
func (s *Session) AppState(ctx context.Context) (string, error) {
	out, err := s.sh(ctx, "dumpsys window windows")
	if err != nil {
		return "", err
	}
	for _, marker := range []string{"mCurrentFocus=Window{", "mFocusedApp="} {
		for _, line := range strings.Split(out, "\n") {
			if i := strings.Index(line, marker); i >= 0 {
				for _, f := range strings.Fields(line[i:]) {
					if pkg, _, ok := strings.Cut(strings.TrimSuffix(f, "}"), "/"); ok && packageShaped(pkg) {
						return pkg, nil
					}
				}
			}
		}
	}
	return "", fmt.Errorf("no focused app in dumpsys window")
}

// androidSettings are the settings adb can set: per name and value, the
// shell commands that set it.
var androidSettings = map[string]map[string][]string{
	"animations": {"on": animationScales("1"), "off": animationScales("0")},
	"wifi":       {"on": {"svc wifi enable"}, "off": {"svc wifi disable"}},
	"airplane":   {"on": {"cmd connectivity airplane-mode enable"}, "off": {"cmd connectivity airplane-mode disable"}},
}

func animationScales(scale string) []string {
	var cmds []string
	for _, k := range []string{"window_animation_scale", "transition_animation_scale", "animator_duration_scale"} {
		cmds = append(cmds, "settings put global "+k+" "+scale)
	}
	return cmds
}

// SettingValues returns the settings Setting applies and their values.
func (s *Session) SettingValues() map[string][]string {
	out := make(map[string][]string, len(androidSettings))
	for name, values := range androidSettings {
		for v := range values {
			out[name] = append(out[name], v)
		}
		sort.Strings(out[name])
	}
	return out
}

// Setting applies a `settings` command adb can set: animations on|off
// (the three global animation scales), wifi on|off, airplane on|off.
func (s *Session) Setting(ctx context.Context, name, value string) error {
	cmds, ok := androidSettings[name][value]
	if !ok {
		return fmt.Errorf("%w: settings %s %s is not supported on android (it can set animations, airplane, wifi on|off)", drivers.ErrUnsupported, name, value)
	}
	for _, c := range cmds {
		if _, err := s.sh(ctx, c); err != nil {
			return err
		}
	}
	return nil
}

var _ interface {
	drivers.Driver
	drivers.AlertHandler
	drivers.AttrReader
	drivers.LogTailer
	drivers.Preflighter
	drivers.Settings
} = (*Session)(nil)

var _ drivers.Provider = (*Provider)(nil)
