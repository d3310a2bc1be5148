package runner

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommandNameGate: outside lang/ no Go file compares a command's name
// with a string literal (`a.Command == "fill"`, `!= "close"`, or a switch
// on `.Command` with string cases). What the runner, the recorder, the
// daemon and the CLI need to know of a command is a trait of the command
// table (lang.TraitsOf); the table itself and its binders live in lang/.
// The dispatch table (runner/dispatch.go) names commands in add() calls,
// which are registrations, not comparisons. Test files may compare names:
// they assert what a step was.
func TestCommandNameGate(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(path, root+string(filepath.Separator)))
		if d.IsDir() {
			switch {
			case rel == "lang", strings.HasPrefix(d.Name(), "."), d.Name() == "testdata", d.Name() == "node_modules":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		files++
		for _, where := range commandNameComparisons(f) {
			p := fset.Position(where)
			t.Errorf("%s:%d:%d: a command name compared with a string literal: ask lang.TraitsOf for a trait instead", rel, p.Line, p.Column)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("walked only %d Go files under %s", files, root)
	}
}

// commandNameComparisons are the positions in f where a `.Command` field is
// compared with a string literal.
func commandNameComparisons(f *ast.File) []token.Pos {
	var out []token.Pos
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if n.Op != token.EQL && n.Op != token.NEQ {
				return true
			}
			if (isCommandField(n.X) && isStringLit(n.Y)) || (isCommandField(n.Y) && isStringLit(n.X)) {
				out = append(out, n.Pos())
			}
		case *ast.SwitchStmt:
			if n.Tag == nil || !isCommandField(n.Tag) {
				return true
			}
			for _, s := range n.Body.List {
				for _, e := range s.(*ast.CaseClause).List {
					if isStringLit(e) {
						out = append(out, e.Pos())
					}
				}
			}
		}
		return true
	})
	return out
}

func isCommandField(e ast.Expr) bool {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			break
		}
		e = p.X
	}
	s, ok := e.(*ast.SelectorExpr)
	return ok && s.Sel.Name == "Command"
}

func isStringLit(e ast.Expr) bool {
	l, ok := e.(*ast.BasicLit)
	return ok && l.Kind == token.STRING
}

// The gate's matcher finds comparisons with a literal in either order, in
// parentheses and in a switch, and nothing else.
func TestCommandNameComparisons(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, body string
		want       int
	}{
		{"equal", `_ = a.Command == "fill"`, 1},
		{"not equal, literal first", `_ = "close" != a.Command`, 1},
		{"parenthesised", `_ = (a.Command) == "open"`, 1},
		{"field of an element", `_ = xs[len(xs)-1].Command == "close"`, 1},
		{"switch cases", `switch a.Command { case "snapshot": case "diff", "find": }`, 3},
		{"two names", `_ = a.Command == b.Command`, 0},
		{"a constant", `_ = a.Command == name`, 0},
		{"another field", `_ = a.Name == "console"`, 0},
		{"switch on another field", `switch a.Kind { case "ref": }`, 0},
		{"switch without a tag", `switch { case a.Command == "wait": }`, 1},
	} {
		f, err := parser.ParseFile(token.NewFileSet(), "x.go", "package x\nfunc f() {\n"+tc.body+"\n}\n", 0)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := len(commandNameComparisons(f)); got != tc.want {
			t.Errorf("%s: %d comparisons, want %d", tc.name, got, tc.want)
		}
	}
}
