package android_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/drivers/fake"
	android "github.com/adtest/adtest/examples/android"
	"github.com/adtest/adtest/lang"
)

// TestScriptsAreWellFormed: every script declares platform=android and
// checks clean; the suite opens the example app or its deep link first.
func TestScriptsAreWellFormed(t *testing.T) {
	files, _ := filepath.Glob("suite/*.ad")
	emu, _ := filepath.Glob("emulator/*.ad")
	if len(files) < 4 || len(emu) < 1 {
		t.Fatalf("suite %v, emulator %v", files, emu)
	}
	for _, f := range append(files, emu...) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(src), "context platform=android") {
			t.Errorf("%s does not start with context platform=android", f)
		}
		s, diags := lang.CheckSource(f, src, lang.CheckOptions{Platform: drivers.PlatformAndroid})
		for _, d := range diags {
			t.Errorf("%s", d.Format(f))
		}
		if s == nil || strings.HasPrefix(f, "emulator") {
			continue
		}
		if !strings.Contains(string(src), "\nopen com.adtest.demo") && !strings.Contains(string(src), "\nopen adtest://") {
			t.Errorf("%s does not open the example app", f)
		}
	}
}

func TestScreensParse(t *testing.T) {
	s, err := fake.ParseScreens("app.screens", android.Screens)
	if err != nil {
		t.Fatal(err)
	}
	if s.Opens[android.Package] != "login" || s.Opens["adtest://catalog"] != "catalog" || s.Viewport.Width != 1080 {
		t.Errorf("opens %v viewport %v", s.Opens, s.Viewport)
	}
}
