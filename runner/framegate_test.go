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

// TestFrameAssignmentGate is what the compiler cannot hold for the ref
// frame (runner/internal/frame keeps its fields and transitions to itself):
// the session's frame is only ever replaced by a transition of that same
// frame, or set to a fresh lifetime in a Session literal, never cleared or
// assigned a frame from elsewhere (ADR 0014's field-owner gate).
func TestFrameAssignmentGate(t *testing.T) {
	t.Parallel()
	transitions := map[string]bool{"ActivateComplete": true, "ActivateScoped": true, "PublishPartial": true, "Expire": true, "CloseSession": true}
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	checked, assigns := 0, 0
	isFrame := func(e ast.Expr) bool {
		s, ok := e.(*ast.SelectorExpr)
		return ok && s.Sel.Name == "frame"
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
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
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.KeyValueExpr:
				if k, ok := x.Key.(*ast.Ident); ok && k.Name == "frame" {
					c, ok := x.Value.(*ast.CallExpr)
					sel, isSel := (*ast.SelectorExpr)(nil), false
					if ok {
						sel, isSel = c.Fun.(*ast.SelectorExpr)
					}
					if !isSel || sel.Sel.Name != "NewLifetime" {
						t.Errorf("%s: a frame field initialised other than by frame.NewLifetime", fset.Position(x.Pos()))
					}
				}
			case *ast.AssignStmt:
				for i, lhs := range x.Lhs {
					if !isFrame(lhs) {
						continue
					}
					assigns++
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
	if checked < 5 || assigns < 5 {
		t.Fatalf("checked only %d files, %d frame assignments", checked, assigns)
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
