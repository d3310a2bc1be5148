// Package unidiff writes unified diffs, the one way adtest shows or
// proposes a change to a file: `adtest fmt -d`, the repair's and the
// annotation's patches. Lines are matched by go-difflib; what it leaves
// to the caller, a last line without a newline, is written here as diff(1)
// and git write it ("\ No newline at end of file"), so the patches apply
// with `patch` and `git apply`.
package unidiff

import (
	"strings"

	"github.com/pmezard/go-difflib/difflib"
)

// noNewline is diff(1)'s line after a last line that has no newline.
const noNewline = "\\ No newline at end of file\n"

// Diff is the unified diff of old into new, headed `--- from` and
// `+++ to`, with context lines around each change (hunks closer than
// twice that merge); "" when the two are equal.
func Diff(from, to string, old, new []byte, context int) string {
	if string(old) == string(new) {
		return ""
	}
	var b strings.Builder
	// Writing to a strings.Builder cannot fail.
	_ = difflib.WriteUnifiedDiff(&b, difflib.UnifiedDiff{
		A: lines(old), B: lines(new),
		FromFile: from, ToFile: to, Context: context,
	})
	return b.String()
}

// lines splits text into lines, each ending in "\n". A last line without
// one carries the marker with it, so it differs from the same text with
// a newline and its marker follows it wherever it is written (context,
// removed or added).
func lines(text []byte) []string {
	ls := strings.SplitAfter(string(text), "\n")
	if ls[len(ls)-1] == "" {
		return ls[:len(ls)-1]
	}
	ls[len(ls)-1] += "\n" + noNewline
	return ls
}
