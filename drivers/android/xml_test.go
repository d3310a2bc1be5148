package android

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers"
)

const helperXML = `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">` +
	`<node index="0" window-index="0" window-type="1" window-layer="0" window-active="false" window-focused="false" window-bounds="[0,0][1080,2400]" class="android.widget.FrameLayout" package="com.x" visible-to-user="true" enabled="true" bounds="[0,0][1080,2400]">` +
	`<node index="0" text="ada@x.io" resource-id="com.x:id/email" class="android.widget.EditText" package="com.x" content-desc="Email" visible-to-user="true" clickable="true" enabled="true" focusable="true" focused="true" bounds="[0,100][1080,200]" />` +
	`<node index="1" class="android.widget.LinearLayout" package="com.x" visible-to-user="false" enabled="true" bounds="[0,0][0,0]"><node index="0" text="Secret" class="android.widget.TextView" package="com.x" visible-to-user="true" enabled="true" bounds="[0,0][10,10]" /></node>` +
	`<node index="2" text="Sign &amp; go" class="android.widget.Button" package="com.x" visible-to-user="true" clickable="true" enabled="false" bounds="[0,300][1080,400]" />` +
	`<node index="3" text="Far" class="android.widget.TextView" package="com.x" visible-to-user="true" enabled="true" bounds="[0,3000][1080,3100]" />` +
	`</node>` +
	`<node index="0" window-index="1" window-type="1" window-layer="1" window-active="true" window-focused="true" window-bounds="[0,0][1080,2400]" class="android.widget.FrameLayout" package="android" visible-to-user="true" enabled="true" bounds="[200,1000][880,1400]">` +
	`<node index="0" text="Delete?" resource-id="android:id/message" class="android.widget.TextView" package="android" visible-to-user="true" enabled="true" bounds="[220,1020][860,1100]" />` +
	`<node index="1" text="OK" resource-id="android:id/button1" class="android.widget.Button" package="android" visible-to-user="true" clickable="true" enabled="true" focusable="true" bounds="[600,1300][860,1380]" />` +
	`</node></hierarchy>`

const dumpXML = `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.x" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]"><node index="0" text="Dark mode" resource-id="com.x:id/dark" class="android.widget.Switch" package="com.x" content-desc="" checkable="true" checked="true" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,100][1080,200]" /></node></hierarchy>`

func line(n drivers.Node) string {
	return fmt.Sprintf("%d %s %q id=%s text=%q value=%q vis=%v en=%v foc=%v ed=%v sel=%v hit=%v int=%v %v", n.Depth, n.Role, n.Label, n.ID, n.Text, n.Value,
		n.Visible, n.Enabled, n.Focused, n.Editable, n.Selected, n.Hittable, n.Interactive, n.Rect)
}

