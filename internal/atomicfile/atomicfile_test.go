package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// entries lists the names in dir: a test's proof that no temporary is left.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

func TestWriteReplacesOrKeeps(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "sub", "r.xml")
	if err := Write(p, Options{MkdirAll: true}, func(w io.Writer) error { _, err := io.WriteString(w, "one"); return err }); err != nil {
		t.Fatal(err)
	}
	err := Write(p, Options{}, func(w io.Writer) error { io.WriteString(w, "half"); return errors.New("boom") })
	if err == nil || err.Error() != "boom" {
		t.Fatalf("err = %v, want the render's own", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "one" {
		t.Errorf("a failed render replaced the file: %q", b)
	}
	if err := WriteFile(p, []byte("two"), Options{Sync: true}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "two" {
		t.Errorf("content %q, want two", b)
	}
	if got := entries(t, filepath.Dir(p)); len(got) != 1 {
		t.Errorf("temporary files left: %v", got)
	}
}

func TestWriteMode(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		perm, want fs.FileMode
	}{{0, 0o644}, {0o600, 0o600}, {0o755, 0o755}} {
		p := filepath.Join(dir, tc.want.String())
		if err := WriteFile(p, []byte("x"), Options{Perm: tc.perm}); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != tc.want {
			t.Errorf("Perm %v: mode %v, want %v", tc.perm, got, tc.want)
		}
	}
}

func TestWriteNoReplace(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "a.ad")
	if err := WriteFile(p, []byte("first"), Options{NoReplace: true}); err != nil {
		t.Fatal(err)
	}
	err := WriteFile(p, []byte("second"), Options{NoReplace: true})
	if !errors.Is(err, fs.ErrExist) {
		t.Fatalf("err = %v, want one wrapping fs.ErrExist", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "first" {
		t.Errorf("an exclusive write replaced the file: %q", b)
	}
	if got := entries(t, dir); len(got) != 1 {
		t.Errorf("temporary files left: %v", got)
	}
}

func TestWriteWithoutDirectory(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "missing", "r.json")
	if err := WriteFile(p, nil, Options{}); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("err = %v, want fs.ErrNotExist without MkdirAll", err)
	}
}
