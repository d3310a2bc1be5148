package runner

import (
	"context"
	"errors"
	"fmt"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
)

// Error codes (spec §7).
const (
	CodeInvalidArgs          = "INVALID_ARGS"
	CodeCommandFailed        = "COMMAND_FAILED"
	CodeUnsupportedOperation = "UNSUPPORTED_OPERATION"
	CodeSessionNotFound      = "SESSION_NOT_FOUND"
	CodeAmbiguousMatch       = "AMBIGUOUS_MATCH"
	CodeReplayDivergence     = "REPLAY_DIVERGENCE"
	CodeDeviceNotFound       = "DEVICE_NOT_FOUND"
	CodeUnknown              = "UNKNOWN"
)

// DefaultHint returns the per-code default hint (spec §7).
func DefaultHint(code string) string {
	switch code {
	case CodeInvalidArgs:
		return "Check command arguments and run --help for usage examples."
	case CodeCommandFailed:
		return "Retry with --debug and inspect the diagnostics log."
	case CodeUnsupportedOperation:
		return "This platform does not support the operation; use another platform or command."
	case CodeSessionNotFound:
		return "Run open first or pass an explicit device selector."
	case CodeAmbiguousMatch:
		return "Narrow the query: add role=, id= or a pinned candidate ref."
	case CodeReplayDivergence:
		return "Read details.divergence (screen/suggestions) for repair context, or rerun with --json for the full report."
	case CodeDeviceNotFound:
		return "Verify the device or browser is running and reachable."
	}
	return ""
}

func newErr(code string, reason drivers.Reason, format string, args ...any) *ErrorInfo {
	return &ErrorInfo{Code: code, Reason: reason, Message: fmt.Sprintf(format, args...), Hint: DefaultHint(code)}
}

func unsupported(command, platform string) *ErrorInfo {
	e := newErr(CodeUnsupportedOperation, drivers.ReasonUnsupportedOperation, "%s is not supported on %s", command, platform)
	e.Details = map[string]any{"command": command, "platform": platform}
	return e
}

// fromError converts any error of a leaf into an *ErrorInfo: lang errors keep
// their code; context ends become timeout/cancelled; driver target guards keep
// their typed reason; unsupported kinds become UNSUPPORTED_OPERATION.
func fromError(ctx context.Context, command, platform string, err error) *ErrorInfo {
	if err == nil {
		return nil
	}
	var ei *ErrorInfo
	if errors.As(err, &ei) {
		return ei
	}
	var le *lang.Error
	if errors.As(err, &le) {
		code := le.Code
		if code == "" {
			code = CodeInvalidArgs
		}
		hint := le.Hint
		if hint == "" {
			hint = DefaultHint(code)
		}
		return &ErrorInfo{Code: code, Reason: drivers.ReasonInvalidArgs, Message: le.Message, Hint: hint}
	}
	if ce := ctxError(ctx, err); ce != nil {
		return ce
	}
	var te *drivers.TargetError
	if errors.As(err, &te) {
		hint := te.Hint
		if hint == "" {
			hint = DefaultHint(CodeCommandFailed)
		}
		return &ErrorInfo{Code: CodeCommandFailed, Reason: te.Reason, Message: te.Message, Hint: hint}
	}
	if errors.Is(err, drivers.ErrUnsupported) {
		return unsupported(command, platform)
	}
	if errors.Is(err, drivers.ErrInfrastructure) {
		return &ErrorInfo{Code: CodeDeviceNotFound, Reason: drivers.ReasonInfrastructure, Message: err.Error(), Hint: DefaultHint(CodeDeviceNotFound)}
	}
	return &ErrorInfo{Code: CodeCommandFailed, Reason: drivers.ReasonCommandFailed, Message: err.Error(), Hint: DefaultHint(CodeCommandFailed)}
}

// ctxError maps a context end to reason timeout (deadline) or cancelled.
func ctxError(ctx context.Context, err error) *ErrorInfo {
	switch {
	case errors.Is(err, context.DeadlineExceeded) || (ctx.Err() != nil && errors.Is(context.Cause(ctx), context.DeadlineExceeded)):
		return &ErrorInfo{Code: CodeCommandFailed, Reason: drivers.ReasonTimeout, Message: "Timed out: the test's time budget ran out during this step", Hint: "Raise --timeout or the script's context timeout, or look for a step that waits on something that never appears."}
	case errors.Is(err, context.Canceled) || ctx.Err() != nil:
		return &ErrorInfo{Code: CodeCommandFailed, Reason: drivers.ReasonCancelled, Message: "Cancelled while this step was running", Hint: "The run was interrupted; rerun to finish."}
	}
	return nil
}
