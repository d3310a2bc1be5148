package repair

import (
	"path/filepath"
	"strings"

	"github.com/adtest/adtest/internal/shellquote"
)

// Where a patch applies from. A script below the working directory is
// named in its patch by its path from there, and `git apply -p0 PATCH` runs
// there. A script outside it (`adtest run --repair ../../x.ad`) cannot be
// named so: git apply refuses a path with ".." ("invalid path"), patch -p0
// refuses it too, and an absolute path ties the patch to one machine. Its
// patch names it by its base name instead, and the command runs in the
// script's own directory: `git -C DIR apply -p0 PATCH`.

// Locate is the name of the script (an absolute path) in its patch's
// headers, and the directory the patch applies from ("" for cwd itself).
func Locate(cwd, script string) (header, dir string) {
	if cwd != "" {
		if rel, err := filepath.Rel(cwd, script); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") && !filepath.IsAbs(rel) {
			return filepath.ToSlash(rel), ""
		}
	}
	return filepath.Base(script), filepath.Dir(script)
}

// ApplyCommand is the shell command that applies the patch (an absolute
// path) from cwd, every word quoted for a POSIX shell: `git apply -p0
// PATCH`, or `git -C DIR apply -p0 PATCH` when dir (from Locate) is not "".
func ApplyCommand(cwd, dir, patch string) string {
	if dir == "" {
		return shellquote.Join("git", "apply", "-p0", relTo(cwd, patch))
	}
	d := filepath.ToSlash(dir)
	if rel, err := filepath.Rel(cwd, dir); cwd != "" && err == nil {
		d = filepath.ToSlash(rel) // ../../flows reads better than an absolute path
	}
	return shellquote.Join("git", "-C", d, "apply", "-p0", relTo(dir, patch))
}

// relTo is p relative to base when p is below it, else p; slash
// separated.
func relTo(base, p string) string {
	if base != "" && filepath.IsAbs(p) {
		if rel, err := filepath.Rel(base, p); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(p)
}
