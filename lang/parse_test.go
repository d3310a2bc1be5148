package lang

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// renderAction prints an action as "line:col cmd [p1 p2] flags{...} runtime{...} label=..".
func renderAction(a *Action) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d:%d %s %q", a.Pos.Line, a.Pos.Column, a.Command, a.Positionals)
	for _, kv := range []struct {
		name string
		f    Flags
	}{{"flags", a.Flags}, {"runtime", a.Runtime}} {
		if len(kv.f) == 0 {
			continue
		}
		keys := make([]string, 0, len(kv.f))
		for k := range kv.f {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = fmt.Sprintf("%s=%v", k, kv.f[k])
		}
		fmt.Fprintf(&b, " %s{%s}", kv.name, strings.Join(parts, ","))
	}
	if a.RefLabel != nil {
		fmt.Fprintf(&b, " label=%q", *a.RefLabel)
	}
	if a.TargetEvidence != nil {
		ev, _ := json.Marshal(a.TargetEvidence)
		fmt.Fprintf(&b, " evidence=%s", ev)
	}
	if a.Targets != nil {
		fmt.Fprintf(&b, " targets=%s->%s", a.Targets.Source.ID, a.Targets.Destination.ID)
	}
	return b.String()
}

func TestParseActions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"positions of an indented action", "  click @e1 Save\n", []string{`1:3 click ["@e1"] label="Save"`}},
		{"single-quoted selector (newest grammar)", "click 'label=Done'\n", []string{`1:1 click ["label=Done"]`}},
		{"single quotes keep backslashes, \\' is an apostrophe", `type 'C:\dir' 'it\'s'`, []string{`1:1 type ["C:\\dir" "it's"]`}},
		{"single-quoted flag name is still a flag", "click @e1 '--count' 2", []string{`1:1 click ["@e1"] flags{count=2}`}},
		{"type: a quoted flag name is still a flag", "type '--delay-ms' 5", []string{`1:1 type [] flags{delayMs=5}`}},
		{"type: a quoted flag with a text value stays text", "type '--delay-ms' 'abc'", []string{`1:1 type ["--delay-ms" "abc"]`}},
		{"type bare flag is a flag", "type hi --delay-ms 5", []string{`1:1 type ["hi"] flags{delayMs=5}`}},
		{"fill ref label text quirk", "fill @e2 hello world", []string{`1:1 fill ["@e2" "world"] label="hello"`}},
		{"fill coordinates", "fill 10 20 a b", []string{`1:1 fill ["10" "20" "a b"]`}},
		{"fill two numbers only: empty text", "fill 10 20", []string{`1:1 fill ["10" "20" ""]`}},
		{"click hex coordinates are numbers", "click 0x10 1e2 extra", []string{`1:1 click ["0x10" "1e2"]`}},
		{"click floored count", "press @e1 --count 2.7", []string{`1:1 press ["@e1"] flags{count=2}`}},
		{"click negative count stays positional", "press label=A --count -1", []string{`1:1 press ["label=A --count -1"]`}},
		{"value flag at the end stays positional", "click @e1 --count", []string{`1:1 click ["@e1"] label="--count"`}},
		{"flag=value form is a positional", "click @e1 --count=2", []string{`1:1 click ["@e1"] label="--count=2"`}},
		{"get ref label", "get text @e5~s3 Title", []string{`1:1 get ["text" "@e5"] label="Title"`}},
		{"longpress strips pins", "longpress @e2~s3 800", []string{`1:1 longpress ["@e2" "800"]`}},
		{"hover strips pins", "hover @e4~s12", []string{`1:1 hover ["@e4"]`}},
		{"wait newest flags", "wait @e7~s5 --raw --depth 3 --scope Login 5000", []string{`1:1 wait ["@e7" "5000"] flags{snapshotDepth=3,snapshotRaw=true,snapshotScope=Login}`}},
		{"scroll until", `scroll down --until "label=Footer"`, []string{`1:1 scroll ["down"] flags{scrollUntil=label=Footer}`}},
		{"scroll pixels stays positional", "scroll down --pixels 320", []string{`1:1 scroll ["down" "--pixels" "320"]`}},
		{"fold keyframes", "fold open --keyframes 0,90", []string{`1:1 fold ["open"] flags{keyframes=0,90}`}},
		{"screenshot newest flags", `screenshot a.png --scale 0.5 --crop-on "id=card" -f`, []string{`1:1 screenshot ["a.png"] flags{screenshotCropOn=id=card,screenshotFullscreen=true,screenshotScale=0.5}`}},
		{"screenshot integer scale", `screenshot --scale 1`, []string{`1:1 screenshot [] flags{screenshotScale=1}`}},
		{"open runtime hints", "open app --platform ios --metro-port 8081 --metro-host h", []string{`1:1 open ["app"] runtime{metroHost=h,metroPort=8081,platform=ios}`}},
		{"open metro port variable dropped", "open app --metro-port ${PORT}", []string{`1:1 open ["app"]`}},
		{"open fractional metro port floored", "open app --metro-port 80.5", []string{`1:1 open ["app"] runtime{metroPort=80}`}},
		{"snapshot ignores other tokens", "snapshot -c foo -d 2 --backend x bar", []string{`1:1 snapshot [] flags{snapshotDepth=2}`}},
		{"runtime command takes its hints as flags", "runtime --platform android", []string{`1:1 runtime [] flags{platform=android}`}},
		{"unknown command keeps flags as positionals", "frob --count 2", []string{`1:1 frob ["--count" "2"]`}},
		{"gesture drag with single-quoted selectors", `gesture drag 'id="a b"' 'id="c"' 600`, []string{`1:1 gesture ["drag" "id=\"a b\"" "id=\"c\"" "600"]`}},
		{"targets-v1 binds two endpoints", "# agent-device:targets-v1 {\"source\":{\"id\":\"s\",\"role\":\"view\",\"verification\":\"verified\"},\"destination\":{\"id\":\"d\",\"role\":\"view\",\"verification\":\"verified\"}}\ngesture drag id=s id=d",
			[]string{`2:1 gesture ["drag" "id=s" "id=d"] targets=s->d`}},
		{"evidence label NFC and whitespace collapse", "# agent-device:target-v1 {\"role\":\"b\",\"label\":\" A\\u0300  b \",\"rect\":{\"x\":1,\"y\":2,\"width\":3,\"height\":4.5},\"verification\":\"verified\"}\nclick @e1",
			[]string{`2:1 click ["@e1"] evidence={"role":"b","label":"À b","ancestry":[],"sibling":0,"viewportOrder":0,"rect":{"x":1,"y":2,"width":3,"height":4.5},"verification":"verified"}`}},
		{"context line after an action is ignored", "open x\ncontext platform=ios\nwait 1", []string{`1:1 open ["x"]`, `3:1 wait ["1"]`}},
		{"nbsp separated context is not an action", "context\u00a0platform=ios\nopen x", []string{`2:1 open ["x"]`}},
	}
	for _, tt := range tests {
		s, err := Parse("t.ad", []byte(tt.src))
		if err != nil {
			t.Errorf("%s: unexpected error %v", tt.name, err)
			continue
		}
		var got []string
		for _, a := range s.Actions {
			got = append(got, renderAction(a))
		}
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, strings.Join(got, "\n     "), strings.Join(tt.want, "\n     "))
		}
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		src      string
		want     string // file:line:col: message
		hint     string
		metadata bool
	}{
		{"invalid escape", "type \"price \\$5\"\n", `t.ad:1:6: Invalid quoted value "price \$5" in replay script line: type "price \$5"`, quotedHint, false},
		{"unclosed double quote", "  open x\n  type \"abc  \n", `t.ad:2:3: Invalid replay script line: type "abc`, "", false},
		{"unclosed single quote", "click 'label=A", `t.ad:1:1: Invalid replay script line: click 'label=A`, "", false},
		{"env after action", "open x\nenv A=1\n", `t.ad:2:1: env directives must precede all actions (line 2).`, "", false},
		{"header error before body error", "env a=1\ntype \"\\q\"\n", `t.ad:1:1: Invalid env key "a" on line 1: keys must be uppercase letters, digits, and underscores (e.g. APP_ID).`, "", true},
		{"conflicting context", "context platform=ios\ncontext platform=android\n", `t.ad:2:18: Conflicting replay test metadata "platform" in context header: ios vs android.`, "", true},
		{"duplicate timeout", "context timeout=5\ncontext timeout=5ms\n", `t.ad:2:17: Duplicate replay test metadata "timeoutMs" in context header.`, "", true},
		{"annotation at end of script without newline", "open x\n# agent-device:target-v1 {\"role\":\"b\",\"verification\":\"verified\"}", `t.ad:2:1: target-v1 annotation on line 2 must be immediately followed by its action line (end of script reached).`, "", false},
		{"another annotation (newest wording)", "# agent-device:target-v1 {\"role\":\"b\",\"verification\":\"verified\"}\n# agent-device:target-v1 {\"role\":\"b\",\"verification\":\"verified\"}\nclick @e1", `t.ad:2:1: target-v1 annotation on line 1 must be immediately followed by its action line (line 2 is another target annotation).`, "", false},
		{"unbound targets-v1", "# agent-device:targets-v1 {\"source\":{\"role\":\"b\",\"verification\":\"verified\"},\"destination\":{\"role\":\"b\",\"verification\":\"verified\"}}\n\n", `t.ad:2:1: targets-v1 annotation on line 1 must be immediately followed by its action line (line 2 is blank).`, "", false},
		{"annotation with trailing text", "# agent-device:target-v1 {\"role\":\"b\",\"verification\":\"verified\"} extra\nclick @e1", `t.ad:1:1: target-v1 annotation is not valid JSON.`, "", false},
		{"annotation not an object", "# agent-device:target-v1 [1]\nclick @e1", `t.ad:1:1: target-v1 annotation must be a JSON object.`, "", false},
		{"annotation payload too long", "# agent-device:target-v1 {\"role\":\"" + strings.Repeat("x", 4100) + "\"}\nclick @e1", `t.ad:1:1: target-v1 annotation exceeds the 4096-byte payload cap.`, "", false},
		{"targets-v1 not valid JSON", "# agent-device:targets-v1 {\"source\":\n", `t.ad:1:1: targets-v1 annotation is not valid JSON.`, "", false},
		{"targets-v1 not an object", "# agent-device:targets-v1 \"x\"\nclick @e1", `t.ad:1:1: targets-v1 annotation must be a JSON object.`, "", false},
		{"targets-v1 payload too long", "# agent-device:targets-v1 {\"source\":\"" + strings.Repeat("x", 8320) + "\"}\nclick @e1", `t.ad:1:1: targets-v1 annotation exceeds the 8320-byte payload cap.`, "", false},
		{"annotation negative sibling", "# agent-device:target-v1 {\"role\":\"b\",\"sibling\":-1,\"verification\":\"verified\"}\nclick @e1", `t.ad:1:1: target-v1 "sibling" must be a non-negative integer.`, "", false},
		{"swipe migration with float deltas", "swipe 1.5 2 3 4.25 300", `t.ad:1:20: swipe accepts 4 arguments: x1 y1 x2 y2 (line 1). The trailing durationMs positional was removed: use "gesture pan 1.5 2 1.5 2.25 300" for the same timed drag, or "swipe 1.5 2 3 4.25" for a default-duration swipe.`, "", false},
		{"swipe six arguments", "swipe 1 2 3 4 5 6", `t.ad:1:15: swipe accepts 4 arguments: x1 y1 x2 y2 (line 1).`, "", false},
		{"gesture pan too many", "gesture pan 1 2 3 4 5 6", `t.ad:1:23: gesture pan accepts at most 5 arguments: x y dx dy [durationMs] (line 1).`, "", false},
		{"gesture fling non-numeric extra", "gesture fling up 1 2 3 slow", `t.ad:1:24: gesture fling accepts at most 4 arguments: direction x y [distance] (line 1).`, "", false},
		{"gesture swipe variable duration", "gesture swipe up ${MS}", `t.ad:1:18: gesture swipe accepts 1 argument: preset (line 1). The trailing durationMs positional was removed: use "gesture swipe up", or gesture pan for timed movement.`, "", false},
		{"screenshot pixel density", "screenshot --pixel-density 1.5", `t.ad:1:12: screenshot --pixel-density requires a positive integer`, "", false},
		{"screenshot max size without value", "screenshot --max-size", `t.ad:1:12: screenshot --max-size requires a positive integer`, "", false},
		{"record max size retired", "record start a.mp4 --max-size 720", `t.ad:1:20: record --max-size was removed; recordings capture at native resolution`, "", false},
	}
	for _, tt := range tests {
		_, err := Parse("t.ad", []byte(tt.src))
		e, ok := AsError(err)
		if !ok {
			t.Errorf("%s: want error %q, got %v", tt.name, tt.want, err)
			continue
		}
		if e.Error() != tt.want || e.Hint != tt.hint || e.Metadata != tt.metadata || e.Code != "INVALID_ARGS" {
			t.Errorf("%s:\n got %q hint=%q metadata=%v code=%s\nwant %q hint=%q metadata=%v", tt.name, e.Error(), e.Hint, e.Metadata, e.Code, tt.want, tt.hint, tt.metadata)
		}
	}
}

