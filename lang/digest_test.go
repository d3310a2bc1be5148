package lang

import "testing"

// The expected digests were computed outside Go, by JSON.stringify-style
// canonical JSON (keys sorted, no whitespace) and SHA-256 in node, over the
// compat actions of the script below: the digest a resume has to match.
func TestPlanDigest(t *testing.T) {
	t.Parallel()
	src := "context platform=web\n# Sign in, through a step the page does not have: the replay fails there and\n# a resume from the next step continues on the same page.\n" +
		"open ${BASE}/login.html\nwait \"Sign in to Acme\" 5000\nfill label=\"Email\" \"ada@example.com\"\nfill label=\"Password\" \"${PASSWORD}\"\n" +
		"click \"role=button label=\\\"Continue\\\"\"\nclick \"role=button label=\\\"Sign in\\\"\"\nwait text \"Hello Ada\" 5000\nclose\n"
	s, errs := ParseAll("flow.ad", []byte(src))
	if len(errs) > 0 {
		t.Fatal(errs[0])
	}
	tests := []struct {
		name, platform, want string
	}{
		{"no platform is null", "", "f2d4e6b466b57257fc8e156e24d8f4a3d196a270d281b7ef7292e450d463e4c4"},
		{"effective platform", "web", "34180bcb893db050b082a9e7202addc2ab56ba86ac8ea583d095d92685627ae7"},
	}
	for _, tt := range tests {
		if got := PlanDigest(s, tt.platform, ""); got != tt.want {
			t.Errorf("%s: PlanDigest = %s, want %s", tt.name, got, tt.want)
		}
	}
	// Variable values never change it; a moved line does.
	moved, _ := ParseAll("flow.ad", []byte("\n"+src))
	if PlanDigest(moved, "web", "") == tests[1].want {
		t.Error("a moved line kept the digest")
	}
}
