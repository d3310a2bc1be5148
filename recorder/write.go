package recorder

import "github.com/adtest/adtest/internal/atomicfile"

// WriteFile publishes a script at path atomically: a temp file in the
// target directory (created when missing), then an exclusive link (an
// existing file is refused with an error wrapping os.ErrExist) or, with
// force, an atomic rename over it.
func WriteFile(path string, script []byte, force bool) error {
	return atomicfile.WriteFile(path, script, atomicfile.Options{MkdirAll: true, Sync: true, NoReplace: !force})
}
