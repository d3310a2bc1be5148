package daemon

import (
	"fmt"
	"os"
	"syscall"

	"github.com/adtest/adtest/internal/userdir"
)

// Files of the daemon directory.
const (
	SocketName   = "daemon.sock"
	lockName     = "daemon.lock"
	infoName     = "daemon.json"
	tokenName    = "token"
	logName      = "daemon.log"
	sessionsName = "sessions.json"
)

// DefaultDir returns the daemon directory: the per-user runtime directory
// (internal/userdir: $XDG_RUNTIME_DIR/adtest, else $XDG_STATE_HOME/adtest,
// else ~/.local/state/adtest, else <tmp>/adtest-<uid>). getenv may be nil
// (os.Getenv).
func DefaultDir(getenv func(string) string) string {
	return userdir.Dir(getenv, userdir.Runtime)
}

// ensureDir creates dir (0700) when missing and checks that it is a real
// directory owned by this user and closed to everyone else. A directory of
// ours with a wider mode is tightened; one owned by someone else is refused.
func ensureDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("daemon directory %s: %w", dir, err)
	}
	return checkDir(dir, true)
}

// checkDir checks dir as ensureDir does; fix tightens its mode.
func checkDir(dir string, fix bool) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("daemon directory %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("daemon directory %s is not a directory (a symlink or a file); remove it", dir)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if ok && int(st.Uid) != os.Getuid() {
		return fmt.Errorf("daemon directory %s belongs to uid %d, not to you (uid %d); refusing to use it", dir, st.Uid, os.Getuid())
	}
	if fi.Mode().Perm()&0o077 != 0 {
		if !fix {
			return fmt.Errorf("daemon directory %s has mode %04o: other users could reach the daemon; run chmod 700 %s", dir, fi.Mode().Perm(), dir)
		}
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("daemon directory %s: %w", dir, err)
		}
	}
	return nil
}

// checkSocket checks that the socket at path belongs to this user and is
// closed to everyone else, so a client never talks to another user's daemon.
func checkSocket(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if fi.Mode()&os.ModeSocket == 0 {
		return fmt.Errorf("%s is not a socket", path)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return fmt.Errorf("daemon socket %s belongs to uid %d, not to you; refusing to connect", path, st.Uid)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("daemon socket %s has mode %04o; refusing to connect", path, fi.Mode().Perm())
	}
	return nil
}
