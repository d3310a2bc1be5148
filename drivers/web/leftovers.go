package web

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/adtest/adtest/internal/proc"
)

// ProfileLeftovers describes what is left of the given Chromium profile
// directories: live processes started with one of them and directories still
// on disk ("" when nothing is). A leak check calls it after Provider.Close;
// Close itself kills such processes and removes its profiles.
func ProfileLeftovers(dirs []string) string {
	var out []string
	for _, dir := range dirs {
		if dir == "" {
			continue
		}
		if pids := profileProcesses(dir); len(pids) > 0 {
			out = append(out, fmt.Sprintf("processes %v of %s", pids, dir))
		}
		if _, err := os.Stat(dir); err == nil {
			out = append(out, "directory "+dir)
		}
	}
	return strings.Join(out, "; ")
}

// What a run leaves in the temporary directory while it runs:
//
//	adtest-chromium-XXXX/           the profile (--user-data-dir)
//	  adtest-owner                  "<pid> <start time>" of the adtest process
//	  SingletonSocket -> /tmp/org.chromium.Chromium.YYYY/SingletonSocket
//	org.chromium.Chromium.YYYY/     Chromium's process-singleton socket
//
// Chromium removes its singleton directory when it shuts down cleanly; a
// killed Chromium (or a killed run) leaves both behind.
const (
	profilePattern   = "adtest-chromium-"
	singletonPattern = "org.chromium.Chromium."
	ownerFile        = "adtest-owner"
	// staleAge protects a directory being set up right now (created, its
	// owner file or socket not written yet).
	staleAge = time.Minute
)

// processStart is the start time of pid (clock ticks since boot, field 22
// of /proc/PID/stat), "" when there is no such process.
func processStart(pid int) string {
	p, ok := proc.Stat(pid)
	if !ok {
		return ""
	}
	return strconv.FormatUint(p.Start, 10)
}

// writeProcess writes "<pid> <start time>" of pid into path: with the start
// time the record names one process even after the pid is reused.
func writeProcess(path string, pid int) error {
	return os.WriteFile(path, []byte(fmt.Sprintf("%d %s\n", pid, processStart(pid))), 0o600)
}

// errNoRecord is readProcess's answer for an empty file (one being written).
var errNoRecord = errors.New("no process recorded")

// readProcess reads what writeProcess wrote (start is "" in an older
// record that has the pid only).
func readProcess(path string) (pid int, start string, err error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return 0, "", err
	}
	f := strings.Fields(string(raw))
	if len(f) == 0 {
		return 0, "", errNoRecord
	}
	if pid, err = strconv.Atoi(f[0]); err != nil {
		return 0, "", err
	}
	if len(f) > 1 {
		start = f[1]
	}
	return pid, start, nil
}

// writeOwner marks dir as owned by this process.
func writeOwner(dir string) error { return writeProcess(filepath.Join(dir, ownerFile), os.Getpid()) }

// ownerAlive reports whether the process that owns profile dir still runs:
// the adtest process named in its owner file, else the Chromium named by
// its SingletonLock ("host-pid"). A directory with neither is alive while
// it is young.
func ownerAlive(dir string, info os.FileInfo) bool {
	path := filepath.Join(dir, ownerFile)
	if pid, want, err := readProcess(path); err == nil {
		start := processStart(pid)
		return start != "" && (want == "" || want == start)
	} else if !errors.Is(err, os.ErrNotExist) && !errors.Is(err, errNoRecord) {
		return false // an owner file that names no process
	}
	if lock, err := os.Readlink(filepath.Join(dir, "SingletonLock")); err == nil {
		if i := strings.LastIndexByte(lock, '-'); i >= 0 {
			if pid, err := strconv.Atoi(lock[i+1:]); err == nil {
				host, _ := os.Hostname()
				return lock[:i] != host || processStart(pid) != ""
			}
		}
	}
	return time.Since(info.ModTime()) < staleAge
}

// singletonDir is the singleton directory a profile's SingletonSocket link
// points to, when it is one of Chromium's in tmp.
func singletonDir(profile, tmp string) string {
	target, err := os.Readlink(filepath.Join(profile, "SingletonSocket"))
	if err != nil {
		return ""
	}
	d := filepath.Dir(target)
	if filepath.Dir(d) != filepath.Clean(tmp) || !strings.HasPrefix(filepath.Base(d), singletonPattern) {
		return ""
	}
	return d
}

// removeProfile kills what still runs with profile dir and removes it
// together with its singleton directory.
func removeProfile(dir, tmp string) {
	single := singletonDir(dir, tmp)
	killProfileProcesses(dir)
	removeDir(dir)
	if single != "" {
		removeDir(single)
	}
}

// cleanStale removes what killed runs left in tmp: adtest profiles whose
// owner is gone (and the Chromium processes still using them), and
// Chromium singleton directories whose socket nobody listens on. It never
// touches the directories of a live run. It returns what it removed.
func cleanStale(tmp string) []string {
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return nil
	}
	var removed []string
	var singles []string
	inUse := map[string]bool{} // singleton directories of live profiles
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() {
			continue
		}
		path := filepath.Join(tmp, name)
		info, err := e.Info()
		if err != nil {
			continue
		}
		switch {
		case strings.HasPrefix(name, profilePattern):
			if !ownerAlive(path, info) {
				removeProfile(path, tmp)
				removed = append(removed, path)
			} else if d := singletonDir(path, tmp); d != "" {
				inUse[d] = true
			}
		case strings.HasPrefix(name, singletonPattern):
			if time.Since(info.ModTime()) >= staleAge {
				singles = append(singles, path)
			}
		}
	}
	if len(singles) > 0 {
		live := proc.UnixSockets()
		for _, d := range singles {
			sock := filepath.Join(d, "SingletonSocket")
			if live[sock] || inUse[d] {
				continue
			}
			if err := os.RemoveAll(d); err == nil {
				removed = append(removed, d)
			}
		}
	}
	return removed
}