func TestHelperXMLToNodes(t *testing.T) {
	roots, err := parseHierarchy(helperXML)
	if err != nil {
		t.Fatal(err)
	}
	snap := toSnapshot(roots, drivers.Rect{Width: 1080, Height: 2400})
	var got []string
	for _, n := range snap.Nodes {
		got = append(got, line(n))
	}
	want := []string{
		`0 framelayout "" id= text="" value="" vis=true en=true foc=false ed=false sel=false hit=false int=false {0 0 1080 2400}`,
		`1 edittext "Email" id=com.x:id/email text="" value="ada@x.io" vis=true en=true foc=true ed=true sel=false hit=false int=true {0 100 1080 100}`,
		`1 button "Sign & go" id= text="Sign & go" value="" vis=true en=false foc=false ed=false sel=false hit=false int=true {0 300 1080 100}`,
		`1 textview "Far" id= text="Far" value="" vis=false en=true foc=false ed=false sel=false hit=false int=false {0 3000 1080 100}`,
		`0 framelayout "" id= text="" value="" vis=true en=true foc=false ed=false sel=false hit=false int=false {200 1000 680 400}`,
		`1 textview "Delete?" id=android:id/message text="Delete?" value="" vis=true en=true foc=false ed=false sel=false hit=false int=false {220 1020 640 80}`,
		`1 button "OK" id=android:id/button1 text="OK" value="" vis=true en=true foc=false ed=false sel=false hit=true int=true {600 1300 260 80}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("nodes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if snap.URL != "android" {
		t.Errorf("front package %q", snap.URL)
	}
}

func TestDumpXMLToNodes(t *testing.T) {
	roots, err := parseHierarchy(dumpXML)
	if err != nil {
		t.Fatal(err)
	}
	snap := toSnapshot(roots, drivers.Rect{Width: 1080, Height: 2400})
	if len(snap.Nodes) != 2 {
		t.Fatalf("%d nodes", len(snap.Nodes))
	}
	if got := line(snap.Nodes[1]); got != `1 switch "Dark mode" id=com.x:id/dark text="Dark mode" value="" vis=true en=true foc=false ed=false sel=true hit=true int=true {0 100 1080 100}` {
		t.Errorf("switch: %s", got)
	}
	if _, err := parseHierarchy("<html/>"); err == nil {
		t.Errorf("no <hierarchy> accepted")
	}
	if _, err := parseHierarchy("<hierarchy><node"); err == nil {
		t.Errorf("truncated XML accepted")
	}
}

func status(kv ...string) string {
	var b strings.Builder
	for i := 0; i < len(kv); i += 2 {
		fmt.Fprintf(&b, "INSTRUMENTATION_STATUS: %s=%s\n", kv[i], kv[i+1])
	}
	b.WriteString("INSTRUMENTATION_STATUS_CODE: 1\n")
	return b.String()
}

func TestParseInstrumentation(t *testing.T) {
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	ok := "INSTRUMENTATION_RESULT: ok=true\nINSTRUMENTATION_CODE: -1\n"
	for _, tc := range []struct {
		name, out, want, err string
	}{
		{"chunks out of order", status("chunkCount", "2", "chunkIndex", "1", "payloadBase64", b64("world")) + status("chunkCount", "2", "chunkIndex", "0", "payloadBase64", b64("hello ")) + ok, "hello world", ""},
		{"missing chunk", status("chunkCount", "2", "chunkIndex", "0", "payloadBase64", b64("x")) + ok, "", "missing chunk 1 of 2"},
		{"duplicate chunk", status("chunkCount", "2", "chunkIndex", "0", "payloadBase64", b64("x")) + status("chunkCount", "2", "chunkIndex", "0", "payloadBase64", b64("x")) + ok, "", "duplicate chunk 0"},
		{"not installed", "INSTRUMENTATION_STATUS: Error=Unable to find instrumentation info\nINSTRUMENTATION_STATUS_CODE: -1\n", "", "Unable to find instrumentation info"},
		{"helper error", "INSTRUMENTATION_RESULT: errorType=java.lang.IllegalStateException\nINSTRUMENTATION_RESULT: message=no root\nINSTRUMENTATION_RESULT: ok=false\nINSTRUMENTATION_CODE: 0\n", "", "no root"},
		{"no result", status("chunkCount", "1", "chunkIndex", "0", "payloadBase64", b64("x")), "", "without a result"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, payload, err := parseInstrumentation(tc.out)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || string(payload) != tc.want {
				t.Errorf("payload %q, err %v", payload, err)
			}
		})
	}
}

func TestCheckReply(t *testing.T) {
	r := func(h map[string]string, body string) *reply { return &reply{headers: h, body: []byte(body)} }
	good := map[string]string{"requestId": "7", "ok": "true", "helperApiVersion": "2", "byteLength": "3", "agentDeviceProtocol": helperProtocol}
	if err := checkReply(r(good, "abc"), "7", "2"); err != nil {
		t.Errorf("good reply: %v", err)
	}
	for name, tc := range map[string]struct {
		h    map[string]string
		body string
		want string
	}{
		"wrong request":   {map[string]string{"requestId": "6", "ok": "true"}, "", "want \"7\""},
		"short body":      {map[string]string{"requestId": "7", "ok": "true", "byteLength": "5"}, "abc", "byteLength 5 but 3 bytes"},
		"version changed": {map[string]string{"requestId": "7", "ok": "true", "helperApiVersion": "3"}, "", "version changed from 2 to 3"},
		"helper error":    {map[string]string{"requestId": "7", "ok": "false", "errorType": "E", "message": "m"}, "", "helper error E: m"},
		"other protocol":  {map[string]string{"requestId": "7", "ok": "true", "agentDeviceProtocol": "v9"}, "", "protocol"},
	} {
		if err := checkReply(r(tc.h, tc.body), "7", "2"); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", name, err, tc.want)
		}
	}
}

func TestParseInputMethod(t *testing.T) {
	for _, tc := range []struct {
		out  string
		want KeyboardState
	}{
		{"mInputShown=true inputType=0x21", KeyboardState{Visible: true, InputType: "email"}},
		{"mWindowVisible=false mInputShown=true inputType=0x81", KeyboardState{Visible: false, InputType: "password"}},
		{"mInputShown=false mInputShown=true inputType=0x2", KeyboardState{Visible: true, InputType: "number"}},
		{"nothing here", KeyboardState{InputType: "text"}},
	} {
		if got := parseInputMethod(tc.out); got != tc.want {
			t.Errorf("%q: %+v, want %+v", tc.out, got, tc.want)
		}
	}
}

func TestLinePlanSamplesRiseFromZeroToDuration(t *testing.T) {
	for _, d := range []time.Duration{time.Millisecond, 250 * time.Millisecond, 800 * time.Millisecond, 5 * time.Second} {
		raw, _ := base64.StdEncoding.DecodeString(linePlan(drivers.Point{X: 1, Y: 2}, drivers.Point{X: 101, Y: 202}, d))
		var p touchPlan
		if err := json.Unmarshal(raw, &p); err != nil {
			t.Fatal(err)
		}
		s := p.Pointers[0].Samples
		if p.Protocol != "android-touch-plan-v1" || p.Kind != "swipe" || s[0].OffsetMs != 0 || s[len(s)-1].OffsetMs != p.DurationMs || p.DurationMs != max(int(d.Milliseconds()), 1) {
			t.Errorf("%v: plan %+v", d, p)
		}
		for i := 1; i < len(s); i++ {
			if s[i].OffsetMs <= s[i-1].OffsetMs {
				t.Errorf("%v: offsets do not rise at %d", d, i)
			}
		}
		if last := s[len(s)-1]; last.X != 101 || last.Y != 202 {
			t.Errorf("%v: ends at %v,%v", d, last.X, last.Y)
		}
	}
}

// TestDeviceOutputNeverPanics: mangled hierarchy XML and instrumentation
// output (cut, spliced, bytes flipped) give an error or a snapshot, never a
// panic.
func TestDeviceOutputNeverPanics(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	inst := status("chunkCount", "2", "chunkIndex", "0", "payloadBase64", base64.StdEncoding.EncodeToString([]byte(helperXML[:100]))) +
		status("chunkCount", "2", "chunkIndex", "1", "payloadBase64", base64.StdEncoding.EncodeToString([]byte(helperXML[100:]))) +
		"INSTRUMENTATION_RESULT: ok=true\nINSTRUMENTATION_CODE: -1\n"
	mangle := func(s string) string {
		b := []byte(s)
		switch rng.IntN(3) {
		case 0:
			b = b[:rng.IntN(len(b)+1)]
		case 1:
			i, j := rng.IntN(len(b)+1), rng.IntN(len(b)+1)
			b = append(append([]byte{}, b[:min(i, j)]...), b[max(i, j):]...)
		default:
			for k := 0; k < 4; k++ {
				b[rng.IntN(len(b))] = byte(rng.IntN(256))
			}
		}
		return string(b)
	}
	for i := 0; i < 1000; i++ {
		for _, src := range []string{helperXML, dumpXML} {
			if roots, err := parseHierarchy(mangle(src)); err == nil {
				toSnapshot(roots, drivers.Rect{Width: 1080, Height: 2400})
			}
		}
		parseInstrumentation(mangle(inst))
		parseInputMethod(mangle("mInputShown=true inputType=0x81 mWindowVisible=true"))
	}
}
