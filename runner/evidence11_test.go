package runner

import (
	"strings"
	"testing"

	"github.com/adtest/adtest/lang"
)

// TestEvidence11ScriptsCarryNoPins is ADR 0014 evidence item 11 as it
// applies to adtest, which writes scripts through `adtest fmt`: a script never
// carries a portable generation claim. The parser strips a ~sG pin from a
// script ref (so it is a plain ref, admitted only by a complete snapshot of
// this run, never by a generation minted elsewhere), and the printer writes
// the plain ref back. [Seen red by keeping the pin in the parser's ref
// decoding: the click is then rejected with ref_generation_mismatch.]
func TestEvidence11ScriptsCarryNoPins(t *testing.T) {
	t.Parallel()
	const script = "open app\nsnapshot -i\nclick @e1~s987654 \"Next\"\n"
	s, err := lang.Parse("pins.ad", []byte(script))
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Actions[2].Positionals; len(got) != 1 || got[0] != "@e1" {
		t.Fatalf("positionals %q, want the plain ref [@e1]", got)
	}
	out, err := lang.Format(s)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "~s") {
		t.Fatalf("formatted script keeps a generation pin:\n%s", out)
	}

	e := newEnv(t, `
open * -> start
screen start
  link "Next" -> goto second
screen second
  button "Other"
`)
	res := e.replay(t, script)
	if res.Status != StatusPassed {
		t.Fatalf("status %s, error %+v: a stripped pin must act as a plain ref of this run's snapshot", res.Status, res.Error)
	}
	if got := e.dev.Count("tap"); got != 1 {
		t.Fatalf("taps = %d, want 1", got)
	}
}
