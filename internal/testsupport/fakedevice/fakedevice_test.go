package fakedevice

import (
	"encoding/base64"
	"reflect"
	"testing"

	"github.com/adtest/adtest/drivers/fake"
)

func TestSplitWords(t *testing.T) {
	for in, want := range map[string][]string{
		`input text 'a%sb'`:          {"input", "text", "a%sb"},
		`am start -d 'x y' -p com.a`: {"am", "start", "-d", "x y", "-p", "com.a"},
		`echo "a \"b\"" c\ d`:        {"echo", `a "b"`, "c d"},
		`input text 'it'\''s'`:       {"input", "text", "it's"},
		"  spaced\tout  ":            {"spaced", "out"},
		`settings put global x ''`:   {"settings", "put", "global", "x", ""},
	} {
		if got := splitWords(in); !reflect.DeepEqual(got, want) {
			t.Errorf("splitWords(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestGestureValidatesTouchPlans(t *testing.T) {
	s, err := fake.ParseScreens("s", "open com.x -> a\nscreen a\n  text \"A\"\n")
	if err != nil {
		t.Fatal(err)
	}
	d := &Device{opts: Options{Screens: s}, counts: map[string]int{}, app: fake.New(s, fake.Options{})}
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	for name, tc := range map[string]struct{ plan, ok string }{
		"good":           {`{"protocol":"android-touch-plan-v1","kind":"swipe","durationMs":100,"pointers":[{"pointerId":0,"samples":[{"offsetMs":0,"x":1,"y":1},{"offsetMs":100,"x":1,"y":500}]}]}`, "true"},
		"not rising":     {`{"protocol":"android-touch-plan-v1","kind":"swipe","durationMs":100,"pointers":[{"pointerId":0,"samples":[{"offsetMs":0,"x":1,"y":1},{"offsetMs":0,"x":1,"y":5},{"offsetMs":100,"x":1,"y":9}]}]}`, "false"},
		"short":          {`{"protocol":"android-touch-plan-v1","kind":"swipe","durationMs":100,"pointers":[{"pointerId":0,"samples":[{"offsetMs":0,"x":1,"y":1},{"offsetMs":50,"x":1,"y":5}]}]}`, "false"},
		"two for swipe":  {`{"protocol":"android-touch-plan-v1","kind":"swipe","durationMs":1,"pointers":[{"samples":[{"offsetMs":0},{"offsetMs":1}]},{"samples":[{"offsetMs":0},{"offsetMs":1}]}]}`, "false"},
		"wrong protocol": {`{"protocol":"v0","kind":"swipe","durationMs":1,"pointers":[{"samples":[{"offsetMs":0},{"offsetMs":1}]}]}`, "false"},
	} {
		if got := d.gesture(b64(tc.plan))["ok"]; got != tc.ok {
			t.Errorf("%s: ok=%s, want %s", name, got, tc.ok)
		}
	}
	if got := d.gesture("%%%")["ok"]; got != "false" {
		t.Errorf("bad base64 accepted")
	}
}
