package main

import (
	"context"
	"strings"
	"testing"
)

// runCheckCLI runs `adtest check args...` in dir through Main.
func runCheckCLI(t *testing.T, dir string, getenv map[string]string, environ []string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runMainCall(context.Background(), t, cliCall{cwd: dir, getenv: getenv, environ: environ}, append([]string{"check"}, args...)...)
}

func TestCheckCommand(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{
		"ok.ad":           "context platform=android\nopen com.example.app\nclose\n",
		"suite/b.ad":      "context platform=web\nopen https://x.test\nhome\n",
		"suite/a.ad":      "context platform=android\nopen ${APP}\nclick label=Sign in # tap\n",
		"suite/deep/w.ad": "context platform=ios\nopen com.example.app\nfill @e2 hello world\n",
		"suite/notes.txt": "not a script\n",
		"vars/needs.ad":   "context platform=ios\nopen ${APP}\n",
		"quirk/warn.ad":   "context platform=ios timeout=60000ms\nopen com.example.app\n",
	})
	tests := []struct {
		name    string
		args    []string
		environ []string
		getenv  map[string]string
		code    int
		stdout  string
		stderr  string
	}{
		{name: "clean file", args: []string{"ok.ad"}, code: 0},
		{name: "directory is recursive and sorted", args: []string{"suite"}, code: 2,
			stdout: `suite/a.ad:2:6: error: ${APP} is not defined: no env line, -e APP=... or AD_VAR_APP supplies it
	hint: add ` + "`env APP=...`" + ` to the header, pass -e APP=..., or write ${APP:-default}
suite/a.ad:3:7: error: Target "label=Sign in # tap" is not a @ref, selector, or "x y" point. Selector values with spaces need quotes, e.g. text="Sign in".
	hint: # starts a comment only at the beginning of a line; here it became part of the target
suite/a.ad:3:21: warning: "#" is not a comment: # starts a comment only at the beginning of a line, so it is passed to click as an argument
	hint: put the comment on its own line above
suite/b.ad:3:1: error: home is not supported on platform web
	hint: home exists on ios, android, vega
suite/deep/w.ad:3:6: warning: @e2 is used before any snapshot: refs exist only after a snapshot in the same run
	hint: add snapshot -i before this line, or use a selector
suite/deep/w.ad:3:6: warning: fill @e2 hello world types only "world": the token after the ref is read as its label
	hint: quote the text: fill @e2 "hello world"
`,
			stderr: "3 errors, 3 warnings in 3 files\n"},
		{name: "compat adds agent-device-only warnings", args: []string{"--compat", "suite/b.ad"}, code: 2,
			stdout: `suite/b.ad:1:18: warning: agent-device ignores context platform=web (it accepts ios, android, macos, linux, apple, vega, harmonyos); adtest runs the script on web
suite/b.ad:3:1: error: home is not supported on platform web
	hint: home exists on ios, android, vega
`,
			stderr: "1 error, 1 warning in 1 file\n"},
		{name: "-e supplies a variable", args: []string{"-e", "APP=com.x", "vars/needs.ad"}, code: 0},
		{name: "AD_VAR_ supplies a variable", args: []string{"vars/needs.ad"}, environ: []string{"AD_VAR_APP=com.x"}, code: 0},
		{name: "warnings alone pass", args: []string{"quirk"}, code: 0,
			stdout: "quirk/warn.ad:1:35: warning: context timeout=60000ms is read as 60000: the trailing \"ms\" is ignored\n\thint: write timeout=60000\n",
			stderr: "0 errors, 1 warning in 1 file\n"},
		{name: "strict makes warnings errors", args: []string{"--strict", "quirk/*.ad"}, code: 2,
			stdout: "quirk/warn.ad:1:35: error: context timeout=60000ms is read as 60000: the trailing \"ms\" is ignored\n\thint: write timeout=60000\n",
			stderr: "1 error, 0 warnings in 1 file\n"},
		{name: "github annotations", args: []string{"quirk/warn.ad"}, getenv: map[string]string{"GITHUB_ACTIONS": "true"}, code: 0,
			stdout: "quirk/warn.ad:1:35: warning: context timeout=60000ms is read as 60000: the trailing \"ms\" is ignored\n\thint: write timeout=60000\n" +
				"::warning file=quirk/warn.ad,line=1,col=35,title=adtest check (context-unanchored)::context timeout=60000ms is read as 60000: the trailing \"ms\" is ignored%0Ahint: write timeout=60000\n",
			stderr: "0 errors, 1 warning in 1 file\n"},
		{name: "missing path", args: []string{"nope.ad"}, code: 2,
			stderr: "adtest check: nope.ad: no such file or directory\n1 error, 0 warnings in 0 files\n"},
		{name: "bad -e entry", args: []string{"-e", "app=x", "ok.ad"}, code: 2,
			stderr: "adtest check: Invalid -e key \"app\": keys must be uppercase letters, digits, and underscores (e.g. APP_ID).\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := runCheckCLI(t, dir, tc.getenv, tc.environ, tc.args...)
			if code != tc.code || stdout != tc.stdout || stderr != tc.stderr {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nwant:\n%s\nstderr:\n%s\nwant:\n%s", code, tc.code, stdout, tc.stdout, stderr, tc.stderr)
			}
		})
	}
}

func TestCheckCommandUsage(t *testing.T) {
	t.Parallel()
	code, _, stderr := runCheckCLI(t, t.TempDir(), nil, nil)
	if code != 2 || !strings.HasPrefix(stderr, "adtest check: check requires at least one path, directory or glob\n") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = runCheckCLI(t, t.TempDir(), nil, nil, "--frob", "x.ad")
	if code != 2 || !strings.HasPrefix(stderr, "adtest check: unknown flag --frob\n") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}
