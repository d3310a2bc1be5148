// Package webtest holds what tests outside drivers/web share to run the web
// driver against real Chromium: a recorder of the profiles a Provider starts
// and the leak check that must pass once the Provider is closed.
package webtest

import (
	"errors"
	"fmt"
	"regexp"
	"sync"

	"github.com/adtest/adtest/drivers/web"
)

// profileLog matches the Provider's "browser started (pid N, profile DIR,
// ...)" log line.
var profileLog = regexp.MustCompile(`profile (\S+),`)

// ProfileRecorder collects the Chromium profile directories a Provider logs.
// Pass its Logf as web.Options.Logf. Safe for concurrent use.
type ProfileRecorder struct {
	mu   sync.Mutex
	dirs []string
}

// Logf records the profile directory of a browser-start line and ignores
// every other line.
func (r *ProfileRecorder) Logf(format string, args ...any) {
	if m := profileLog.FindStringSubmatch(fmt.Sprintf(format, args...)); m != nil {
		r.mu.Lock()
		r.dirs = append(r.dirs, m[1])
		r.mu.Unlock()
	}
}

// ErrBlind is returned by Leaks when no profile was recorded, so the check
// could not see any browser.
var ErrBlind = errors.New("no browser profile in the provider's log: the leak check is blind")

// Leaks reports the processes or directories of the recorded profiles that
// are still there; call it after the Provider closed.
func (r *ProfileRecorder) Leaks() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.dirs) == 0 {
		return ErrBlind
	}
	if left := web.ProfileLeftovers(r.dirs); left != "" {
		return fmt.Errorf("leak after the provider closed: %s", left)
	}
	return nil
}
