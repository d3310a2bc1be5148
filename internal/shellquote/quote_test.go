package shellquote

import (
	"os/exec"
	"testing"
)

func TestWord(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"", "''"},
		{".adtest/artifacts/x/repairs/login.ad.patch", ".adtest/artifacts/x/repairs/login.ad.patch"},
		{"a b.ad", "'a b.ad'"},
		{"b $(touch PWNED) ;x.ad", "'b $(touch PWNED) ;x.ad'"},
		{"it's", `'it'\''s'`},
		{"`id`", "'`id`'"},
		{"~/x", "'~/x'"},
		{"=ls", "'=ls'"},
		{"a\nb", "'a\nb'"},
		{"x*", "'x*'"},
	} {
		if got := Word(tc.in); got != tc.want {
			t.Errorf("Word(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// TestJoinRoundTrips has sh read each quoted word back: the shell sees
// exactly the arguments given, and runs nothing.
func TestJoinRoundTrips(t *testing.T) {
	t.Parallel()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatalf("no sh to read the quoted words back: %v", err)
	}
	args := []string{"b $(touch PWNED) ;x.ad", "it's", "a\tb\nc", "", "$HOME", "\\", `"`, "!x", "#c", "plain/path.ad"}
	out, err := exec.Command(sh, "-c", `for a in `+Join(args...)+`; do printf '%s\0' "$a"; done`).Output()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	start := 0
	for i, b := range out {
		if b == 0 {
			got = append(got, string(out[start:i]))
			start = i + 1
		}
	}
	if len(got) != len(args) {
		t.Fatalf("sh read %q, want %q", got, args)
	}
	for i := range args {
		if got[i] != args[i] {
			t.Errorf("word %d: sh read %q, want %q", i, got[i], args[i])
		}
	}
}
