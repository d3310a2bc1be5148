package main

import (
	"io"
	"io/fs"
)

// FS is the filesystem a subcommand may use. main fills it with the
// operating system's (osFS); a test may hand Main another. Packages cmd
// hands work to (suite discovery, reporters writing files, the daemon) use
// the filesystem themselves.
type FS interface {
	ReadFile(name string) ([]byte, error)
	// ReadScript reads a .ad script: a regular file of at most
	// suite.MaxScriptBytes; a named pipe or device is refused, never waited on.
	ReadScript(name string) ([]byte, error)
	WriteFile(name string, data []byte, perm fs.FileMode) error
	// ReplaceFile replaces name (or the file a symlink at name points to)
	// with data atomically, giving it mode.
	ReplaceFile(name string, data []byte, mode fs.FileMode) error
	Stat(name string) (fs.FileInfo, error)
	MkdirAll(name string, perm fs.FileMode) error
	Open(name string) (io.ReadCloser, error)
	Create(name string) (io.WriteCloser, error)
	// Sub is the tree rooted at dir.
	Sub(dir string) fs.FS
}
