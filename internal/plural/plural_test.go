package plural

import "testing"

func TestOf(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "tests"}, {1, "test"}, {2, "tests"}, {-1, "tests"}} {
		if got := Of(c.n, "test", "tests"); got != c.want {
			t.Errorf("Of(%d) = %q, want %q", c.n, got, c.want)
		}
	}
	if S(1) != "" || S(3) != "s" {
		t.Errorf("S(1), S(3) = %q, %q", S(1), S(3))
	}
}
