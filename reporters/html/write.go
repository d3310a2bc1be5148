package html

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	"github.com/adtest/adtest/internal/atomicfile"
	"github.com/adtest/adtest/runner"
)

// dataFile matches the names Render gives data/ files, so that WriteDir
// removes only its own leftovers from an earlier report in the same place.
var dataFile = regexp.MustCompile(`^[0-9a-f]{16}\.(png|jpg)$`)

// WriteDir renders the report into dir: the data/ files first, then
// index.html through a temporary file and a rename, so that a reader never
// sees a page whose images are still missing. Images of an earlier report in
// dir that this one does not use are removed.
func WriteDir(dir string, r *runner.Result, opts Options) error {
	files, err := Render(r, opts)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		return err
	}
	keep := map[string]bool{}
	for _, f := range files[1:] {
		keep[filepath.Base(f.Name)] = true
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(f.Name)), f.Data, 0o644); err != nil {
			return err
		}
	}
	if old, err := os.ReadDir(filepath.Join(dir, "data")); err == nil {
		for _, e := range old {
			if !keep[e.Name()] && dataFile.MatchString(e.Name()) {
				os.Remove(filepath.Join(dir, "data", e.Name()))
			}
		}
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, "index.html"), files[0].Data, atomicfile.Options{}); err != nil {
		return fmt.Errorf("html report: %w", err)
	}
	return nil
}
