package suite

import (
	"fmt"
	"io"
	"io/fs"
	"os"
)

// MaxScriptBytes bounds what adtest reads as one script: a .ad file is text a
// person writes (the 100,000-line stress script is 4 MB), so anything larger
// is a mistake such as /dev/zero or a log renamed .ad, and reading it whole
// would only eat memory.
const MaxScriptBytes = 16 << 20

// ScriptReadError is a script path adtest refuses to read; Error reads
// "message (hint)" without the path, which the caller prints before it.
type ScriptReadError struct {
	Msg, Hint string
}

func (e *ScriptReadError) Error() string { return e.Msg + "; " + e.Hint }

// ReadScript reads the script at path. It refuses anything but a regular file
// (a named pipe would block the reader until someone writes, a device such as
// /dev/zero never ends) and anything larger than MaxScriptBytes, so a
// discovery never hangs or swallows memory on a hostile or mistaken tree. A
// symlink to a regular file is read; one to a device is refused.
func ReadScript(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := checkScriptInfo(st); err != nil {
		return nil, err
	}
	// Non-blocking open: should the path turn into a FIFO between the Stat
	// and the open, opening it does not wait for a writer; the Fstat below
	// then refuses it.
	f, err := os.OpenFile(path, os.O_RDONLY|openNonBlock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := checkScriptInfo(st); err != nil {
		return nil, err
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxScriptBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxScriptBytes {
		return nil, tooLarge()
	}
	return b, nil
}

func checkScriptInfo(st fs.FileInfo) error {
	if !st.Mode().IsRegular() {
		return &ScriptReadError{
			Msg:  "not a regular file (" + fileKind(st.Mode()) + ")",
			Hint: "adtest reads scripts only from regular files: remove it, or rename it so it does not end in .ad",
		}
	}
	if st.Size() > MaxScriptBytes {
		return tooLarge()
	}
	return nil
}

func tooLarge() error {
	return &ScriptReadError{
		Msg:  fmt.Sprintf("larger than %d MiB, the limit of a script", MaxScriptBytes>>20),
		Hint: "a .ad script is text a person writes: check the path, or split the script",
	}
}

func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "mode " + m.Type().String()
}
