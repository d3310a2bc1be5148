package runner

import (
	"context"
	"reflect"
	"testing"

	"github.com/adtest/adtest/drivers"
)

// settingsDriver is the fake device plus the Settings capability, and the
// app switcher refused as a platform without one would.
type settingsDriver struct {
	drivers.Driver
	calls []string
}

func (d *settingsDriver) SettingValues() map[string][]string {
	return map[string][]string{"animations": {"off", "on"}, "wifi": {"off", "on"}}
}

func (d *settingsDriver) Setting(ctx context.Context, name, value string) error {
	d.calls = append(d.calls, name+" "+value)
	return nil
}

func (d *settingsDriver) Act(ctx context.Context, a drivers.Action) error {
	if a.Kind == drivers.ActAppSwitcher {
		return drivers.Unsupported(string(a.Kind), d.Platform())
	}
	return d.Driver.Act(ctx, a)
}

// A driver without the capability answers settings with the typed
// UNSUPPORTED_OPERATION naming command and platform, before the seam (the
// ref frame stays active).
func TestSettingsUnsupportedWithoutCapability(t *testing.T) {
	t.Parallel()
	e := newEnv(t, loginScreens)
	e.must(t, "open demo")
	e.must(t, "snapshot -i")
	gen := e.sess.RefsGeneration()
	_, err := e.run(t, "settings animations off")
	if err == nil || err.Code != CodeUnsupportedOperation || err.Reason != "unsupported_operation" ||
		err.Message != "settings is not supported on fake" ||
		!reflect.DeepEqual(err.Details, map[string]any{"command": "settings", "platform": "fake"}) {
		t.Fatalf("settings on fake: %+v", err)
	}
	if e.sess.RefsGeneration() != gen || !e.sess.frame.IsActive() {
		t.Fatalf("an unsupported settings line expired the frame")
	}
}

func TestSettingsDispatch(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, line     string
		code, reason   string
		message, hint  string
		calls          []string
		expiresTheRefs bool
	}{
		{name: "applied", line: "settings animations off", calls: []string{"animations off"}, expiresTheRefs: true},
		{name: "wifi on", line: "settings wifi on", calls: []string{"wifi on"}, expiresTheRefs: true},
		{name: "setting the driver cannot set", line: "settings location on",
			code: CodeUnsupportedOperation, reason: "unsupported_setting",
			message: "settings location is not supported on fake",
			hint:    "On fake, settings can set: animations off|on, wifi off|on."},
		{name: "value it does not take", line: "settings animations maybe",
			code: CodeInvalidArgs, reason: "invalid_args",
			message: `settings animations takes one of off|on, got "maybe"`, hint: "Write settings animations off."},
		{name: "no value", line: "settings wifi",
			code: CodeInvalidArgs, reason: "invalid_args",
			message: `settings wifi takes one of off|on, got ""`, hint: "Write settings wifi off."},
		{name: "two values", line: "settings wifi on off",
			code: CodeInvalidArgs, reason: "invalid_args",
			message: `settings wifi takes one of off|on, got "on off"`, hint: "Write settings wifi off."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, loginScreens)
			d := &settingsDriver{Driver: e.dev}
			e.sess.drv = d
			e.must(t, "open demo")
			e.must(t, "snapshot -i")
			gen := e.sess.RefsGeneration()
			out, err := e.run(t, tc.line)
			if tc.code == "" {
				if err != nil || out.Text != tc.line {
					t.Fatalf("%s: out %+v err %+v", tc.line, out, err)
				}
			} else if err == nil || err.Code != tc.code || string(err.Reason) != tc.reason || err.Message != tc.message || err.Hint != tc.hint {
				t.Fatalf("%s: got %+v\nwant code %s reason %s message %q hint %q", tc.line, err, tc.code, tc.reason, tc.message, tc.hint)
			}
			if !reflect.DeepEqual(d.calls, tc.calls) {
				t.Fatalf("Setting calls %q, want %q", d.calls, tc.calls)
			}
			if expired := e.sess.RefsGeneration() != gen; expired != tc.expiresTheRefs {
				t.Fatalf("frame expired %v, want %v (a refused line stays before the seam)", expired, tc.expiresTheRefs)
			}
		})
	}
}

// The unsupported-setting error lists what the driver can set in details.
func TestSettingsUnsupportedSettingDetails(t *testing.T) {
	t.Parallel()
	e := newEnv(t, loginScreens)
	e.sess.drv = &settingsDriver{Driver: e.dev}
	e.must(t, "open demo")
	_, err := e.run(t, "settings appearance dark")
	want := map[string]any{"command": "settings", "setting": "appearance", "platform": "fake", "supported": []string{"animations off|on", "wifi off|on"}}
	if err == nil || !reflect.DeepEqual(err.Details, want) {
		t.Fatalf("details %+v, want %+v", err, want)
	}
}

// app-switcher reaches the driver as ActAppSwitcher; a driver that has no
// app switcher answers UNSUPPORTED_OPERATION naming command and platform.
func TestAppSwitcher(t *testing.T) {
	t.Parallel()
	e := newEnv(t, loginScreens)
	e.must(t, "open demo")
	if out := e.must(t, "app-switcher"); out.Text != "Opened the app switcher" || e.dev.Count("app-switcher") != 1 {
		t.Fatalf("app-switcher: %q, %d ops", out.Text, e.dev.Count("app-switcher"))
	}
	e.sess.drv = &settingsDriver{Driver: e.dev}
	_, err := e.run(t, "app-switcher")
	if err == nil || err.Code != CodeUnsupportedOperation || err.Message != "app-switcher is not supported on fake" ||
		!reflect.DeepEqual(err.Details, map[string]any{"command": "app-switcher", "platform": "fake"}) {
		t.Fatalf("app-switcher without one: %+v", err)
	}
}
