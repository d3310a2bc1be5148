package main

import (
	"strings"
	"testing"
)

func TestSaveScriptAfterSpace(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		args     []string
		wantPath string // "" : no path
		wantArgv string
		wantErr  string
	}{
		{"dot slash path", []string{"http://h/", "--save-script", "./flows/k.ad"}, "/w/flows/k.ad", "http://h/", ""},
		{"parent path", []string{"http://h/", "--save-script", "../k.ad"}, "/k.ad", "http://h/", ""},
		{"absolute path", []string{"http://h/", "--save-script", "/tmp/k.ad"}, "/tmp/k.ad", "http://h/", ""},
		{"bare .ad name", []string{"http://h/", "--save-script", "k.ad"}, "/w/k.ad", "http://h/", ""},
		{"equals form", []string{"http://h/", "--save-script=k"}, "/w/k", "http://h/", ""},
		{"app after the flag stays the app", []string{"--save-script", "com.example.app"}, "", "com.example.app", ""},
		{"url after the flag stays the url", []string{"--save-script", "http://h/"}, "", "http://h/", ""},
		{"second positional url", []string{"com.example.app", "http://h/"}, "", "com.example.app http://h/", ""},
		{"second positional refused", []string{"http://h/", "flows/k"}, "", "", `open: "flows/k" is neither a URL nor an app id, so it is not opened; to record to that file, write --save-script flows/k (or --save-script=flows/k)`},
		{"second positional word refused", []string{"http://h/", "oops"}, "", "", `open: "oops" is neither a URL nor an app id, so it is not opened; open takes [app|url] [url]`},
	}
	for _, tt := range tests {
		f, err := parseSessionFlags("open", tt.args, "/w")
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("%s: err = %v, want %s", tt.name, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if f.scriptPath != tt.wantPath || !f.saveScript && tt.wantPath != "" {
			t.Errorf("%s: scriptPath = %q, want %q", tt.name, f.scriptPath, tt.wantPath)
		}
		if got := strings.Join(f.argv, " "); got != tt.wantArgv {
			t.Errorf("%s: argv = %q, want %q", tt.name, got, tt.wantArgv)
		}
	}
}

func TestParseADArgs(t *testing.T) {
	t.Parallel()
	a, err := parseADArgs("replay", []string{"-e", "A=1", "f.ad", "--from=2", "--json", "--env", "B=2", "--save-script", "./x.ad", "--", "--odd"}, replayFlags)
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
		if _, err := parseADArgs("replay", bad, replayFlags); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}
