package web

import (
	"bytes"
	"log"
	"testing"

	"github.com/chromedp/cdproto/target"
)

// TestQuietDetach: chromedp's note on the detach of a pipelining session
// (which it never routed) stays out of the log, once per session; every
// other note is logged as chromedp logs it.
func TestQuietDetach(t *testing.T) {
	var buf bytes.Buffer
	prev, flags := log.Writer(), log.Flags()
	log.SetOutput(&buf)
	log.SetFlags(0)
	defer func() { log.SetOutput(prev); log.SetFlags(flags) }()

	p := &Provider{}
	p.quietDetach("S1")
	p.chromedpErrorf(detachNote, target.SessionID("S1"))
	if buf.Len() != 0 {
		t.Fatalf("the pipelining session's detach was logged: %q", buf.String())
	}
	p.chromedpErrorf(detachNote, target.SessionID("S2"))
	p.chromedpErrorf(detachNote, target.SessionID("S1"))
	p.chromedpErrorf("something else %d", 7)
	want := "ERROR: executor for \"S2\" doesn't exist\nERROR: executor for \"S1\" doesn't exist\nERROR: something else 7\n"
	if got := buf.String(); got != want {
		t.Errorf("log\n%s\nwant\n%s", got, want)
	}
}