func TestParseAllReportsEveryLine(t *testing.T) {
	t.Parallel()
	src := "env lower=1\nenv AD_X=2\nopen x\ntype \"\\q\"\nswipe 1 2 3 4 5 6\nenv B=1\nclose\n"
	s, errs := ParseAll("all.ad", []byte(src))
	var got []string
	for _, e := range errs {
		got = append(got, e.Error())
	}
	want := []string{
		`all.ad:1:1: Invalid env key "lower" on line 1: keys must be uppercase letters, digits, and underscores (e.g. APP_ID).`,
		`all.ad:2:1: Invalid env key "AD_X" on line 2: the AD_* namespace is reserved for built-in variables. Rename AD_X to avoid the AD_ prefix.`,
		`all.ad:4:6: Invalid quoted value "\q" in replay script line: type "\q"`,
		`all.ad:5:15: swipe accepts 4 arguments: x1 y1 x2 y2 (line 5).`,
		`all.ad:6:1: env directives must precede all actions (line 6).`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("errors:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
	if len(s.Actions) != 2 || s.Actions[0].Command != "open" || s.Actions[1].Command != "close" {
		t.Fatalf("actions: %v", s.Actions)
	}
	if s.Lines[3].Err == nil || s.Lines[3].Err.Message != `Invalid quoted value "\q" in replay script line: type "\q"` {
		t.Fatalf("Line.Err of line 4 = %v", s.Lines[3].Err)
	}
	if s.Lines[2].Err != nil {
		t.Fatalf("line 3 has an error: %v", s.Lines[2].Err)
	}
}

func TestParseLinesAndHeader(t *testing.T) {
	t.Parallel()
	src := "# title\ncontext platform=android timeout=60000ms retries=9 device=\"Pixel 9\" kind=emulator\nenv APP=com.x\nenv MSG=\"hi there\"\n\n# agent-device:target-v1 {\"role\":\"b\",\"verification\":\"verified\"}\nopen ${APP}\ncontext platform=ios\n"
	s, err := Parse("h.ad", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	kinds := []string{}
	names := map[LineKind]string{LineBlank: "blank", LineComment: "comment", LineAnnotation: "annotation", LineEnv: "env", LineContext: "context", LineAction: "action"}
	for _, l := range s.Lines {
		kinds = append(kinds, fmt.Sprintf("%d:%d %s", l.Pos.Line, l.Pos.Column, names[l.Kind]))
	}
	wantKinds := "1:1 comment|2:1 context|3:1 env|4:1 env|5:1 blank|6:1 annotation|7:1 action|8:1 context|9:1 blank"
	if strings.Join(kinds, "|") != wantKinds {
		t.Errorf("lines:\n got %s\nwant %s", strings.Join(kinds, "|"), wantKinds)
	}
	md := s.Metadata
	if md.Platform != "android" || *md.TimeoutMs != 60000 || *md.Retries != 9 || md.EffectiveRetries() != 3 || md.Pos.Line != 2 {
		t.Errorf("metadata = %+v", md)
	}
	var other []string
	for _, kv := range md.Other {
		other = append(other, fmt.Sprintf("%d:%d %s=%s", kv.Pos.Line, kv.Pos.Column, kv.Key, kv.Value))
	}
	if got, want := strings.Join(other, "|"), `2:52 device="Pixel 9"|2:69 kind=emulator`; got != want {
		t.Errorf("other:\n got %s\nwant %s", got, want)
	}
	var env []string
	for _, e := range s.Env {
		env = append(env, fmt.Sprintf("%d %s=%s", e.Pos.Line, e.Key, e.Value))
	}
	if got, want := strings.Join(env, "|"), "3 APP=com.x|4 MSG=hi there"; got != want {
		t.Errorf("env: got %s want %s", got, want)
	}
	a := s.Actions[0]
	if a.TargetEvidence == nil || a.Line() != 7 || len(a.ArgPos) != 1 || a.ArgPos[0].Column != 6 || a.Tokens[0].Raw != "${APP}" {
		t.Errorf("action = %s argpos=%v", renderAction(a), a.ArgPos)
	}
}

func TestArgPosTracksJoinedPositionals(t *testing.T) {
	t.Parallel()
	s, err := Parse("p.ad", []byte(`fill id="x" Ada "Love lace" --delay-ms 5`))
	if err != nil {
		t.Fatal(err)
	}
	a := s.Actions[0]
	var cols []string
	for _, p := range a.ArgPos {
		cols = append(cols, p.String())
	}
	if got, want := fmt.Sprintf("%q %s", a.Positionals, strings.Join(cols, " ")), `["id=\"x\"" "Ada Love lace"] p.ad:1:6 p.ad:1:13`; got != want {
		t.Errorf("got %s want %s", got, want)
	}
}

func TestCompatJSONShape(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, src, want string }{
		{"empty script", "", `{"file":"c.ad","metadata":{},"actions":[],"actionLines":[]}`},
		{"metadata error keeps actions", "context platform=ios\ncontext platform=ios\nopen x <&>\n",
			`{"file":"c.ad","metadataError":{"code":"INVALID_ARGS","message":"Duplicate replay test metadata \"platform\" in context header."},"actions":[{"command":"open","positionals":["x","<&>"]}],"actionLines":[3]}`},
		{"parse error with hint", "context platform=ios\ntype \"\\q\"\n",
			`{"file":"c.ad","metadata":{"platform":"ios"},"parseError":{"code":"INVALID_ARGS","message":"Invalid quoted value \"\\q\" in replay script line: type \"\\q\"","hint":"Quoted replay values are JSON strings: escape backslashes, quotes, tabs, and newlines (\\\\, \\\", \\t, \\n)."}}`},
	}
	for _, tt := range tests {
		b, err := marshalNoEscape(CompatOf("c.ad", []byte(tt.src)))
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, b, tt.want)
		}
	}
}

