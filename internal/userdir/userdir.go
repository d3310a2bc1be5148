// Package userdir is adtest's one rule for its per-user directories, after
// the XDG Base Directory convention. Every kind looks at its environment
// variables in this order and takes the first that is set to an absolute
// path (a relative one is ignored, as the convention says):
//
//	Cache    $ADTEST_CACHE_DIR (as given), $XDG_CACHE_HOME/adtest, $HOME/.cache/adtest
//	State    $XDG_STATE_HOME/adtest, $HOME/.local/state/adtest
//	Runtime  $XDG_RUNTIME_DIR/adtest, then State's order
//
// HOME is read from getenv first and then from the operating system (the
// home directory of the user running adtest), so that a command given an
// environment without HOME still finds what setup put in that user's cache.
// When none is usable: <tmp>/adtest-<uid> (Cache: its cache/ subdirectory).
// Cache holds what setup fetched (the Android snapshot helper, the TodoMVC
// apps); State what outlives a daemon (recorded scripts); Runtime the
// daemon's socket, lock and token. scripts/setup.sh spells the Cache order in
// shell.
package userdir

import (
	"os"
	"path/filepath"
	"strconv"
)

// Kind is a kind of per-user directory.
type Kind int

const (
	Cache Kind = iota
	State
	Runtime
)

// Dir is the kind's directory. getenv reads the environment (nil: the
// process's own).
func Dir(getenv func(string) string, k Kind) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	osHome, _ := os.UserHomeDir()
	return resolve(getenv, osHome, k)
}

// resolve is Dir with the operating system's home directory given.
func resolve(getenv func(string) string, osHome string, k Kind) string {
	abs := func(name string) string {
		if d := getenv(name); filepath.IsAbs(d) {
			return d
		}
		return ""
	}
	home := func() string {
		if h := abs("HOME"); h != "" {
			return h
		}
		if filepath.IsAbs(osHome) {
			return osHome
		}
		return ""
	}
	fallback := filepath.Join(os.TempDir(), "adtest-"+strconv.Itoa(os.Getuid()))
	switch k {
	case Cache:
		if d := getenv("ADTEST_CACHE_DIR"); d != "" {
			return d
		}
		if d := abs("XDG_CACHE_HOME"); d != "" {
			return filepath.Join(d, "adtest")
		}
		if h := home(); h != "" {
			return filepath.Join(h, ".cache", "adtest")
		}
		return filepath.Join(fallback, "cache")
	case Runtime:
		if d := abs("XDG_RUNTIME_DIR"); d != "" {
			return filepath.Join(d, "adtest")
		}
	}
	if d := abs("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "adtest")
	}
	if h := home(); h != "" {
		return filepath.Join(h, ".local", "state", "adtest")
	}
	return fallback
}
