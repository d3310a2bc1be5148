package android_test

import (
	"slices"
	"testing"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/drivers/android"
	"github.com/adtest/adtest/internal/testsupport/fakedevice"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner"
)

// TestScriptSettingsAndAppSwitcher: `settings` and `app-switcher` script
// lines go through the runner, the Go client and the real adb server to
// the fake device, which receives the shell commands that set them.
func TestScriptSettingsAndAppSwitcher(t *testing.T) {
	r := newRig(t, fakedevice.Options{}, android.Options{})
	ctx := tctx(t)
	src := []byte(`context platform=android timeout=30000
open com.adtest.demo --relaunch
settings animations off
settings wifi off
settings airplane on
app-switcher
settings airplane off
`)
	script, diags := lang.CheckSource("settings.ad", src, lang.CheckOptions{Platform: drivers.PlatformAndroid})
	if len(diags) > 0 || script == nil {
		t.Fatalf("check: %v", diags)
	}
	sess := runner.NewSession(r.s, runner.SessionConfig{ArtifactsDir: t.TempDir()})
	res := sess.Replay(ctx, script, runner.ReplayOptions{})
	if res.Status != runner.StatusPassed {
		t.Fatalf("replay %s: %+v", res.Status, res.Error)
	}
	for key, want := range map[string]string{
		"window_animation_scale": "0", "transition_animation_scale": "0", "animator_duration_scale": "0",
		"wifi": "off", "airplane": "off",
	} {
		if got := r.dev.Setting(key); got != want {
			t.Errorf("device setting %s = %q, want %q", key, got, want)
		}
	}
	cmds := r.dev.Commands()
	for _, want := range []string{
		"settings put global animator_duration_scale 0", "svc wifi disable",
		"cmd connectivity airplane-mode enable", "input keyevent 187", "cmd connectivity airplane-mode disable",
	} {
		if !slices.Contains(cmds, want) {
			t.Errorf("the device never received %q; it received %q", want, cmds)
		}
	}
	// The switcher key came after airplane on and before airplane off.
	on, key, off := slices.Index(cmds, "cmd connectivity airplane-mode enable"), slices.Index(cmds, "input keyevent 187"), slices.Index(cmds, "cmd connectivity airplane-mode disable")
	if !(on < key && key < off) {
		t.Errorf("commands out of script order: airplane on %d, app switcher %d, airplane off %d", on, key, off)
	}
}

// TestScriptSettingAndroidCannotSet: a setting adb cannot set is refused
// with what Android can set, and nothing reaches the device.
func TestScriptSettingAndroidCannotSet(t *testing.T) {
	r := newRig(t, fakedevice.Options{}, android.Options{})
	ctx := tctx(t)
	sess := runner.NewSession(r.s, runner.SessionConfig{ArtifactsDir: t.TempDir()})
	before := len(r.dev.Commands())
	_, e := sess.Dispatch(ctx, action(t, "settings appearance dark"))
	if e == nil || e.Code != runner.CodeUnsupportedOperation || e.Reason != "unsupported_setting" ||
		e.Message != "settings appearance is not supported on android" ||
		e.Hint != "On android, settings can set: airplane off|on, animations off|on, wifi off|on." {
		t.Fatalf("settings appearance dark: %+v", e)
	}
	if got := r.dev.Commands()[before:]; len(got) != 0 {
		t.Errorf("a refused setting sent %q", got)
	}
	// The driver's own guard, for callers outside the runner.
	if err := r.s.Setting(ctx, "animations", "maybe"); err == nil {
		t.Errorf("Setting accepted animations maybe")
	}
}

func action(t *testing.T, line string) *lang.Action {
	t.Helper()
	s, err := lang.Parse("line.ad", []byte(line+"\n"))
	if err != nil || len(s.Actions) != 1 {
		t.Fatalf("parse %q: %v", line, err)
	}
	return s.Actions[0]
}
