package runner

import (
	"time"

	"github.com/adtest/adtest/drivers"
)

// Suite events: the suite runner (runner/suite) emits them while a run is in
// progress; reporters that stream (the console) handle them, and every
// reporter renders the final Result. Handlers are called from several worker
// goroutines; the suite runner serialises the calls, so a handler needs no
// locking of its own.

// SuiteStarted is emitted once, after discovery and before the first test.
type SuiteStarted struct {
	StartedAt time.Time
	// Total counts every discovered entry, skipped ones included.
	Total   int
	Workers int
	Shard   string
}

// AttemptFinished is emitted after every attempt of a test, including the
// attempts that will be retried.
type AttemptFinished struct {
	File    string
	Name    string
	Attempt int // 1-based
	Of      int // maximum attempts for this test
	Result  AttemptResult
	// WillRetry is true when another attempt follows.
	WillRetry bool
}

// TestFinished is emitted once per test with its final status.
type TestFinished struct {
	// Index is the 1-based count of finished tests (k of [k/N]).
	Index int
	Total int
	Test  TestResult
}

// Observer follows a run as it happens: the one listener interface of
// replays, the suite runner and reporters. A replay emits the step events
// only (before dispatch, and after with Status, Duration and Error); the
// suite runner also emits its own, and its step events carry File, Name,
// Attempt and Worker. A handler that does not show steps ignores them; one
// that follows steps only embeds StepsOnly.
type Observer interface {
	SuiteStarted(SuiteStarted)
	StepStarted(StepEvent)
	StepFinished(StepEvent)
	AttemptFinished(AttemptFinished)
	TestFinished(TestFinished)
}

// StepsOnly is embedded by an Observer that follows steps only: it ignores
// the suite's own events.
type StepsOnly struct{}

func (StepsOnly) SuiteStarted(SuiteStarted)       {}
func (StepsOnly) AttemptFinished(AttemptFinished) {}
func (StepsOnly) TestFinished(TestFinished)       {}

// StepEvent is one step starting or finishing, derived from the step's
// record (JournalEntry.Event); the suite runner fills File, Name, Attempt
// and Worker. Action is the action text with variable values and secrets
// masked (as written when the step starts, as bound when it finishes).
type StepEvent struct {
	File, Name        string
	Attempt, Worker   int
	Step, Total, Line int
	Command           string
	Action            string
	Status            Status // "" when the step starts (skipped steps: StatusSkipped)
	Duration          time.Duration
	Error             *ErrorInfo
	Time              time.Time
	// Events are the driver's events of a finished step (drivers.Event).
	Events []drivers.Event
}
