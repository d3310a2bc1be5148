package agentdevice

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseSessionLine(t *testing.T) {
	for _, tc := range []struct {
		name, cmd string
		args      []string
		want      SessionLine
		err       string
	}{
		{name: "defaults", cmd: "click", args: []string{"@e3"}, want: SessionLine{Session: "default", Argv: []string{"@e3"}}},
		{name: "session and json anywhere", cmd: "snapshot", args: []string{"-i", "--session", "a", "--json", "-d", "2"},
			want: SessionLine{Session: "a", JSON: true, Argv: []string{"-i", "-d", "2"}}},
		{name: "session=", cmd: "click", args: []string{"--session=b", "id=go"}, want: SessionLine{Session: "b", Argv: []string{"id=go"}}},
		{name: "open flags", cmd: "open", args: []string{"http://x", "--platform", "web", "--save-script=f.ad", "--relaunch", "--force"},
			want: SessionLine{Session: "default", Platform: "web", SaveScript: true, ScriptPath: "/cwd/f.ad", Force: true, Argv: []string{"http://x", "--relaunch"}}},
		{name: "bare save-script takes no value", cmd: "open", args: []string{"--save-script", "http://x"},
			want: SessionLine{Session: "default", SaveScript: true, Argv: []string{"http://x"}}},
		{name: "platform only for open", cmd: "click", args: []string{"--platform", "web"}, err: "unknown flag --platform"},
		{name: "misspelt session is no text", cmd: "fill", args: []string{"id=search", "hello", "--sesion", "bench"}, err: "unknown flag --sesion (did you mean --session?)"},
		{name: "misspelt json is no text", cmd: "fill", args: []string{"id=search", "hello", "--jsn"}, err: "unknown flag --jsn (did you mean --json?)"},
		{name: "misspelt session on snapshot", cmd: "snapshot", args: []string{"-i", "--sesion", "X"}, err: "did you mean --session?"},
		{name: "misspelt script flag", cmd: "click", args: []string{"@e1", "--cuont", "2"}, err: "did you mean --count?"},
		{name: "script flags pass on", cmd: "click", args: []string{"@e1", "--count", "2", "--double-tap"},
			want: SessionLine{Session: "default", Argv: []string{"@e1", "--count", "2", "--double-tap"}}},
		{name: "text with -- after the separator", cmd: "fill", args: []string{"@e1", "--", "--sesion"}, want: SessionLine{Session: "default", Argv: []string{"@e1", "--sesion"}}},
		{name: "a single dash is text (negative numbers)", cmd: "fill", args: []string{"@e1", "-5"}, want: SessionLine{Session: "default", Argv: []string{"@e1", "-5"}}},
		{name: "record-as", cmd: "fill", args: []string{"@e3", "pw", "--record-as", "PASSWORD"},
			want: SessionLine{Session: "default", RecordAs: "PASSWORD", Argv: []string{"@e3", "pw"}}},
		{name: "double dash", cmd: "fill", args: []string{"@e3", "--", "--json"}, want: SessionLine{Session: "default", Argv: []string{"@e3", "--json"}}},
		{name: "screenshot path as typed (the session resolves it)", cmd: "screenshot", args: []string{"--max-size", "100", "shot.png"},
			want: SessionLine{Session: "default", Argv: []string{"--max-size", "100", "shot.png"}}},
		{name: "bad record-as", cmd: "fill", args: []string{"@e1", "x", "--record-as", "AD_X"}, err: "invalid --record-as"},
		{name: "bad platform", cmd: "open", args: []string{"x", "--platform=ios"}, err: "web or android"},
		{name: "missing value", cmd: "click", args: []string{"--session"}, err: "--session needs a value"},
		{name: "close needs a path", cmd: "close", args: []string{"--save-script"}, err: "needs =PATH"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseSessionLine(tc.cmd, tc.args, "/cwd")
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("want error %q, got %v", tc.err, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(*got, tc.want) {
				t.Fatalf("got %+v\nwant %+v", *got, tc.want)
			}
		})
	}
}

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
		f, err := ParseSessionLine("open", tt.args, "/w")
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
		if f.ScriptPath != tt.wantPath || !f.SaveScript && tt.wantPath != "" {
			t.Errorf("%s: scriptPath = %q, want %q", tt.name, f.ScriptPath, tt.wantPath)
		}
		if got := strings.Join(f.Argv, " "); got != tt.wantArgv {
			t.Errorf("%s: argv = %q, want %q", tt.name, got, tt.wantArgv)
		}
	}
}
