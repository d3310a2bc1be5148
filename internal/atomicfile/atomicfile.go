// Package atomicfile is adtest's one way to publish a file: the content goes
// to a temporary file beside the target ("."+name+".tmp-*", in the same
// directory so that the last step is a rename on one filesystem), gets its
// mode, and only then takes the target's name. A reader sees the old file or
// the new one, never half of one; a failed write leaves the old file and no
// temporary behind.
//
// Writers: reports (JSON, JUnit, HTML's index.html, result.json), recorded
// scripts, `adtest fmt -w`, the daemon's state files (0600), the Android
// helper's cache and the last-run record.
package atomicfile

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Options says how a file is published.
type Options struct {
	// Perm is the file's mode (0: 0644). The temporary file has it before
	// it is written, so a 0600 file is never readable by others.
	Perm fs.FileMode
	// MkdirAll creates the target's directory (0755) when it is missing.
	MkdirAll bool
	// Sync flushes the content to the disk before the rename (a script a
	// user edits, a recording).
	Sync bool
	// NoReplace refuses an existing target with an error wrapping
	// fs.ErrExist (the new file is linked into place, not renamed over).
	NoReplace bool
}

// WriteFile publishes data at path.
func WriteFile(path string, data []byte, opts Options) error {
	return Write(path, opts, func(w io.Writer) error {
		_, err := io.Copy(w, bytes.NewReader(data))
		return err
	})
}

// Write publishes what render writes at path. When render fails, its error
// is returned as is and path is left as it was.
func Write(path string, opts Options, render func(io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	if opts.MkdirAll {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	perm := opts.Perm
	if perm == 0 {
		perm = 0o644
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	closed := false
	defer func() {
		if !closed {
			tmp.Close()
		}
		if err != nil || opts.NoReplace {
			os.Remove(name)
		}
	}()
	if err = tmp.Chmod(perm.Perm()); err != nil {
		return err
	}
	if err = render(tmp); err != nil {
		return err
	}
	if opts.Sync {
		if err = tmp.Sync(); err != nil {
			return err
		}
	}
	closed = true
	if err = tmp.Close(); err != nil {
		return err
	}
	if !opts.NoReplace {
		return os.Rename(name, path)
	}
	if err = os.Link(name, path); err != nil && os.IsExist(err) {
		return fmt.Errorf("%w: %s", fs.ErrExist, path)
	}
	return err
}
