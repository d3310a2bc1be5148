package runner

import (
	"bufio"
	"bytes"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// reasonGateDirs are the packages whose code must name a failure reason by
// its drivers.Reason constant; a directory that does not exist (yet, or any
// more) is skipped, but at least the runner itself must be checked.
var reasonGateDirs = []string{".", "suite", "daemon", "internal/frame", "match", "../daemon", "../recorder"}

// TestReasonLiteralGate: no file under runner/ or the daemon spells a
// failure reason as a string literal, in a comparison, an assignment, a
// struct field or an argument. The type checker says which literals become
// a drivers.Reason (an untyped constant takes the type it is converted to),
// so a literal is caught wherever it flows into one.
func TestReasonLiteralGate(t *testing.T) {
	t.Parallel()
	var dirs []string
	for _, dir := range reasonGateDirs {
		if _, err := os.Stat(dir); err == nil {
			dirs = append(dirs, "./"+filepath.ToSlash(filepath.Clean(dir)))
		}
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", exportData(t, dirs))
	checked := 0
	for _, dir := range dirs {
		pkg, err := build.ImportDir(dir, 0)
		if err != nil {
			t.Fatal(err)
		}
		var files []*ast.File
		for _, base := range pkg.GoFiles {
			name := filepath.Join(dir, base)
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			f, err := parser.ParseFile(fset, name, src, 0)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
		if len(files) == 0 {
			continue
		}
		info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
		conf := types.Config{Importer: imp.(types.ImporterFrom), Error: func(error) {}}
		if _, err := conf.Check(files[0].Name.Name, fset, files, info); err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		checked++
		for _, f := range files {
			ast.Inspect(f, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING || lit.Value == `""` {
					return true
				}
				if isReasonType(info.Types[lit].Type) {
					t.Errorf("%s: reason %s spelt as a string literal: use its drivers.Reason constant", fset.Position(lit.Pos()), lit.Value)
				}
				return true
			})
		}
	}
	if checked < 3 {
		t.Fatalf("checked only %d packages", checked)
	}
}

// exportData returns the importer's lookup of compiled export data, which
// `go list -export` builds (from the build cache when it is warm) for every
// dependency of dirs.
func exportData(t *testing.T, dirs []string) func(path string) (io.ReadCloser, error) {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-export", "-deps", "-f", "{{.ImportPath}} {{.Export}}"}, dirs...)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -export: %v", err)
	}
	exports := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if path, file, ok := strings.Cut(sc.Text(), " "); ok && file != "" {
			exports[path] = file
		}
	}
	return func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok {
			return nil, os.ErrNotExist
		}
		return os.Open(file)
	}
}

func isReasonType(typ types.Type) bool {
	named, ok := typ.(*types.Named)
	if !ok {
		return false
	}
	o := named.Obj()
	return o.Name() == "Reason" && o.Pkg() != nil && o.Pkg().Path() == "github.com/adtest/adtest/drivers"
}
