package recorder

import (
	"fmt"
	"os"
	"path/filepath"
)

// WriteFile publishes a script at path atomically: a temp file in the
// target directory (created when missing), then an exclusive link (an
// existing file is refused with an error wrapping os.ErrExist) or, with
// force, an atomic rename over it.
func WriteFile(path string, script []byte, force bool) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	name := tmp.Name()
	defer os.Remove(name)
	if _, err := tmp.Write(script); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(name, 0o644); err != nil {
		return err
	}
	if force {
		return os.Rename(name, path)
	}
	if err := os.Link(name, path); err != nil {
		if os.IsExist(err) {
			return fmt.Errorf("%w: %s", os.ErrExist, path)
		}
		return err
	}
	return nil
}
