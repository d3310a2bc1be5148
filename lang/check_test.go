package lang

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"
)

// TestCheckGolden checks every testdata/check/*.ad and compares the
// formatted diagnostics (with hints) with testdata/check/<name>.golden.
// Update with: go test ./lang -run TestCheckGolden -update
func TestCheckGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "check", "*.ad"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no check fixtures: %v", err)
	}
	opts := map[string]CheckOptions{
		"variables.ad": {Vars: map[string]string{"CLI_ONLY": "x"}},
	}
	g := goldie.New(t, goldie.WithFixtureDir(filepath.Join("testdata", "check")), goldie.WithNameSuffix(".golden"))
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			_, ds := CheckSource(name, src, opts[name])
			g.Assert(t, strings.TrimSuffix(name, ".ad"), []byte(FormatDiagnostics(ds, name)))
		})
	}
}
