package daemon

import (
	"fmt"
	"net"
	"strings"

	"github.com/adtest/adtest/runner"

	"github.com/adtest/adtest/drivers"
)

// The daemon opens its Android provider once, on the adb server it was
// started with; a later command whose environment names another server
// (ADB_SERVER_SOCKET, ANDROID_ADB_SERVER_PORT) is refused with both values
// rather than silently given a device of the daemon's server, and before any
// adb server is started on the daemon's (a refused attempt leaves no adb
// server behind).

// adbMismatch is the refusal of an Android open whose client names the adb
// server want, when this daemon uses another; nil when they agree or the
// client names none.
func (s *Server) adbMismatch(want string) *runner.ErrorInfo {
	have := s.cfg.ADBServer
	if want == "" || have == "" || sameHostPort(want, have) {
		return nil
	}
	from := s.cfg.ADBServerFrom
	if from == "" {
		from = "its start"
	}
	return &runner.ErrorInfo{Code: runner.CodeInvalidArgs, Reason: drivers.ReasonADBServerMismatch,
		Message: fmt.Sprintf("The warm daemon's Android sessions use the adb server at %s (%s, when the daemon started); this command's environment names %s", have, from, want),
		Hint:    "Run `adtest daemon stop` and retry (the next command starts a daemon with your environment), or unset ADB_SERVER_SOCKET / ANDROID_ADB_SERVER_PORT to use the daemon's server.",
		Details: map[string]any{"daemonADBServer": have, "requestedADBServer": want}}
}

// sameHostPort compares HOST:PORT addresses, localhost and 127.0.0.1 alike.
func sameHostPort(a, b string) bool {
	norm := func(x string) string {
		h, p, err := net.SplitHostPort(x)
		if err != nil {
			return x
		}
		if strings.EqualFold(h, "localhost") || h == "" {
			h = "127.0.0.1"
		}
		return net.JoinHostPort(h, p)
	}
	return norm(a) == norm(b)
}

// article is "an" before a vowel sound ("an android session"), else "a".
func article(word string) string {
	if word != "" && strings.ContainsRune("aeiouAEIOU", rune(word[0])) {
		return "an"
	}
	return "a"
}
