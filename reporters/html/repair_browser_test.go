package html_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/adtest/adtest/reporters/html"
	"github.com/adtest/adtest/runner"
	"github.com/adtest/adtest/runner/suite"
)

// Session hands a repair the live session of the wrapped replayer.
func (l *logKeeper) Session() *runner.Session {
	if h, ok := l.Replayer.(interface{ Session() *runner.Session }); ok {
		return h.Session()
	}
	return nil
}

// TestRepairPanelInBrowser runs a script whose button was renamed with
// --repair, renders the report and checks its "Suggested repair" panel in
// Chromium with an .ad script (testdata/repair/check): the verified status,
// the changed line and basis, the diff, the apply command, the copy button.
func TestRepairPanelInBrowser(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	work := t.TempDir()
	fixture, _ := filepath.Abs("testdata/repair")
	site, err := suite.ServeFS(os.DirFS(filepath.Join(fixture, "site")))
	if err != nil {
		t.Fatal(err)
	}
	defer site.Close()
	res, _ := runSuite(ctx, t, fixture, "suite", suite.Config{BaseURL: site.URL, RunDir: filepath.Join(work, "art"), Repair: &suite.RepairConfig{}})
	if len(res.Tests) != 1 || res.Tests[0].Status != runner.StatusFailed {
		t.Fatalf("the drifted script must stay failed:\n%s", summary(res))
	}
	a := res.Tests[0].Attempts[len(res.Tests[0].Attempts)-1]
	if a.Repair == nil || a.Repair.Status != "repaired" || !a.Repair.Verified || a.Repair.Patch == "" {
		t.Fatalf("no verified repair: %+v\n%s", a.Repair, summary(res))
	}
	patch, err := os.ReadFile(a.Repair.Patch)
	if err != nil || !strings.Contains(string(patch), `+click "role=button label=\"Log in\""`) {
		t.Fatalf("patch %s: %v\n%s", a.Repair.Patch, err, patch)
	}
	reportDir := filepath.Join(work, "report")
	if err := html.WriteDir(reportDir, res, html.Options{ReadFile: func(name string) ([]byte, error) { return os.ReadFile(name) }}); err != nil {
		t.Fatal(err)
	}
	checks, logs := runSuite(ctx, t, fixture, "check", suite.Config{
		RunDir: filepath.Join(work, "check-art"),
		CLIVars: map[string]string{
			"REPORT": "file://" + filepath.ToSlash(filepath.Join(reportDir, "index.html")),
			"PATCH":  a.Repair.Patch,
		},
	})
	if checks.Stats.Total != 1 || checks.Stats.Passed != 1 {
		t.Errorf("the repair panel check did not pass:\n%s", summary(checks))
	}
	for file, lines := range logs {
		for _, l := range lines {
			if pageError(l) {
				t.Errorf("%s: the report page logged an error: %s", file, l)
			}
		}
	}
}
