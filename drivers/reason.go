package drivers

// Reason is the typed reason of a failure (ADR 0010): the second half of an
// error's identity after its code. Its string is the wire value: the JSON
// result, the daemon protocol, report.js and agents read it, so a constant's
// value never changes once released.
//
// Every reason adtest produces is declared here, in the one package that
// drivers, the runner, the daemon, the suite, the recorder and the reporters
// all import: code compares and assigns these constants, never string
// literals (runner's TestReasonLiteralGate holds that for runner/ and the
// daemon).
type Reason string

// Target guards a driver reports (TargetError) before any side effect. A
// selector target failing one of them is resolved again and retried for the
// wait timeout (mutate); a ref target fails with it.
const (
	ReasonTargetStale        Reason = "target_stale"       // the element left the page (re-rendered, navigated)
	ReasonTargetNotVisible   Reason = "target_not_visible" // hidden, zero size, or cannot be scrolled into view
	ReasonTargetCovered      Reason = "target_covered"     // another element receives the press at its point
	ReasonTargetDisabled     Reason = "target_disabled"    // disabled (attribute or aria-disabled)
	ReasonTargetNotEditable  Reason = "target_not_editable"
	ReasonTargetUnstable     Reason = "target_unstable" // its box kept changing (an animation that does not end)
	ReasonTargetNotFocusable Reason = "target_not_focusable"
	ReasonTargetNotFound     Reason = "target_not_found"
	ReasonOptionNotFound     Reason = "option_not_found" // a select has no such option
	ReasonFillMismatch       Reason = "fill_mismatch"    // the field did not take the value
	ReasonNavigationFailed   Reason = "navigation_failed"
	ReasonAlertOpen          Reason = "alert_open" // a dialog blocks the page
	ReasonNoHistory          Reason = "no_history" // back without a previous page
)

// Failures of a step in the runner.
const (
	ReasonInvalidArgs          Reason = "invalid_args"
	ReasonUnknownCommand       Reason = "unknown_command"
	ReasonUnsupportedOperation Reason = "unsupported_operation"
	ReasonUnsupportedSetting   Reason = "unsupported_setting"
	ReasonCommandFailed        Reason = "command_failed" // a driver error without a reason of its own
	ReasonSessionClosed        Reason = "session_closed"
	ReasonTimeout              Reason = "timeout"      // the test's time budget ran out
	ReasonCancelled            Reason = "cancelled"    // the run or the command was interrupted
	ReasonStepTimeout          Reason = "step_timeout" // a step outlived its own bound
	ReasonInvalidRef           Reason = "invalid_ref"
	ReasonSelectorNotFound     Reason = "selector_not_found"
	ReasonAmbiguousMatch       Reason = "ambiguous_match"
	ReasonCaptureSparse        Reason = "capture_sparse" // the capture held too little to resolve against
	ReasonScopeNotFound        Reason = "scope_not_found"
	ReasonPredicateFailed      Reason = "predicate_failed"
	ReasonWaitTargetAbsent     Reason = "wait_target_absent"
	ReasonWaitStableTimeout    Reason = "wait_stable_timeout"
	ReasonWaitTargetPresent    Reason = "wait_target_present" // wait --gone: it stayed
	// The divergence screen could not be captured (Divergence.Screen.Reason).
	ReasonCaptureUnavailable Reason = "capture_unavailable"
)

// Target binding: a step recorded with the identity of its target that the
// screen does not confirm (spec §5).
const (
	ReasonSelectorMiss                 Reason = "selector_miss"
	ReasonIdentityMismatch             Reason = "identity_mismatch"
	ReasonIdentityUnverifiable         Reason = "identity_unverifiable"
	ReasonWaitLandmarkIdentityMismatch Reason = "wait_landmark_identity_mismatch"
)

// Ref admission (ADR 0014), in the order they are checked.
const (
	ReasonRefFrameMissing               Reason = "ref_frame_missing"
	ReasonRefFrameExpired               Reason = "ref_frame_expired"
	ReasonRefGenerationMismatch         Reason = "ref_generation_mismatch"
	ReasonPlainRefRequiresCompleteFrame Reason = "plain_ref_requires_complete_frame"
	ReasonRefNotIssued                  Reason = "ref_not_issued"
	ReasonRefNotFound                   Reason = "ref_not_found"
)

// Infrastructure: the device's, the browser's or the daemon's fault, not the
// test's.
const (
	// A step failed because the device or browser went away (ErrInfrastructure).
	ReasonInfrastructure        Reason = "infrastructure"
	ReasonSessionStart          Reason = "session_start_failed"
	ReasonNoDriver              Reason = "no_driver"
	ReasonTimeoutCleanupPending Reason = "timeout_cleanup_pending"
	ReasonInterrupted           Reason = "interrupted" // the run was stopped by a signal
)

// The daemon and its client.
const (
	ReasonSessionLost       Reason = "session_lost"
	ReasonSessionNotFound   Reason = "session_not_found"
	ReasonSessionBusy       Reason = "session_busy"
	ReasonInvalidSession    Reason = "invalid_session_name"
	ReasonPlatformMismatch  Reason = "platform_mismatch"
	ReasonVersionMismatch   Reason = "version_mismatch"
	ReasonUnauthorized      Reason = "unauthorized"
	ReasonBadRequest        Reason = "bad_request"
	ReasonRequestTooLarge   Reason = "request_too_large"
	ReasonDaemonUnavailable Reason = "daemon_unavailable"
	ReasonShuttingDown      Reason = "daemon_shutting_down"
	ReasonADBServerMismatch Reason = "adb_server_mismatch"
)

// Recording a session into a script.
const (
	ReasonNotRecording            Reason = "not_recording"
	ReasonRecordingNotFirstOpen   Reason = "recording_not_first_open"
	ReasonRecordingUnavailable    Reason = "recording_unavailable"
	ReasonRecordingFailed         Reason = "recording_failed"
	ReasonRecordingAborted        Reason = "recording_aborted"
	ReasonUnrecordableStep        Reason = "unrecordable_step"
	ReasonDestinationGuardMissing Reason = "destination_guard_missing"
	ReasonScriptTargetExists      Reason = "script_target_exists"
	ReasonScriptTargetIsDirectory Reason = "script_target_is_directory"
	ReasonScriptTargetUnwritable  Reason = "script_target_unwritable"
	ReasonScriptWriteFailed       Reason = "script_write_failed"
)
