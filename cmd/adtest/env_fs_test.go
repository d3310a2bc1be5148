package main

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestOnlyMainTouchesOS keeps the package doc's claim: the subcommands reach
// the filesystem and the clock through Env, and only main.go imports os.
func TestOnlyMainTouchesOS(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var bad []string
	for _, name := range files {
		if name == "main.go" || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "os" {
				bad = append(bad, name)
			}
		}
	}
	if len(bad) > 0 {
		t.Errorf("files other than main.go import os: %s (use env.FS / env.Now)", strings.Join(bad, ", "))
	}
}
