package main

import (
	"io/fs"
	"path/filepath"
	"strings"
)

// abs is p resolved against the working directory cwd (p itself when it is
// absolute or cwd is unknown).
func abs(cwd, p string) string {
	if filepath.IsAbs(p) || cwd == "" {
		return p
	}
	return filepath.Join(cwd, p)
}

// findScripts lists the *.ad files below root in filepath.WalkDir's order
// (callers sort when they promise sorted output). With skipHidden, dot
// directories below root and dot files are passed over, as gofmt does. On a
// walk error it returns what it found so far with the error.
func findScripts(root string, skipHidden bool) ([]string, error) {
	var found []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		hidden := skipHidden && strings.HasPrefix(d.Name(), ".")
		if d.IsDir() {
			if hidden && p != root {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(d.Name(), ".ad") && !hidden {
			found = append(found, p)
		}
		return nil
	})
	return found, err
}
