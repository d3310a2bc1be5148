// Package scriptpath turns the PATH arguments of adtest run, check, fmt and
// parse into the .ad scripts they name, in one way for all four: a file as
// given, a directory walked (sorted; dot directories, node_modules and
// adtest's own output directories are not entered), a glob expanded. The
// suite runner's Discover and the commands in cmd/adtest import it; it
// imports nothing of adtest.
package scriptpath

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Abs is p resolved against cwd (p itself when absolute or cwd is "").
func Abs(cwd, p string) string {
	if filepath.IsAbs(p) || cwd == "" {
		return p
	}
	return filepath.Join(cwd, p)
}

// OutputMarker is the file adtest run leaves in its artifacts root: a
// directory walk does not enter a directory holding it, wherever the run put
// its output (a script.ad copy there is evidence, not a test).
const OutputMarker = ".adtest-output"

// OutputMarkerText is the marker's content, for whoever finds it.
const OutputMarkerText = "adtest run's artifacts: discovery (run, check, fmt, parse) does not look for tests below this directory.\n"

// findScripts lists the *.ad files below root in filepath.WalkDir's order
// (callers sort when they promise sorted output). Below root it never enters
// a dot directory (.adtest holds adtest's own output, whose script.ad copies
// would otherwise be run again by every later run; .git and the like hold no
// tests), a node_modules directory, or a directory of skip (absolute, clean
// paths: the run's configured output) or one holding OutputMarker. With skipHidden, dot files are passed
// over too, as gofmt does. On a walk error it returns what it found so far
// with the error.
func findScripts(root string, skipHidden bool, skip map[string]bool) ([]string, error) {
	var found []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || skip[p] || isOutputDir(p)) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(d.Name(), ".ad") && !(skipHidden && strings.HasPrefix(d.Name(), ".")) {
			found = append(found, p)
		}
		return nil
	})
	return found, err
}

func isOutputDir(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, OutputMarker))
	return err == nil
}

// File is one script a PATH argument named: Display is the path as the
// user spelled it (a directory's files joined below the argument, a glob's
// matches relative to the working directory), Path where to read it.
type File struct {
	Display, Path string
}

// Problem is a PATH argument that named no script.
type Problem struct {
	Arg, Msg string
	Kind     ProblemKind
}

// ProblemKind classifies a Problem, so each command words it its way.
type ProblemKind int

const (
	ProblemMissing    ProblemKind = iota // no such file or directory
	ProblemNoMatch                       // a glob matched no script
	ProblemBadPattern                    // a malformed glob
	ProblemWalk                          // a directory could not be read
	ProblemEmpty                         // a directory without scripts (fmt and parse pass over it)
)

func (p Problem) String() string { return p.Arg + ": " + p.Msg }

// Expand is the one script-path expander of adtest run (suite.Discover),
// check, fmt and parse: a file as given (whatever directory it is in), a
// directory into every *.ad below it (sorted; dot directories and
// node_modules are not entered, and with skipHidden dot files are passed
// over, as gofmt does), a glob into the scripts it matches (sorted; a matched
// directory is walked). A script named twice is listed once, where it first
// appears.
func Expand(cwd string, args []string, skipHidden bool) (files []File, problems []Problem) {
	return ExpandSkipping(cwd, args, skipHidden, nil)
}

// ExpandSkipping is Expand that does not enter the directories
// skip names (relative to cwd or absolute) while walking: adtest run's
// configured artifacts and report directories. A directory of skip named as
// an argument itself is still walked.
func ExpandSkipping(cwd string, args []string, skipHidden bool, skip []string) (files []File, problems []Problem) {
	skipSet := map[string]bool{}
	for _, d := range skip {
		skipSet[filepath.Clean(Abs(cwd, d))] = true
	}
	seen := map[string]bool{}
	add := func(display, path string) {
		if !seen[path] {
			seen[path] = true
			files = append(files, File{Display: display, Path: path})
		}
	}
	walk := func(arg, display, path string) {
		found, err := findScripts(path, skipHidden, skipSet)
		if err != nil {
			problems = append(problems, Problem{Arg: arg, Msg: pathErr(err), Kind: ProblemWalk})
		}
		if len(found) == 0 && err == nil {
			problems = append(problems, Problem{Arg: arg, Msg: "no .ad scripts in this directory", Kind: ProblemEmpty})
		}
		sort.Strings(found)
		for _, p := range found {
			rel, _ := filepath.Rel(path, p)
			add(filepath.Join(display, rel), p)
		}
	}
	for _, arg := range args {
		path := filepath.Clean(Abs(cwd, arg))
		st, err := os.Stat(path)
		switch {
		case err == nil && st.IsDir():
			walk(arg, arg, path)
		case err == nil:
			add(arg, path)
		case strings.ContainsAny(arg, "*?["):
			matches, gerr := filepath.Glob(path)
			if gerr != nil {
				problems = append(problems, Problem{Arg: arg, Msg: "bad pattern: " + gerr.Error(), Kind: ProblemBadPattern})
				continue
			}
			sort.Strings(matches)
			n := len(files)
			for _, m := range matches {
				display := m
				if !filepath.IsAbs(arg) && cwd != "" {
					if rel, err := filepath.Rel(cwd, m); err == nil {
						display = rel
					}
				}
				if mi, err := os.Stat(m); err == nil && mi.IsDir() {
					walk(arg, display, m)
				} else if strings.HasSuffix(m, ".ad") {
					add(display, m)
				}
			}
			if len(files) == n {
				problems = append(problems, Problem{Arg: arg, Msg: "no files match", Kind: ProblemNoMatch})
			}
		default:
			problems = append(problems, Problem{Arg: arg, Msg: pathErr(err), Kind: ProblemMissing})
		}
	}
	return files, problems
}

// pathErr is an fs error without the operation and path it names (the
// argument is printed before it).
func pathErr(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// Display is how adtest shows path p to a person working in cwd: relative
// to cwd when p lies below it, else as given; slash-separated either way.
func Display(cwd, p string) string {
	if cwd != "" {
		if rel, err := filepath.Rel(cwd, p); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(p)
}
