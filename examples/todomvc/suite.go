package todomvc

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/adtest/adtest/lang"
)

//go:embed flows/*.ad
var flowFiles embed.FS

// pathLine is the line of every flow that names the app it opens; as
// checked in it names backbone, so a flow runs as it is with
// `adtest run --serve <package> examples/todomvc/flows`.
var pathLine = regexp.MustCompile(`(?m)^env TODO_PATH=.*$`)

// Flows returns the nine flows: name (file name without .ad) to source,
// names sorted.
func Flows() ([]string, map[string][]byte, error) {
	ents, err := fs.ReadDir(flowFiles, "flows")
	if err != nil {
		return nil, nil, err
	}
	var names []string
	src := map[string][]byte{}
	for _, e := range ents {
		b, err := fs.ReadFile(flowFiles, path.Join("flows", e.Name()))
		if err != nil {
			return nil, nil, err
		}
		if len(pathLine.FindAllIndex(b, -1)) != 1 {
			return nil, nil, fmt.Errorf("flows/%s: want exactly one `env TODO_PATH=...` line", e.Name())
		}
		name := strings.TrimSuffix(e.Name(), ".ad")
		names = append(names, name)
		src[name] = b
	}
	sort.Strings(names)
	return names, src, nil
}

// WriteSuite writes the matrix as a suite: DIR/FRAMEWORK/FLOW.ad, each flow
// with its TODO_PATH set to the framework's page (same line numbers as the
// flow), and DIR/frameworks.json (name and entry of each framework, in
// order) for the Playwright specs. With flows named in only, just those
// flows are written (and listed); an unknown name is an error.
func WriteSuite(dir string, fws []Framework, only []string) error {
	return writeSuite(dir, fws, only, nil)
}

// WriteFloorSuite writes the suite as WriteSuite does, each flow cut down to
// its floor (Floor): the page loads and the written pauses, nothing else.
func WriteFloorSuite(dir string, fws []Framework, only []string) error {
	return writeSuite(dir, fws, only, Floor)
}

// readyStep is the floor's step after each open: the app is there when its
// new-todo field is (the first wait of every flow).
const readyStep = `wait "id=new-todo" 10000`

// Floor cuts a flow down to what no runner can skip with a fresh browser
// context per test: its opens, each followed by the wait for the app's
// field, and its written pauses (wait MS). Every other step's line is left
// blank, so the steps kept keep their lines. The line after an open must be
// a step the floor drops (it becomes the wait for the app).
func Floor(name string, src []byte) ([]byte, error) {
	sc, err := lang.Parse(name, src)
	if err != nil {
		return nil, err
	}
	lines := strings.SplitAfter(string(src), "\n")
	drop := map[int]bool{}
	var opens []int
	for _, a := range sc.Actions {
		tr := lang.TraitsOf(a.Command)
		switch {
		case tr.OpensSession:
			opens = append(opens, a.Line())
		case tr.Waits && len(a.Positionals) == 1 && isPause(a.Positionals[0]):
		default:
			drop[a.Line()] = true
		}
	}
	for l := range drop {
		lines[l-1] = "\n"
	}
	for _, l := range opens {
		if !drop[l+1] {
			return nil, fmt.Errorf("%s:%d: the line after an open is not a step the floor drops (it would be the wait for the app)", name, l+1)
		}
		lines[l] = readyStep + "\n"
	}
	return []byte(strings.Join(lines, "")), nil
}

// isPause reports whether a wait's one argument is a written pause (ms).
func isPause(arg string) bool {
	n, ok := lang.JSNumber(arg)
	return ok && n > 0
}

func writeSuite(dir string, fws []Framework, only []string, cut func(string, []byte) ([]byte, error)) error {
	names, src, err := Flows()
	if err != nil {
		return err
	}
	if len(only) > 0 {
		for _, n := range only {
			if _, ok := src[n]; !ok {
				return fmt.Errorf("no flow %q (flows: %s)", n, strings.Join(names, ", "))
			}
		}
		names = slices.DeleteFunc(names, func(n string) bool { return !slices.Contains(only, n) })
	}
	for _, fw := range fws {
		d := filepath.Join(dir, fw.Name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
		for _, n := range names {
			b := pathLine.ReplaceAll(src[n], []byte("env TODO_PATH="+fw.Entry))
			if cut != nil {
				if b, err = cut(n+".ad", b); err != nil {
					return err
				}
			}
			if err := os.WriteFile(filepath.Join(d, n+".ad"), b, 0o644); err != nil {
				return err
			}
		}
	}
	j, err := json.MarshalIndent(struct {
		Flows      []string    `json:"flows"`
		Frameworks []Framework `json:"frameworks"`
	}{names, fws}, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "frameworks.json"), append(j, '\n'), 0o644)
}

// GateFrameworks are the apps TestMatrix runs in make test: ones that pass
// every flow and that, before the driver fixes of issue 16, failed for one of
// its causes each (vanillajs: fill's synthetic change; epitome and polymer:
// the page's globals; react and angularjs: text in child elements), plus
// backbone, ractive, vue and emberjs, which passed before. sammyjs is left
// out: since `is` waits for its state its trim flow passes, but its delete
// flow failed once in a gate run (the todo still there 5 s after the click
// on its destroy button; Sammy re-renders the list from timers), so its
// cells are measured by make todomvc. make todomvc runs every complete app.
var GateFrameworks = []string{"backbone", "ractive", "vanillajs", "epitome", "polymer", "react", "angularjs", "vue", "emberjs"}

// Select keeps the frameworks named in only (all when only is empty); an
// unknown name is an error that lists the known ones.
func Select(fws []Framework, only []string) ([]Framework, error) {
	if len(only) == 0 {
		return fws, nil
	}
	by := map[string]Framework{}
	var known []string
	for _, f := range fws {
		by[f.Name] = f
		known = append(known, f.Name)
	}
	var out []Framework
	for _, n := range only {
		f, ok := by[n]
		if !ok {
			return nil, fmt.Errorf("no complete framework %q; complete ones: %s", n, strings.Join(known, ", "))
		}
		out = append(out, f)
	}
	return out, nil
}
