package runner

import (
	"testing"

	"github.com/adtest/adtest/drivers"
)

// One vocabulary of infrastructure failures, read by suite, reporters and cmd.
func TestInfrastructureVocabulary(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		e                  *ErrorInfo
		infra, unavailable bool
	}{
		{nil, false, false},
		{&ErrorInfo{Code: CodeCommandFailed, Reason: "selector_not_found"}, false, false},
		{&ErrorInfo{Code: CodeInfra, Reason: "no_driver"}, true, false},
		{&ErrorInfo{Code: CodeInfra, Reason: drivers.ReasonSessionStart}, true, true},
		{&ErrorInfo{Code: CodeDeviceNotFound, Reason: drivers.ReasonInfrastructure}, true, true},
		{&ErrorInfo{Code: CodeReplayDivergence, Reason: drivers.ReasonInfrastructure}, true, true},
		{&ErrorInfo{Code: CodeInfra, Reason: drivers.ReasonTimeoutCleanupPending}, true, false},
	} {
		if got := tc.e.IsInfrastructure(); got != tc.infra {
			t.Errorf("%+v: IsInfrastructure = %v, want %v", tc.e, got, tc.infra)
		}
		if got := tc.e.Unavailable(); got != tc.unavailable {
			t.Errorf("%+v: Unavailable = %v, want %v", tc.e, got, tc.unavailable)
		}
	}
}
