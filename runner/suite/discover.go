// Package suite is the suite runner of `adtest run`: discovery, the worker
// queue, retries, hard per-attempt timeouts, shards, artifacts and the final
// result. It talks to devices only through drivers.Provider and to the step
// executor through the Replayer seam, and to reporters only through
// runner.Observer events and the runner.Result it returns.
package suite

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/adtest/adtest/internal/scriptpath"
	"github.com/adtest/adtest/lang"
)

// Test is one discovered script with its effective settings.
type Test struct {
	// File is the path shown in reports: relative to the working directory
	// when below it, slash-separated; absolute otherwise.
	File string
	// Path is the absolute path.
	Path string
	// Name is the file's base name without the .ad extension.
	Name     string
	Platform string
	Source   []byte
	Script   *lang.Script
	// Retries and TimeoutMs are the effective values (flag, else context
	// header, else default); TimeoutMs 0 means no deadline.
	Retries   int
	TimeoutMs int
	// SkipReason is set for tests that are reported as skipped.
	SkipReason string
	// Repeat is the repetition (1-based) of RepeatOf, when RepeatOf > 1
	// (--repeat-each).
	Repeat, RepeatOf int
}

// ParseFunc parses a script; a parse error should be a *lang.Error whose
// Error() reads file:line:col: message.
type ParseFunc func(file string, src []byte) (*lang.Script, error)

// CheckFunc statically checks a parsed script (src is its text); it returns
// every problem.
type CheckFunc func(s *lang.Script, src []byte) []error

// DiscoverOptions control discovery.
type DiscoverOptions struct {
	Cwd string
	// Platform is the --platform filter: files declaring it run, files
	// declaring another platform are dropped, files without a platform run on
	// it. Empty: each file runs on its declared platform; a file without one
	// is skipped with a reason.
	Platform string
	// Grep keeps only files whose path (as shown in reports) matches.
	Grep *regexp.Regexp
	// Retries and TimeoutMs override the context header when not nil.
	Retries   *int
	TimeoutMs *int
	Parse     ParseFunc
	Check     CheckFunc
	// Skip are directories (relative to Cwd or absolute) a directory walk
	// does not enter: the run's own output (artifacts, HTML report), besides
	// the dot directories and node_modules no walk enters.
	Skip []string
}

// Limits of retries: a context header may ask for at most MaxHeaderRetries
// (agent-device's cap); the --retries flag may ask for up to MaxFlagRetries.
const (
	MaxHeaderRetries = 3
	MaxFlagRetries   = 10
)

// ErrNoInputs is returned when discovery is given no path.
var ErrNoInputs = errors.New("run requires at least one path, directory or glob")

// DiscoveryError collects every problem found while discovering, parsing and
// checking; nothing runs when one exists.
type DiscoveryError struct {
	Errs []error
}

func (e *DiscoveryError) Error() string {
	lines := make([]string, len(e.Errs))
	for i, err := range e.Errs {
		lines[i] = err.Error()
	}
	return strings.Join(lines, "\n")
}

// Discover expands paths (files, directories searched recursively for *.ad,
// and globs) into a sorted, de-duplicated list of tests, and parses (and
// checks) every file before returning. Any problem returns a *DiscoveryError
// listing all of them.
func Discover(paths []string, opts DiscoverOptions) ([]*Test, error) {
	if len(paths) == 0 {
		return nil, ErrNoInputs
	}
	if opts.Parse == nil {
		return nil, errors.New("suite: DiscoverOptions.Parse is nil")
	}
	var errs []error
	found, problems := scriptpath.ExpandSkipping(opts.Cwd, paths, false, opts.Skip)
	for _, p := range problems {
		switch p.Kind {
		case scriptpath.ProblemEmpty: // nothing to run there
		case scriptpath.ProblemMissing:
			errs = append(errs, fmt.Errorf("test input not found: %s", p.Arg))
		case scriptpath.ProblemNoMatch:
			errs = append(errs, fmt.Errorf("glob matched no .ad file: %s", p.Arg))
		case scriptpath.ProblemBadPattern:
			errs = append(errs, fmt.Errorf("bad glob %q: %s", p.Arg, p.Msg))
		default:
			errs = append(errs, fmt.Errorf("%s: %s", p.Arg, p.Msg))
		}
	}
	var files []string
	for _, f := range found {
		if !strings.HasSuffix(f.Path, ".ad") {
			errs = append(errs, fmt.Errorf("run does not support this file type: %s (expected a .ad script)", f.Display))
			continue
		}
		files = append(files, f.Path)
	}
	if len(errs) > 0 {
		return nil, &DiscoveryError{Errs: errs}
	}

	var tests []*Test
	for _, abs := range files {
		rel := scriptpath.Display(opts.Cwd, abs)
		if opts.Grep != nil && !opts.Grep.MatchString(rel) {
			continue
		}
		src, err := ReadScript(abs)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %v", rel, err))
			continue
		}
		script, err := opts.Parse(rel, src)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if opts.Check != nil {
			if cerrs := opts.Check(script, src); len(cerrs) > 0 {
				errs = append(errs, cerrs...)
				continue
			}
		}
		t := &Test{
			File:   rel,
			Path:   abs,
			Name:   testName(abs),
			Source: src,
			Script: script,
		}
		declared := declaredPlatform(script)
		switch {
		case opts.Platform != "" && declared != "" && declared != opts.Platform:
			continue // --platform is a filter
		case opts.Platform != "":
			t.Platform = opts.Platform
		case declared != "":
			t.Platform = declared
		default:
			t.SkipReason = "missing platform metadata: add `context platform=web` (or android) or pass --platform"
		}
		t.Retries = effectiveRetries(opts.Retries, script.Metadata.Retries)
		t.TimeoutMs = effectiveTimeout(opts.TimeoutMs, script.Metadata.TimeoutMs)
		tests = append(tests, t)
	}
	if len(errs) > 0 {
		return nil, &DiscoveryError{Errs: errs}
	}
	sort.SliceStable(tests, func(i, j int) bool { return tests[i].File < tests[j].File })
	return tests, nil
}

func effectiveRetries(flag, header *int) int {
	switch {
	case flag != nil:
		return clamp(*flag, 0, MaxFlagRetries)
	case header != nil:
		return clamp(*header, 0, MaxHeaderRetries)
	}
	return 0
}

func effectiveTimeout(flag, header *int) int {
	switch {
	case flag != nil:
		return max(*flag, 0)
	case header != nil:
		return max(*header, 0)
	}
	return 0
}

func clamp(v, lo, hi int) int { return min(max(v, lo), hi) }

// declaredPlatform returns the script's context platform. agent-device drops
// `platform=web` from its metadata (web is not one of its platforms), so when
// the parser left Metadata.Platform empty the raw context lines are read too.
func declaredPlatform(s *lang.Script) string {
	if s.Metadata.Platform != "" {
		return s.Metadata.Platform
	}
	for _, kv := range s.Metadata.Other {
		if kv.Key == "platform" {
			return kv.Value
		}
	}
	for _, l := range s.Lines {
		if l.Kind == lang.LineAction {
			break
		}
		if l.Kind != lang.LineContext {
			continue
		}
		for _, f := range strings.Fields(l.Text) {
			if v, ok := strings.CutPrefix(f, "platform="); ok && v != "" {
				return v
			}
		}
	}
	return ""
}

// testName is the file's base name without .ad; a file named just ".ad"
// keeps its whole name rather than an empty one.
func testName(path string) string {
	base := filepath.Base(path)
	if name := strings.TrimSuffix(base, ".ad"); name != "" {
		return name
	}
	return base
}
