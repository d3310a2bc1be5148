package runner

import (
	"context"
	"testing"
	"time"

	"github.com/adtest/adtest/lang"
)

// FuzzDispatch feeds arbitrary script lines to a session on the fake device
// after a snapshot: the leaf dispatch must never panic and every failure is
// a structured error with a code and a message.
func FuzzDispatch(f *testing.F) {
	for _, seed := range []string{
		"click @e2", "click @e2~s9", "fill @e1 hello world", "longpress 10 20 300", "get text @e1",
		"get attrs label=Help", "is text id=email x", "find label Help get attrs", "find \"id=x\" wait 10",
		"wait @e1 5", "wait absent id=help 5", "wait stable 1 5", "scroll down 0.5 --until id=help",
		"swipe 1 2 3 4 --count 2 --pattern ping-pong", "gesture fling left 1 2 3", "gesture pan 1 2 3 4 5",
		"snapshot -s @e2", "snapshot -d 1 -s Welcome", "diff snapshot", "keyboard return", "alert wait 5",
		"screenshot", "viewport 10 10", "open demo --relaunch", "close", "press 1e3 0x10", "click \"||\"",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		script, err := lang.Parse("fuzz.ad", []byte(line+"\n"))
		if err != nil || len(script.Actions) != 1 {
			return
		}
		e := newEnv(t, loginScreens)
		e.must(t, "open demo")
		e.must(t, "snapshot -i")
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_, derr := e.sess.Dispatch(ctx, script.Actions[0])
		if derr != nil && (derr.Code == "" || derr.Message == "") {
			t.Fatalf("%q: unstructured error %+v", line, derr)
		}
		res := e.sess.Replay(ctx, script, ReplayOptions{})
		if res.Status == StatusFailed && (res.Error == nil || res.Error.Code == "") {
			t.Fatalf("%q: failed replay without an error: %+v", line, res)
		}
	})
}
