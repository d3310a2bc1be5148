// Package docs holds the project's documentation; its one test keeps the
// floor picture of architecture.md true of the tree's imports.
package docs

import (
	"bufio"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/adtest/adtest/"

// floors reads the block of architecture.md whose lines start with
// "floor N": each name on such a line is a room of that floor.
func floors(t *testing.T) map[string]int {
	f, err := os.Open("architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rooms := map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 3 || fields[0] != "floor" {
			continue
		}
		n, err := strconv.Atoi(fields[1])
		if err != nil {
			continue
		}
		for _, room := range fields[2:] {
			if prev, ok := rooms[room]; ok {
				t.Fatalf("architecture.md puts %s on floors %d and %d", room, prev, n)
			}
			rooms[room] = n
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rooms) == 0 {
		t.Fatal(`architecture.md has no "floor N room..." lines`)
	}
	return rooms
}

// roomOf is the longest room that holds pkg (a path below the module).
func roomOf(rooms map[string]int, pkg string) (string, bool) {
	best := ""
	for room := range rooms {
		if (pkg == room || strings.HasPrefix(pkg, room+"/")) && len(room) > len(best) {
			best = room
		}
	}
	return best, best != ""
}

// imports maps each package of the tree (its path below the module) to
// the module's packages its non-test files import.
func imports(t *testing.T, root string) map[string][]string {
	out := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		if _, ok := out[pkg]; !ok {
			out[pkg] = nil
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(p, module) {
				out[pkg] = append(out[pkg], strings.TrimPrefix(p, module))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// checkFloors returns every import that breaks the floors: a package in
// no room, an import of a higher floor or of another room on the same one.
func checkFloors(rooms map[string]int, pkgs map[string][]string) []string {
	var bad []string
	for pkg, imps := range pkgs {
		if pkg == "." || pkg == "docs" {
			continue
		}
		room, ok := roomOf(rooms, pkg)
		if !ok {
			bad = append(bad, fmt.Sprintf("%s stands in no room of the floor picture", pkg))
			continue
		}
		for _, imp := range imps {
			to, ok := roomOf(rooms, imp)
			if !ok || to == room {
				continue // a package in no room is reported as itself
			}
			if rooms[to] >= rooms[room] {
				bad = append(bad, fmt.Sprintf("%s (floor %d, %s) imports %s (floor %d, %s)", pkg, rooms[room], room, imp, rooms[to], to))
			}
		}
	}
	sort.Strings(bad)
	return bad
}

func TestFloors(t *testing.T) {
	rooms := floors(t)
	pkgs := imports(t, "..")
	if len(pkgs) < 10 {
		t.Fatalf("found only %d packages under the module root", len(pkgs))
	}
	for _, b := range checkFloors(rooms, pkgs) {
		t.Error(b)
	}
}

// TestFloorsCatch shows the check fails an import that goes up or
// sideways, so a green TestFloors means something.
func TestFloorsCatch(t *testing.T) {
	rooms := map[string]int{"cmd": 3, "runner": 2, "lang": 1, "drivers": 1, "internal/proc": 0}
	pkgs := map[string][]string{
		"lang":           {"drivers"},      // sideways
		"drivers/web":    {"runner/match"}, // up (a room of a higher floor)
		"runner/suite":   {"runner", "lang", "internal/proc"},
		"cmd/adtest":     {"runner/suite"},
		"internal/proc":  nil,
		"stray/package":  nil,
		"runner/match":   {"lang"},
		"drivers":        {"internal/proc"},
		"internal/other": nil,
	}
	got := strings.Join(checkFloors(rooms, pkgs), "\n")
	for _, want := range []string{
		"lang (floor 1, lang) imports drivers (floor 1, drivers)",
		"drivers/web (floor 1, drivers) imports runner/match (floor 2, runner)",
		"stray/package stands in no room",
		"internal/other stands in no room",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("checkFloors missed %q; got:\n%s", want, got)
		}
	}
	if strings.Count(got, "\n")+1 != 4 {
		t.Errorf("checkFloors reported more than the four breaks:\n%s", got)
	}
}
