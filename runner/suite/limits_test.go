package suite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadScriptLimits: a script larger than MaxScriptBytes is refused before
// it is read (a sparse file costs no disk), one at the limit is read.
func TestReadScriptLimits(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	big := filepath.Join(dir, "big.ad")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxScriptBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = ReadScript(big)
	if err == nil || err.Error() != "larger than 16 MiB, the limit of a script; a .ad script is text a person writes: check the path, or split the script" {
		t.Fatalf("ReadScript(big) = %v", err)
	}
	if err := os.Truncate(big, MaxScriptBytes); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadScript(big); err != nil || len(b) != MaxScriptBytes {
		t.Fatalf("ReadScript(at limit) = %d bytes, %v", len(b), err)
	}
	if _, err := ReadScript(dir); err == nil || !strings.HasPrefix(err.Error(), "not a regular file (a directory)") {
		t.Fatalf("ReadScript(dir) = %v", err)
	}
}
