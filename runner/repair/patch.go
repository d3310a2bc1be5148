package repair

import (
	"fmt"
	"strings"

	"github.com/adtest/adtest/internal/unidiff"
	"github.com/adtest/adtest/lang"
)

// The scratch copy and the diff: a repair replaces the physical lines of one
// action (its target-v1 annotation and its command line) by the printer's
// text of the repaired action, keeping the line's indentation; the patch is
// a unified diff of the whole file.

// splitLines splits src into lines without their terminators; final reports
// whether src ended with a newline.
func splitLines(src []byte) (lines []string, final bool) {
	s := string(src)
	final = strings.HasSuffix(s, "\n")
	s = strings.TrimSuffix(s, "\n")
	if s == "" && final {
		return []string{""}, true
	}
	return strings.Split(s, "\n"), final
}

func joinLines(lines []string, final bool) []byte {
	s := strings.Join(lines, "\n")
	if final {
		s += "\n"
	}
	return []byte(s)
}

// span is the 1-based range of physical lines an action occupies: its
// annotation line (when it carries evidence) through its command line.
func span(script *lang.Script, a *lang.Action) (first, last int) {
	first, last = a.Line(), a.Line()
	if a.TargetEvidence == nil && a.Targets == nil {
		return
	}
	for k, ln := range script.Lines {
		if ln.Kind != lang.LineAction || ln.Action != a {
			continue
		}
		for j := k - 1; j >= 0; j-- {
			switch script.Lines[j].Kind {
			case lang.LineAnnotation:
				return script.Lines[j].Pos.Line, last
			case lang.LineComment, lang.LineBlank:
				continue
			}
			return
		}
	}
	return
}

// substitute returns src with the lines of action a replaced by the printed
// text of repaired (annotation line included), and the old and new text.
func substitute(src []byte, script *lang.Script, a, repaired *lang.Action) (out []byte, oldText, newText string, err error) {
	lines, final := splitLines(src)
	first, last := span(script, a)
	if first < 1 || last > len(lines) {
		return nil, "", "", fmt.Errorf("line %d is outside the file (%d lines)", last, len(lines))
	}
	cmd := lines[a.Line()-1]
	indent := cmd[:len(cmd)-len(strings.TrimLeft(cmd, " \t"))]
	// Only the annotation and the command line are replaced; comments and
	// blank lines between them stay where they are.
	oldLines := []string{lines[a.Line()-1]}
	if first != a.Line() {
		oldLines = append([]string{lines[first-1]}, oldLines...)
	}
	printed := strings.Split(lang.FormatAction(repaired), "\n")
	for i := range printed {
		printed[i] = indent + printed[i]
	}
	var next []string
	next = append(next, lines[:first-1]...)
	if first != a.Line() {
		if len(printed) == 2 {
			next = append(next, printed[0])
		}
		next = append(next, lines[first:a.Line()-1]...)
	} else if len(printed) == 2 {
		next = append(next, printed[0])
	}
	next = append(next, printed[len(printed)-1])
	next = append(next, lines[a.Line():]...)
	return joinLines(next, final), strings.Join(oldLines, "\n"), strings.Join(printed, "\n"), nil
}

// patchOf is the unified diff of old into new (internal/unidiff) under the
// name path on both sides, so `patch -p0` and `git apply -p0` find the file
// from the directory the run was started in; ctx lines of context.
func patchOf(path string, old, new []byte, ctx int) string {
	return unidiff.Diff(path, path, old, new, ctx)
}
