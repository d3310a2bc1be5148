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
