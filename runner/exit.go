package runner

import "github.com/adtest/adtest/drivers"

// Exit codes of every adtest command (design.md). The rules that map a
// failure to one are below and nowhere else: `run` (Result.Exit), the
// interactive commands and the daemon (ErrorInfo.Exit, Unavailable) share
// them, as k6's errext gives an error its exit code.
const (
	ExitOK          = 0
	ExitFailed      = 1
	ExitUsage       = 2
	ExitInfra       = 3
	ExitInterrupted = 130
)

// Unavailable reports a failure that means the browser, the device, the
// session's helper or the daemon is not there (a session that could not
// start, one lost mid-test or mid-command, a daemon that does not answer,
// is shutting down or is of another build): exit code 3, and the daemon
// closes the session it was in.
func (e *ErrorInfo) Unavailable() bool {
	if e == nil {
		return false
	}
	switch e.Reason {
	case drivers.ReasonSessionStart, drivers.ReasonInfrastructure, drivers.ReasonSessionLost,
		drivers.ReasonDaemonUnavailable, drivers.ReasonVersionMismatch, drivers.ReasonShuttingDown:
		return true
	}
	return e.Code == CodeDeviceNotFound
}

// Exit is the exit code of a command that ended with e: 0 without an error,
// 3 when it is Unavailable, 130 when it was cancelled, 2 for a usage error
// (invalid arguments), 1 for any other failure.
func (e *ErrorInfo) Exit() int {
	switch {
	case e == nil:
		return ExitOK
	case e.Unavailable():
		return ExitInfra
	case e.Reason == drivers.ReasonCancelled:
		return ExitInterrupted
	case e.Code == CodeInvalidArgs:
		return ExitUsage
	}
	return ExitFailed
}

// Exit is the exit code of a whole run: 130 when it was interrupted, 3 when
// a test's last attempt ended with an error whose Exit is 3, 1 when a test
// failed or timed out (or was flaky, with failOnFlaky), else 0. Any other
// error of an attempt (a step's invalid argument, say) is that test failing.
func (r *Result) Exit(failOnFlaky bool) int {
	if r.Interrupted {
		return ExitInterrupted
	}
	for _, t := range r.Tests {
		if n := len(t.Attempts); n > 0 && t.Attempts[n-1].Error.Exit() == ExitInfra {
			return ExitInfra
		}
	}
	if r.Stats.Failed+r.Stats.TimedOut > 0 || failOnFlaky && r.Stats.Flaky > 0 {
		return ExitFailed
	}
	return ExitOK
}
