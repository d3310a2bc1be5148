package runner

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFrameFieldOwnerGate is the field-owner gate of ADR 0014: outside
// frame.go no code constructs a refFrame, touches its fields, or assigns the
// session's frame anything but a transition of that same frame (or a fresh
// lifetime in a Session literal). The type's unexported fields cannot stop a
// same-package edit; this test does.
func TestFrameFieldOwnerGate(t *testing.T) {
	fields := map[string]bool{"present": true, "epoch": true, "obs": true, "expired": true, "issued": true, "lineage": true}
	transitions := map[string]bool{"activateComplete": true, "activateScoped": true, "publishPartial": true, "expire": true, "closeSession": true}
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if name == "frame.go" || strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		isFrame := func(e ast.Expr) bool {
			s, ok := e.(*ast.SelectorExpr)
			return ok && s.Sel.Name == "frame"
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.CompositeLit:
				if id, ok := x.Type.(*ast.Ident); ok && id.Name == "refFrame" {
					t.Errorf("%s: constructs a refFrame outside frame.go", fset.Position(x.Pos()))
				}
				for _, el := range x.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "frame" {
							c, ok := kv.Value.(*ast.CallExpr)
							if id, ok2 := func() (*ast.Ident, bool) {
								if !ok {
									return nil, false
								}
								i, ok := c.Fun.(*ast.Ident)
								return i, ok
							}(); !ok2 || id.Name != "newFrameLifetime" {
								t.Errorf("%s: a frame field initialised other than by newFrameLifetime", fset.Position(kv.Pos()))
							}
						}
					}
				}
			case *ast.SelectorExpr:
				if fields[x.Sel.Name] && isFrame(x.X) {
					t.Errorf("%s: touches frame field %s outside frame.go", fset.Position(x.Pos()), x.Sel.Name)
				}
			case *ast.AssignStmt:
				for i, lhs := range x.Lhs {
					if !isFrame(lhs) {
						continue
					}
					ok := false
					if c, isCall := x.Rhs[i].(*ast.CallExpr); isCall {
						if sel, isSel := c.Fun.(*ast.SelectorExpr); isSel && transitions[sel.Sel.Name] && isFrame(sel.X) &&
							selChain(lhs) == selChain(sel.X) {
							ok = true
						}
					}
					if !ok {
						t.Errorf("%s: the session frame is assigned something other than its own transition", fset.Position(x.Pos()))
					}
				}
			}
			return true
		})
	}
	if checked < 5 {
		t.Fatalf("checked only %d files", checked)
	}
}

// selChain renders a selector chain (s.frame) for comparison.
func selChain(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return selChain(x.X) + "." + x.Sel.Name
	}
	return "?"
}
