package reporters

import "testing"

func TestWorkflowEscaping(t *testing.T) {
	t.Parallel()
	if got, want := ghData("50% done\r\nnext"), "50%25 done%0D%0Anext"; got != want {
		t.Fatalf("data = %q, want %q", got, want)
	}
	if got, want := ghProp("a:b,c"), "a%3Ab%2Cc"; got != want {
		t.Fatalf("property = %q, want %q", got, want)
	}
}
