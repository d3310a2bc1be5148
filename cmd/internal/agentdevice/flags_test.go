package agentdevice

import (
	"strings"
	"testing"
)

func TestParseADArgs(t *testing.T) {
	t.Parallel()
	a, err := ParseArgs("replay", []string{"-e", "A=1", "f.ad", "--from=2", "--json", "--env", "B=2", "--save-script", "./x.ad", "--", "--odd"}, ReplayFlags)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(a.All("env"), ","); got != "A=1,B=2" {
		t.Errorf("env = %q", got)
	}
	if a.Last("from") != "2" || !a.Has("json") || a.Last("save-script") != "./x.ad" {
		t.Errorf("settings = %v", a.Settings)
	}
	if got := strings.Join(a.Pos, ","); got != "f.ad,--odd" {
		t.Errorf("pos = %q", got)
	}
	for _, bad := range [][]string{{"--bogus"}, {"-from", "2"}, {"--json=1"}, {"--from"}} {
		if _, err := ParseArgs("replay", bad, ReplayFlags); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}
