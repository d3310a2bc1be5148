package suite

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// absPath is p resolved against cwd (p itself when absolute or cwd is "").
func absPath(cwd, p string) string {
	if filepath.IsAbs(p) || cwd == "" {
		return p
	}
	return filepath.Join(cwd, p)
}

// findScripts lists the *.ad files below root in filepath.WalkDir's order
// (callers sort when they promise sorted output). With skipHidden, dot
// directories below root and dot files are passed over, as gofmt does. On a
// walk error it returns what it found so far with the error.
func findScripts(root string, skipHidden bool) ([]string, error) {
	var found []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		hidden := skipHidden && strings.HasPrefix(d.Name(), ".")
		if d.IsDir() {
			if hidden && p != root {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(d.Name(), ".ad") && !hidden {
			found = append(found, p)
		}
		return nil
	})
	return found, err
}

// ScriptFile is one script a PATH argument named: Display is the path as the
// user spelled it (a directory's files joined below the argument, a glob's
// matches relative to the working directory), Path where to read it.
type ScriptFile struct {
	Display, Path string
}

// PathProblem is a PATH argument that named no script.
type PathProblem struct {
	Arg, Msg string
	Kind     ProblemKind
}

// ProblemKind classifies a PathProblem, so each command words it its way.
type ProblemKind int

const (
	ProblemMissing    ProblemKind = iota // no such file or directory
	ProblemNoMatch                       // a glob matched no script
	ProblemBadPattern                    // a malformed glob
	ProblemWalk                          // a directory could not be read
	ProblemEmpty                         // a directory without scripts (fmt and parse pass over it)
)

func (p PathProblem) String() string { return p.Arg + ": " + p.Msg }

// ExpandScripts is the one script-path expander of adtest run (Discover),
// check, fmt and parse: a file as given, a directory into every *.ad below it (sorted; with
// skipHidden, dot directories and files are passed over, as gofmt does), a
// glob into the scripts it matches (sorted; a matched directory is walked). A script
// named twice is listed once, where it first appears.
func ExpandScripts(cwd string, args []string, skipHidden bool) (files []ScriptFile, problems []PathProblem) {
	seen := map[string]bool{}
	add := func(display, path string) {
		if !seen[path] {
			seen[path] = true
			files = append(files, ScriptFile{Display: display, Path: path})
		}
	}
	walk := func(arg, display, path string) {
		found, err := findScripts(path, skipHidden)
		if err != nil {
			problems = append(problems, PathProblem{Arg: arg, Msg: pathErr(err), Kind: ProblemWalk})
		}
		if len(found) == 0 && err == nil {
			problems = append(problems, PathProblem{Arg: arg, Msg: "no .ad scripts in this directory", Kind: ProblemEmpty})
		}
		sort.Strings(found)
		for _, p := range found {
			rel, _ := filepath.Rel(path, p)
			add(filepath.Join(display, rel), p)
		}
	}
	for _, arg := range args {
		path := filepath.Clean(absPath(cwd, arg))
		st, err := os.Stat(path)
		switch {
		case err == nil && st.IsDir():
			walk(arg, arg, path)
		case err == nil:
			add(arg, path)
		case strings.ContainsAny(arg, "*?["):
			matches, gerr := filepath.Glob(path)
			if gerr != nil {
				problems = append(problems, PathProblem{Arg: arg, Msg: "bad pattern: " + gerr.Error(), Kind: ProblemBadPattern})
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
				problems = append(problems, PathProblem{Arg: arg, Msg: "no files match", Kind: ProblemNoMatch})
			}
		default:
			problems = append(problems, PathProblem{Arg: arg, Msg: pathErr(err), Kind: ProblemMissing})
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
