package runner

import (
	"time"

	"github.com/adtest/adtest/drivers"
)

// Status of a test, an attempt or a step.
type Status string

const (
	StatusPassed   Status = "passed"
	StatusFailed   Status = "failed"
	StatusFlaky    Status = "flaky"
	StatusSkipped  Status = "skipped"
	StatusTimedOut Status = "timedOut"
	StatusNotRun   Status = "notRun"
)

// Result is the whole run: design.md's JSON result. Reporters render it.
type Result struct {
	Version    int          `json:"version"`
	StartedAt  time.Time    `json:"startedAt"`
	DurationMs int64        `json:"durationMs"`
	Stats      Stats        `json:"stats"`
	Tests      []TestResult `json:"tests"`
	// Shard is "I/N" when the run was one shard of several.
	Shard string `json:"shard,omitempty"`
	// Interrupted is true when SIGINT/SIGTERM stopped the run.
	Interrupted bool `json:"interrupted,omitempty"`
}

// Stats counts tests by final status.
type Stats struct {
	Total    int `json:"total"`
	Passed   int `json:"passed"`
	Failed   int `json:"failed"`
	Flaky    int `json:"flaky"`
	Skipped  int `json:"skipped"`
	TimedOut int `json:"timedOut"`
	NotRun   int `json:"notRun,omitempty"`
}

// TestResult is one script's outcome over all its attempts.
type TestResult struct {
	File       string          `json:"file"`
	Name       string          `json:"name"`
	Platform   string          `json:"platform"`
	Status     Status          `json:"status"`
	DurationMs int64           `json:"durationMs"`
	Attempts   []AttemptResult `json:"attempts"`
	// Reason explains a skipped or notRun test.
	Reason string `json:"reason,omitempty"`
}

// AttemptResult is one run of a script in a fresh session.
type AttemptResult struct {
	Status Status `json:"status"`
	// StartedAt is when the attempt began (the HTML report's timeline).
	StartedAt    time.Time    `json:"startedAt,omitzero"`
	DurationMs   int64        `json:"durationMs"`
	Worker       int          `json:"worker"`
	Device       string       `json:"device,omitempty"`
	Shard        string       `json:"shard,omitempty"`
	ArtifactsDir string       `json:"artifactsDir,omitempty"`
	Steps        []StepResult `json:"steps"`
	Error        *ErrorInfo   `json:"error,omitempty"`
	// Screenshot is the failure screenshot path, when one was taken.
	Screenshot string `json:"screenshot,omitempty"`
	// Trace is the attempt's trace directory, when one was kept (--trace).
	Trace    string   `json:"trace,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
	// Repair is the repair --repair suggested for a failed attempt.
	Repair *RepairReport `json:"repair,omitempty"`
	// Annotation is what --annotate wrote for a passed attempt.
	Annotation *AnnotationReport `json:"annotation,omitempty"`
}

// StepResult is one executed (or skipped) step.
type StepResult struct {
	Step    int    `json:"step"`
	Line    int    `json:"line"`
	Command string `json:"command"`
	// Action is the step's action text, variable values and secrets masked.
	Action     string `json:"action"`
	Status     Status `json:"status"`
	DurationMs int64  `json:"durationMs"`
	Warning    string `json:"warning,omitempty"`
}

// ErrorInfo is the structured error of ADR 0010: code, typed reason, message,
// hint and details. Step and Line locate the failing step (0 when the error is
// not tied to a step).
type ErrorInfo struct {
	Code    string         `json:"code"`
	Reason  drivers.Reason `json:"reason,omitempty"`
	Message string         `json:"message"`
	Hint    string         `json:"hint,omitempty"`
	Step    int            `json:"step,omitempty"`
	Line    int            `json:"line,omitempty"`
	Column  int            `json:"column,omitempty"`
	Command string         `json:"command,omitempty"`
	Details map[string]any `json:"details,omitempty"`
}

func (e *ErrorInfo) Error() string { return e.Message }

// CodeInfra is the code of infrastructure failures (the device's or the
// browser's fault, not the test's).
const CodeInfra = "INFRA"

// IsInfrastructure reports an error that is the device's or the browser's
// fault (no driver, a session that could not start, a hung teardown), not
// the test's: the one judgement suite, reporters and cmd share.
func (e *ErrorInfo) IsInfrastructure() bool {
	if e == nil {
		return false
	}
	switch e.Reason {
	case drivers.ReasonSessionStart, drivers.ReasonInfrastructure, drivers.ReasonTimeoutCleanupPending:
		return true
	}
	return e.Code == CodeInfra
}

// Output is what one leaf command returns.
type Output struct {
	// Text is the command's text output (snapshot tree, get text, ...).
	Text string
	// Data is the structured output (JSON mode).
	Data map[string]any
	// Warning is a non-fatal note (stale read-only ref, empty capture).
	Warning string
	// AtOnce marks a wait that found what it waited for at its first look:
	// it waited for nothing, and a trace gives it the picture it began on.
	AtOnce bool
}
