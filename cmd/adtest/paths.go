package main

import "path/filepath"

// abs is p resolved against the working directory cwd (p itself when it is
// absolute or cwd is unknown).
func abs(cwd, p string) string {
	if filepath.IsAbs(p) || cwd == "" {
		return p
	}
	return filepath.Join(cwd, p)
}