func TestParseReturnsPartialScriptWithFirstError(t *testing.T) {
	t.Parallel()
	s, err := Parse("p.ad", []byte("context platform=ios\ncontext platform=android\nopen x\nswipe 1 2 3 4 5 6\nclose\n"))
	e, ok := AsError(err)
	if !ok || !e.Metadata || e.Error() != `p.ad:2:18: Conflicting replay test metadata "platform" in context header: ios vs android.` {
		t.Fatalf("error = %v", err)
	}
	var cmds []string
	for _, a := range s.Actions {
		cmds = append(cmds, a.Command)
	}
	if got := strings.Join(cmds, ","); got != "open,close" || s.Metadata.Platform != "ios" || len(s.Lines) != 6 {
		t.Fatalf("partial script: actions %s, platform %q, %d lines", got, s.Metadata.Platform, len(s.Lines))
	}
	if s.Lines[3].Err == nil || s.Lines[3].Err.Message != "swipe accepts 4 arguments: x1 y1 x2 y2 (line 4)." {
		t.Fatalf("line 4 error = %v", s.Lines[3].Err)
	}
}

// TestParseMatchesAgentDevice0215 holds the compat JSON (without "file") that
// agent-device 0.21.5's own parser gives for each behaviour adtest follows
// since issue 13; every want was produced by running that parser on src.
func TestParseMatchesAgentDevice0215(t *testing.T) {
	t.Parallel()
	ann := func(payload, action string) string {
		return "# agent-device:target-v1 " + payload + "\n" + action + "\n"
	}
	long := strings.Repeat("x", 257)
	ancestry9 := strings.TrimSuffix(strings.Repeat(`{"role":"a"},`, 9), ",")
	tests := []struct {
		name, src, want string
	}{
		// target-v1 / targets-v1 annotation errors.
		{"target-v1 ancestry over the 8-entry cap", ann(`{"role":"button","ancestry":[`+ancestry9+`],"verification":"verified"}`, "click @e1"),
			`{"metadata":{},"parseError":{"code":"INVALID_ARGS","message":"target-v1 \"ancestry\" exceeds the 8-entry cap."}}`},
		{"target-v1 label over the 256-byte field cap", ann(`{"role":"button","label":"`+long+`","verification":"verified"}`, "click @e1"),
			`{"metadata":{},"parseError":{"code":"INVALID_ARGS","message":"target-v1 \"label\" exceeds the 256-byte field cap."}}`},
		{"target-v1 ancestry role over the field cap", ann(`{"role":"b","ancestry":[{"role":"`+long+`"}],"verification":"verified"}`, "click @e1"),
			`{"metadata":{},"parseError":{"code":"INVALID_ARGS","message":"target-v1 \"ancestry[0].role\" exceeds the 256-byte field cap."}}`},
		{"target-v1 rect names the offending field", ann(`{"role":"b","rect":{"x":1,"y":"2","width":3,"height":4},"verification":"verified"}`, "click @e1"),
			`{"metadata":{},"parseError":{"code":"INVALID_ARGS","message":"target-v1 \"rect.y\" must be a finite number."}}`},
		{"target-v1 rect missing height", ann(`{"role":"b","rect":{"x":1,"y":2,"width":3},"verification":"verified"}`, "click @e1"),
			`{"metadata":{},"parseError":{"code":"INVALID_ARGS","message":"target-v1 \"rect.height\" must be a finite number."}}`},
		{"target-v1 ancestry entry not an object", ann(`{"role":"b","ancestry":[{"role":"a"},7],"verification":"verified"}`, "click @e1"),
			`{"metadata":{},"parseError":{"code":"INVALID_ARGS","message":"target-v1 \"ancestry[1]\" must be an object."}}`},
		{"target-v1 scrollRegion label type", ann(`{"role":"b","scrollRegion":{"role":"list","label":5},"verification":"verified"}`, "click @e1"),
			`{"metadata":{},"parseError":{"code":"INVALID_ARGS","message":"target-v1 \"scrollRegion.label\" must be a string."}}`},
		{"target-v1 null role is not a string", ann(`{"role":null,"verification":"verified"}`, "click @e1"),
			`{"metadata":{},"parseError":{"code":"INVALID_ARGS","message":"target-v1 \"role\" must be a string."}}`},
		{"target-v1 null ancestry is not an array", ann(`{"role":"b","ancestry":null,"verification":"verified"}`, "click @e1"),
			`{"metadata":{},"parseError":{"code":"INVALID_ARGS","message":"target-v1 \"ancestry\" must be an array."}}`},
		{"target-v1 payload cap wording", ann(`{"role":"b","id":"`+strings.Repeat("x", 4100)+`","verification":"verified"}`, "click @e1"),
			`{"metadata":{},"parseError":{"code":"INVALID_ARGS","message":"target-v1 annotation exceeds the 4096-byte payload cap."}}`},
		{"targets-v1 without destination", "# agent-device:targets-v1 {\"source\":{\"role\":\"view\",\"verification\":\"verified\"}}\ngesture drag a b\n",
			`{"metadata":{},"parseError":{"code":"INVALID_ARGS","message":"targets-v1 annotation requires source and destination evidence."}}`},
		{"targets-v1 endpoint errors are target-v1 errors", "# agent-device:targets-v1 {\"source\":{\"role\":\"view\",\"verification\":\"verified\"},\"destination\":{\"verification\":\"verified\"}}\ngesture drag a b\n",
			`{"metadata":{},"parseError":{"code":"INVALID_ARGS","message":"target-v1 \"role\" is required."}}`},
		{"targets-v1 null endpoint", "# agent-device:targets-v1 {\"source\":null,\"destination\":{\"role\":\"v\",\"verification\":\"verified\"}}\ngesture drag a b\n",
			`{"metadata":{},"parseError":{"code":"INVALID_ARGS","message":"target-v1 annotation must be a JSON object."}}`},
		{"targets-v1 evidence in the compat JSON", "# agent-device:targets-v1 {\"source\":{\"id\":\"s\",\"role\":\"view\",\"verification\":\"verified\"},\"destination\":{\"role\":\"view\",\"label\":\" To  \",\"verification\":\"unverifiable\"}}\ngesture drag id=s id=d\n",
			`{"metadata":{},"actions":[{"command":"gesture","positionals":["drag","id=s","id=d"],"targetEvidences":{"source":{"id":"s","role":"view","ancestry":[],"sibling":0,"viewportOrder":0,"verification":"verified"},"destination":{"role":"view","label":"To","ancestry":[],"sibling":0,"viewportOrder":0,"verification":"unverifiable"}}}],"actionLines":[2]}`},
		// record.
		{"record quality 7 is medium", "record start a.mp4 --quality 7\n",
			`{"metadata":{},"actions":[{"command":"record","positionals":["start","a.mp4"],"flags":{"quality":"medium"}}],"actionLines":[1]}`},
		{"record quality 10 is high", "record start a.mp4 --quality 10\n",
			`{"metadata":{},"actions":[{"command":"record","positionals":["start","a.mp4"],"flags":{"quality":"high"}}],"actionLines":[1]}`},
		{"record quality names kept, unknown values dropped", "record start a.mp4 --quality high\nrecord start b.mp4 --quality low\nrecord start c.mp4 --quality 4\n",
			`{"metadata":{},"actions":[{"command":"record","positionals":["start","a.mp4"],"flags":{"quality":"high"}},{"command":"record","positionals":["start","b.mp4"]},{"command":"record","positionals":["start","c.mp4"]}],"actionLines":[1,2,3]}`},
		{"record non-numeric fps is consumed", "record start a.mp4 --fps abc --hide-touches\n",
			`{"metadata":{},"actions":[{"command":"record","positionals":["start","a.mp4"],"flags":{"hideTouches":true}}],"actionLines":[1]}`},
		{"record negative fps is floored", "record start a.mp4 --fps -5.5\n",
			`{"metadata":{},"actions":[{"command":"record","positionals":["start","a.mp4"],"flags":{"fps":-6}}],"actionLines":[1]}`},
		{"record max-size error", "record start a.mp4 --max-size 100\n",
			`{"metadata":{},"parseError":{"code":"INVALID_ARGS","message":"record --max-size was removed; recordings capture at native resolution"}}`},
		// runtime.
		{"runtime flags are flags", "runtime --platform ios --metro-host localhost --metro-port 8081.9\n",
			`{"metadata":{},"actions":[{"command":"runtime","positionals":[],"flags":{"platform":"ios","metroHost":"localhost","metroPort":8081}}],"actionLines":[1]}`},
		// type.
		{"type quoted delay flag", "type \"--delay-ms\" 5\n",
			`{"metadata":{},"actions":[{"command":"type","positionals":[],"flags":{"delayMs":5}}],"actionLines":[1]}`},
		{"type quoted delay flag with a text value", "type \"--delay-ms\" \"abc\"\n",
			`{"metadata":{},"actions":[{"command":"type","positionals":["--delay-ms","abc"]}],"actionLines":[1]}`},
		// open.
		{"open metro port floored", "open APP --metro-port 80.9\n",
			`{"metadata":{},"actions":[{"command":"open","positionals":["APP"],"runtime":{"metroPort":80}}],"actionLines":[1]}`},
		{"open test-ime", "open x --test-ime\n",
			`{"metadata":{},"actions":[{"command":"open","positionals":["x"],"flags":{"testIme":true}}],"actionLines":[1]}`},
		{"open boolean flags are taken before the runtime flags", "open x --metro-host --no-test-ime h --relaunch\n",
			`{"metadata":{},"actions":[{"command":"open","positionals":["x"],"flags":{"testIme":false,"relaunch":true},"runtime":{"metroHost":"h"}}],"actionLines":[1]}`},
		// swipe.
		{"swipe non-numeric coordinate gets the general hint", "swipe ${X} 2 3 4 500\n",
			`{"metadata":{},"parseError":{"code":"INVALID_ARGS","message":"swipe accepts 4 arguments: x1 y1 x2 y2 (line 1). The trailing durationMs positional was removed: use \"gesture pan x1 y1 dx dy durationMs\" for the same timed drag, or \"swipe ${X} 2 3 4\" for a default-duration swipe."}}`},
		{"swipe unclosed variable duration still gets the hint", "swipe 1 2 3 4 ${D\n",
			`{"metadata":{},"parseError":{"code":"INVALID_ARGS","message":"swipe accepts 4 arguments: x1 y1 x2 y2 (line 1). The trailing durationMs positional was removed: use \"gesture pan 1 2 2 2 ${D\" for the same timed drag, or \"swipe 1 2 3 4\" for a default-duration swipe."}}`},
		// context.
		{"context platform harmonyos", "context platform=harmonyos\nopen x\n",
			`{"metadata":{"platform":"harmonyos"},"actions":[{"command":"open","positionals":["x"]}],"actionLines":[2]}`},
		{"context harmonyos conflicts with apple", "context platform=apple\ncontext platform=harmonyos\nopen x\n",
			`{"metadataError":{"code":"INVALID_ARGS","message":"Conflicting replay test metadata \"platform\" in context header: apple vs harmonyos."},"actions":[{"command":"open","positionals":["x"]}],"actionLines":[3]}`},
		// screenshot.
		{"screenshot scale out of range", "screenshot --scale 2\n",
			`{"metadata":{},"parseError":{"code":"INVALID_ARGS","message":"screenshot --scale requires a number from 0.01 to 1"}}`},
		{"screenshot scale not a number", "screenshot a.png --scale ${S}\n",
			`{"metadata":{},"parseError":{"code":"INVALID_ARGS","message":"screenshot --scale requires a number from 0.01 to 1"}}`},
		{"screenshot scale without a value", "screenshot --scale\n",
			`{"metadata":{},"parseError":{"code":"INVALID_ARGS","message":"screenshot --scale requires a number from 0.01 to 1"}}`},
		{"screenshot scale bounds", "screenshot --scale 0.01\nscreenshot --scale 1\n",
			`{"metadata":{},"actions":[{"command":"screenshot","positionals":[],"flags":{"screenshotScale":0.01}},{"command":"screenshot","positionals":[],"flags":{"screenshotScale":1}}],"actionLines":[1,2]}`},
		{"screenshot crop-on without a value", "screenshot --crop-on\n",
			`{"metadata":{},"parseError":{"code":"INVALID_ARGS","message":"screenshot --crop-on requires a selector expression"}}`},
		{"screenshot crop-on empty", "screenshot --crop-on \"\"\n",
			`{"metadata":{},"parseError":{"code":"INVALID_ARGS","message":"screenshot --crop-on requires a selector expression"}}`},
		// numeric flags of click/press/swipe/gesture/type/fill.
		{"click invalid count leaves the next token to be read", "click --count --double-tap @e1\n",
			`{"metadata":{},"actions":[{"command":"click","positionals":["--count @e1"],"flags":{"doubleTap":true}}],"actionLines":[1]}`},
		{"click empty count is not a number", "click @e1 --count \"\"\n",
			`{"metadata":{},"actions":[{"command":"click","positionals":["@e1"],"refLabel":"--count"}],"actionLines":[1]}`},
	}
	for _, tt := range tests {
		got := normalise(t, CompatOf("x.ad", []byte(tt.src)))
		var want any
		if err := json.Unmarshal([]byte(tt.want), &want); err != nil {
			t.Fatalf("%s: bad want: %v", tt.name, err)
		}
		if !reflect.DeepEqual(got, want) {
			gb, _ := json.Marshal(got)
			t.Errorf("%s:\n got %s\nwant %s", tt.name, gb, tt.want)
		}
	}
}

// TestJSNumberString holds jsNumberString to JavaScript's String(x) (the
// wants were printed by Node) for the swipe migration hint's deltas.
func TestJSNumberString(t *testing.T) {
	t.Parallel()
	for x, want := range map[float64]string{1: "1", -1: "-1", 0.5: "0.5", 1e21: "1e+21", 1.5e21: "1.5e+21", -1e30: "-1e+30",
		1e-7: "1e-7", 1.2e-7: "1.2e-7", 0.000001: "0.000001", 123456789012345680000: "123456789012345680000", 2.5e-5: "0.000025", 100: "100", -0.1: "-0.1", 0: "0"} {
		if got := jsNumberString(x); got != want {
			t.Errorf("jsNumberString(%v) = %q, want %q", x, got, want)
		}
	}
}
