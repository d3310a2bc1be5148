package main

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/adtest/adtest/daemon"
	"github.com/adtest/adtest/lang"
)

func TestParseSessionFlags(t *testing.T) {
	for _, tc := range []struct {
		name, cmd string
		args      []string
		want      sessionFlags
		err       string
	}{
		{name: "defaults", cmd: "click", args: []string{"@e3"}, want: sessionFlags{session: "default", argv: []string{"@e3"}}},
		{name: "session and json anywhere", cmd: "snapshot", args: []string{"-i", "--session", "a", "--json", "-d", "2"},
			want: sessionFlags{session: "a", json: true, argv: []string{"-i", "-d", "2"}}},
		{name: "session=", cmd: "click", args: []string{"--session=b", "id=go"}, want: sessionFlags{session: "b", argv: []string{"id=go"}}},
		{name: "open flags", cmd: "open", args: []string{"http://x", "--platform", "web", "--save-script=f.ad", "--relaunch", "--force"},
			want: sessionFlags{session: "default", platform: "web", saveScript: true, scriptPath: "/cwd/f.ad", force: true, argv: []string{"http://x", "--relaunch"}}},
		{name: "bare save-script takes no value", cmd: "open", args: []string{"--save-script", "http://x"},
			want: sessionFlags{session: "default", saveScript: true, argv: []string{"http://x"}}},
		{name: "platform only for open", cmd: "click", args: []string{"--platform", "web"}, err: "unknown flag --platform"},
		{name: "misspelt session is no text", cmd: "fill", args: []string{"id=search", "hello", "--sesion", "bench"}, err: "unknown flag --sesion (did you mean --session?)"},
		{name: "misspelt json is no text", cmd: "fill", args: []string{"id=search", "hello", "--jsn"}, err: "unknown flag --jsn (did you mean --json?)"},
		{name: "misspelt session on snapshot", cmd: "snapshot", args: []string{"-i", "--sesion", "X"}, err: "did you mean --session?"},
		{name: "misspelt script flag", cmd: "click", args: []string{"@e1", "--cuont", "2"}, err: "did you mean --count?"},
		{name: "script flags pass on", cmd: "click", args: []string{"@e1", "--count", "2", "--double-tap"},
			want: sessionFlags{session: "default", argv: []string{"@e1", "--count", "2", "--double-tap"}}},
		{name: "text with -- after the separator", cmd: "fill", args: []string{"@e1", "--", "--sesion"}, want: sessionFlags{session: "default", argv: []string{"@e1", "--sesion"}}},
		{name: "a single dash is text (negative numbers)", cmd: "fill", args: []string{"@e1", "-5"}, want: sessionFlags{session: "default", argv: []string{"@e1", "-5"}}},
		{name: "record-as", cmd: "fill", args: []string{"@e3", "pw", "--record-as", "PASSWORD"},
			want: sessionFlags{session: "default", recordAs: "PASSWORD", argv: []string{"@e3", "pw"}}},
		{name: "double dash", cmd: "fill", args: []string{"@e3", "--", "--json"}, want: sessionFlags{session: "default", argv: []string{"@e3", "--json"}}},
		{name: "screenshot path as typed (the session resolves it)", cmd: "screenshot", args: []string{"--max-size", "100", "shot.png"},
			want: sessionFlags{session: "default", argv: []string{"--max-size", "100", "shot.png"}}},
		{name: "bad record-as", cmd: "fill", args: []string{"@e1", "x", "--record-as", "AD_X"}, err: "invalid --record-as"},
		{name: "bad platform", cmd: "open", args: []string{"x", "--platform=ios"}, err: "web or android"},
		{name: "missing value", cmd: "click", args: []string{"--session"}, err: "--session needs a value"},
		{name: "close needs a path", cmd: "close", args: []string{"--save-script"}, err: "needs =PATH"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseSessionFlags(tc.cmd, tc.args, "/cwd")
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

// TestInteractiveCommandsFromTable: the CLI's session commands are exactly
// the table's interactive rows, and help lists them.
func TestInteractiveCommandsFromTable(t *testing.T) {
	cmds := commands()
	var fromTable []string
	for _, c := range lang.Commands {
		if c.Interactive {
			fromTable = append(fromTable, c.Name)
			if !cmds[c.Name].interactive {
				t.Errorf("%s is interactive in the table but not an adtest command", c.Name)
			}
		}
	}
	if len(fromTable) != 22 {
		t.Errorf("want the 22 interactive commands of the issue, got %d: %v", len(fromTable), fromTable)
	}
	code, out, _ := runMain(t, t.TempDir(), "help")
	if code != 0 || !strings.Contains(out, "interactive session commands") || !strings.Contains(out, "\n  screenshot ") {
		t.Fatalf("help does not list the interactive commands:\n%s", out)
	}
}

// An interrupted client's error says what to do next, like every other.
func TestClientErrorInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	e := daemon.ClientError(ctx, &daemon.Client{Dir: t.TempDir()}, ctx.Err())
	if e.Reason != "cancelled" || e.Hint == "" {
		t.Fatalf("got %+v, want reason cancelled with a hint", e)
	}
	if got := e.Exit(); got != ExitInterrupted {
		t.Fatalf("exit %d, want %d", got, ExitInterrupted)
	}
}
