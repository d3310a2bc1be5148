package main

import (
	"path/filepath"

	"github.com/adtest/adtest/internal/scriptpath"
	"github.com/adtest/adtest/reporters"
)

// outputDirs are the directories this run writes into: its artifacts root
// and the directory of every directory reporter (html). Discovery does not
// walk into them, so a run never picks up the script.ad copies an earlier run
// left there (a dot directory such as the default .adtest is never walked
// anyway).
func outputDirs(artifactsDir string, specs []reporters.Spec) []string {
	dirs := []string{artifactsDir}
	for _, s := range specs {
		if rep, ok := reporters.Lookup(s.Name); ok && rep.Dir != nil {
			if s.Path != "" {
				dirs = append(dirs, s.Path)
			} else {
				dirs = append(dirs, rep.DefaultPath)
			}
		}
	}
	return dirs
}

// markOutputDir leaves scriptpath.OutputMarker in the artifacts root dir, so that
// any later discovery (a run with another --artifacts-dir, check, fmt,
// parse) knows the tree as adtest's output and does not walk it. Best effort:
// a root that cannot be written fails the run's artifacts anyway, loudly.
func markOutputDir(env *Env, dir string) {
	if env.FS.MkdirAll(dir, 0o755) != nil {
		return
	}
	marker := filepath.Join(dir, scriptpath.OutputMarker)
	if _, err := env.FS.Stat(marker); err == nil {
		return
	}
	_ = env.FS.WriteFile(marker, []byte(scriptpath.OutputMarkerText), 0o644)
}
