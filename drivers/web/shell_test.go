package web

import (
	"os"
	"path/filepath"
	"testing"
)

// A headless shell found on PATH that is a wrapper script is replaced by the
// binary the wrapper runs; a binary found on PATH is kept.
func TestShellBinaryPassesOverDebiansWrapper(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	wrapper := write("wrapper", "#!/bin/sh -e\n\n/usr/lib/chromium/chromium-headless-shell \"$@\"\n")
	binary := write("binary", "\x7fELF not really")
	old := debianShell
	t.Cleanup(func() { debianShell = old })

	debianShell = binary
	if got := shellBinary(wrapper); got != binary {
		t.Errorf("shellBinary(wrapper) = %s, want the binary it runs, %s", got, binary)
	}
	if got := shellBinary(binary); got != binary {
		t.Errorf("shellBinary(binary) = %s, want it kept", got)
	}
	debianShell = filepath.Join(dir, "missing")
	if got := shellBinary(wrapper); got != wrapper {
		t.Errorf("shellBinary(wrapper) with no binary beside = %s, want the wrapper", got)
	}
}
