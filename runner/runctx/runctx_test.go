package runctx

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner/trace"
)

// TestSecretValues: the one picker takes the values of secret-looking
// names and of --mask names from every source, none empty, in one order;
// blank pictures come last.
func TestSecretValues(t *testing.T) {
	t.Parallel()
	script, err := lang.Parse("flow.ad", []byte("env API_KEY=k9\nenv HOST=h\nopen demo\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		v    Vars
		want []string
	}{
		{"names and --mask", Vars{CLI: map[string]string{"API_TOKEN": "t", "EMAIL": "e", "USER": "u"}, MaskNames: []string{"USER"}}, []string{"t", "u"}},
		{"every source, none empty", Vars{CLI: map[string]string{"PASSWORD": ""}, Process: map[string]string{"MY_SECRET": "s"}, Script: script}, []string{"k9", "s"}},
		{"blank pictures last", Vars{Process: map[string]string{"TOKEN": "a"}, BlankPictures: true}, []string{"a", drivers.BlankPictures}},
		{"none", Vars{CLI: map[string]string{"EMAIL": "e"}}, nil},
	} {
		if got := c.v.SecretValues(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: SecretValues = %q, want %q", c.name, got, c.want)
		}
	}
	rc := New(Vars{Script: script, Process: map[string]string{"TOKEN": "a"}})
	if rc.Scope.Script["HOST"] != "h" || rc.Scope.Process["TOKEN"] != "a" || rc.Mask.String("a k9 h") != "*** *** h" {
		t.Errorf("scope %+v, masked %q", rc.Scope, rc.Mask.String("a k9 h"))
	}
}

// TestTraceLifecycle: the run's trace starts when the policy records the
// attempt and is kept or removed as it keeps it.
func TestTraceLifecycle(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		policy  trace.Policy
		attempt int
		passed  bool
		started bool
		kept    bool
	}{
		{"platform default, first attempt", trace.Policy{PlatformDefault: true}, 1, false, false, false},
		{"platform default, first retry", trace.Policy{PlatformDefault: true}, 2, false, true, true},
		{"retain-on-failure, passed", trace.Policy{Mode: trace.RetainOnFailure}, 1, true, true, false},
		{"retain-on-failure, failed", trace.Policy{Mode: trace.RetainOnFailure}, 1, false, true, true},
		{"off", trace.Policy{Mode: trace.Off}, 1, false, false, false},
	} {
		dir := filepath.Join(t.TempDir(), "trace")
		rc := New(Vars{})
		if err := rc.StartTrace(c.policy, drivers.PlatformWeb, c.attempt, dir, trace.Info{File: "a.ad"}); err != nil {
			t.Fatal(err)
		}
		if started := rc.Trace != nil; started != c.started || len(rc.Hooks()) != map[bool]int{true: 1}[started] {
			t.Errorf("%s: started %v (%d hooks), want %v", c.name, started, len(rc.Hooks()), c.started)
		}
		got, err := rc.FinishTrace(c.passed)
		if err != nil {
			t.Fatal(err)
		}
		_, statErr := os.Stat(filepath.Join(dir, trace.File))
		if kept := got != ""; kept != c.kept || kept != (statErr == nil) {
			t.Errorf("%s: kept %q (trace.json: %v), want kept %v", c.name, got, statErr, c.kept)
		}
	}
}
