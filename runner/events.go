package runner

import "time"

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

// SuiteListener receives suite events. StepStarted and StepFinished carry
// each step of each attempt (File, Name, Attempt and Worker set); a listener
// that does not show steps ignores them.
type SuiteListener interface {
	SuiteStarted(SuiteStarted)
	StepStarted(StepEvent)
	StepFinished(StepEvent)
	AttemptFinished(AttemptFinished)
	TestFinished(TestFinished)
}
