package repair

import (
	"bytes"
	"fmt"
	"strings"

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

// unifiedDiff is the unified diff of old and new under the name path (the
// same name on both sides, so `patch -p0` and `git apply -p0` find the file
// from the directory the run was started in), ctx lines of context.
func unifiedDiff(path string, old, new []byte, ctx int) []byte {
	a, af := splitLines(old)
	b, bf := splitLines(new)
	if bytes.Equal(old, new) {
		return nil
	}
	ops := diffOps(a, b)
	var out bytes.Buffer
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", path, path)
	// Group the edit script into hunks of changes with ctx lines around.
	type op struct {
		kind byte // ' ', '-', '+'
		text string
		ai   int // index in a (for ' ' and '-'), else the next a index
		bi   int
	}
	var list []op
	ai, bi := 0, 0
	for _, k := range ops {
		switch k {
		case ' ':
			list = append(list, op{' ', a[ai], ai, bi})
			ai++
			bi++
		case '-':
			list = append(list, op{'-', a[ai], ai, bi})
			ai++
		case '+':
			list = append(list, op{'+', b[bi], ai, bi})
			bi++
		}
	}
	for i := 0; i < len(list); {
		if list[i].kind == ' ' {
			i++
			continue
		}
		start := max(0, i-ctx)
		end := i
		for end < len(list) {
			if list[end].kind != ' ' {
				end++
				continue
			}
			// a run of context: does another change follow within 2*ctx?
			j := end
			for j < len(list) && list[j].kind == ' ' {
				j++
			}
			if j < len(list) && j-end <= 2*ctx {
				end = j
				continue
			}
			end = min(len(list), end+ctx)
			break
		}
		h := list[start:end]
		na, nb := 0, 0
		for _, o := range h {
			if o.kind != '+' {
				na++
			}
			if o.kind != '-' {
				nb++
			}
		}
		as, bs := h[0].ai+1, h[0].bi+1
		if na == 0 {
			as--
		}
		if nb == 0 {
			bs--
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", rangeOf(as, na), rangeOf(bs, nb))
		for _, o := range h {
			out.WriteByte(o.kind)
			out.WriteString(o.text)
			out.WriteByte('\n')
			lastA := o.kind != '+' && o.ai == len(a)-1 && !af
			lastB := o.kind != '-' && o.bi == len(b)-1 && !bf
			if lastA || lastB {
				out.WriteString("\\ No newline at end of file\n")
			}
		}
		i = end
	}
	return out.Bytes()
}

func rangeOf(start, n int) string {
	if n == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}

// diffOps is a longest-common-subsequence edit script of a into b: ' '
// keeps a line, '-' drops one of a, '+' inserts one of b. Scripts are
// small (a few hundred lines), so the quadratic table is fine.
func diffOps(a, b []string) []byte {
	n, m := len(a), len(b)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var ops []byte
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			ops = append(ops, ' ')
			i++
			j++
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, '-')
			i++
		default:
			ops = append(ops, '+')
			j++
		}
	}
	return ops
}
