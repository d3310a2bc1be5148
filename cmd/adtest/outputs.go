package main

import (
	"io"
	"path/filepath"

	"github.com/adtest/adtest/reporters"
	"github.com/adtest/adtest/runner/suite"
)

// writeLastRun writes .adtest/last-run.json (suite.LastRun): what
// --last-failed reruns.
func writeLastRun(fsys FS, path string, lr suite.LastRun) error {
	if err := fsys.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	b, err := suite.MarshalLastRun(lr)
	if err != nil {
		return err
	}
	return fsys.ReplaceFile(path, b, 0o644)
}

// reportOutput is where final reports go: stdout, paths from cwd, the
// environment, the result's artifacts read through env.FS.
func reportOutput(env *Env) reporters.Output {
	return reporters.Output{Stdout: env.Stdout, Cwd: env.Cwd, Getenv: env.Getenv, ReadFile: env.FS.ReadFile}
}

// reportPathWriter is where report paths go: stdout, unless a report other
// than the console streams there (a JSON or JUnit document on stdout must
// stay whole), then stderr.
func reportPathWriter(env *Env, specs []reporters.Spec) io.Writer {
	for _, s := range specs {
		if s.Path == "" && s.Name != "console" && s.Name != "github" && s.Name != "html" {
			return env.Stderr
		}
	}
	return env.Stdout
}
