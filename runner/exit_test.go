package runner

import (
	"testing"

	"github.com/adtest/adtest/drivers"
)

// One exit-code rule for a command's error: the interactive commands' and
// the daemon's (moved here from cmd's TestExitForError, cases unchanged).
func TestErrorExit(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		e    *ErrorInfo
		want int
	}{
		{nil, ExitOK},
		{&ErrorInfo{Code: CodeSessionNotFound, Reason: drivers.ReasonSessionLost}, ExitInfra},
		{&ErrorInfo{Code: CodeCommandFailed, Reason: drivers.ReasonDaemonUnavailable}, ExitInfra},
		{&ErrorInfo{Code: CodeCommandFailed, Reason: drivers.ReasonVersionMismatch}, ExitInfra},
		{&ErrorInfo{Code: CodeCommandFailed, Reason: drivers.ReasonShuttingDown}, ExitInfra},
		{&ErrorInfo{Code: CodeDeviceNotFound, Reason: drivers.ReasonInfrastructure}, ExitInfra},
		{&ErrorInfo{Code: CodeInfra, Reason: drivers.ReasonSessionStart}, ExitInfra},
		{&ErrorInfo{Code: CodeCommandFailed, Reason: drivers.ReasonCancelled}, ExitInterrupted},
		{&ErrorInfo{Code: CodeInvalidArgs, Reason: drivers.ReasonInvalidArgs}, ExitUsage},
		{&ErrorInfo{Code: CodeCommandFailed, Reason: drivers.ReasonRefFrameExpired}, ExitFailed},
		{&ErrorInfo{Code: CodeSessionNotFound, Reason: drivers.ReasonSessionNotFound}, ExitFailed},
		{&ErrorInfo{Code: CodeInfra, Reason: drivers.ReasonTimeoutCleanupPending}, ExitFailed},
	} {
		if got := tc.e.Exit(); got != tc.want {
			t.Errorf("%+v: exit %d, want %d", tc.e, got, tc.want)
		}
	}
}

// A run's exit code: the same rule for each test's last error, where only
// an unavailable browser or device escalates a failed test to 3.
func TestResultExit(t *testing.T) {
	t.Parallel()
	failed := func(e *ErrorInfo) TestResult {
		return TestResult{Status: StatusFailed, Attempts: []AttemptResult{{Status: StatusFailed, Error: e}}}
	}
	for _, tc := range []struct {
		name        string
		res         Result
		failOnFlaky bool
		want        int
	}{
		{"passed", Result{Stats: Stats{Total: 1, Passed: 1}}, false, ExitOK},
		{"flaky passes", Result{Stats: Stats{Total: 1, Flaky: 1}}, false, ExitOK},
		{"flaky fails on request", Result{Stats: Stats{Total: 1, Flaky: 1}}, true, ExitFailed},
		{"failed", Result{Stats: Stats{Total: 1, Failed: 1}, Tests: []TestResult{failed(&ErrorInfo{Code: CodeInvalidArgs, Reason: drivers.ReasonInvalidArgs})}}, false, ExitFailed},
		{"timed out", Result{Stats: Stats{Total: 1, TimedOut: 1}}, false, ExitFailed},
		{"session did not start", Result{Stats: Stats{Total: 1, Failed: 1}, Tests: []TestResult{failed(&ErrorInfo{Code: CodeInfra, Reason: drivers.ReasonSessionStart})}}, false, ExitInfra},
		{"device lost", Result{Stats: Stats{Total: 1, Failed: 1}, Tests: []TestResult{failed(&ErrorInfo{Code: CodeDeviceNotFound, Reason: drivers.ReasonInfrastructure})}}, false, ExitInfra},
		{"cleanup pending is a failure", Result{Stats: Stats{Total: 1, Failed: 1}, Tests: []TestResult{failed(&ErrorInfo{Code: CodeInfra, Reason: drivers.ReasonTimeoutCleanupPending})}}, false, ExitFailed},
		{"interrupted", Result{Interrupted: true, Stats: Stats{Total: 1, Failed: 1}}, false, ExitInterrupted},
	} {
		if got := tc.res.Exit(tc.failOnFlaky); got != tc.want {
			t.Errorf("%s: exit %d, want %d", tc.name, got, tc.want)
		}
	}
}
