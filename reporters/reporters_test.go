package reporters

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"
	"time"

	"github.com/sebdah/goldie/v2"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/runner"
)

// sample is a result with one test of every status.
func sample() *runner.Result {
	start := time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC)
	fail := func(line, step int, cmd, reason, msg string) *runner.ErrorInfo {
		return &runner.ErrorInfo{Code: "COMMAND_FAILED", Reason: drivers.Reason(reason), Message: msg, Hint: "take a snapshot and check the selector", Step: step, Line: line, Command: cmd}
	}
	return &runner.Result{
		Version: 1, StartedAt: start, DurationMs: 12345,
		Stats: runner.Stats{Total: 7, Passed: 1, Failed: 2, Flaky: 1, Skipped: 1, TimedOut: 1, NotRun: 1},
		Tests: []runner.TestResult{
			{File: "suite/login.ad", Name: "login", Platform: "web", Status: runner.StatusPassed, DurationMs: 1020,
				Attempts: []runner.AttemptResult{{Status: runner.StatusPassed, DurationMs: 1020, ArtifactsDir: "art/suite__login.ad/attempt-1",
					Steps: []runner.StepResult{
						{Step: 1, Line: 2, Command: "open", Action: `open "demo"`, Status: runner.StatusPassed, DurationMs: 300},
						{Step: 2, Line: 3, Command: "fill", Action: `fill "id=email" "***"`, Status: runner.StatusPassed, DurationMs: 20},
					}}}},
			{File: "suite/cart.ad", Name: "cart", Platform: "web", Status: runner.StatusFailed, DurationMs: 2500,
				Attempts: []runner.AttemptResult{
					{Status: runner.StatusFailed, DurationMs: 1200, ArtifactsDir: "art/suite__cart.ad/attempt-1", Screenshot: "art/suite__cart.ad/attempt-1/failure.png",
						Error: fail(7, 3, "click", "selector_not_found", "No element matches \"label=Buy\"\x01")},
					{Status: runner.StatusFailed, DurationMs: 1300, Worker: 1, ArtifactsDir: "art/suite__cart.ad/attempt-2", Screenshot: "art/suite__cart.ad/attempt-2/failure.png",
						Error: fail(7, 3, "click", "selector_not_found", "No element matches \"label=Buy\"\x01")},
				}},
			{File: "suite/flaky.ad", Name: "flaky", Platform: "web", Status: runner.StatusFlaky, DurationMs: 900,
				Attempts: []runner.AttemptResult{
					{Status: runner.StatusFailed, DurationMs: 400, ArtifactsDir: "art/suite__flaky.ad/attempt-1", Screenshot: "art/suite__flaky.ad/attempt-1/failure.png",
						Error: fail(4, 2, "wait", "timeout", "text \"Welcome\" did not appear")},
					{Status: runner.StatusPassed, DurationMs: 500, ArtifactsDir: "art/suite__flaky.ad/attempt-2"},
				}},
			{File: "suite/slow.ad", Name: "slow", Platform: "web", Status: runner.StatusTimedOut, DurationMs: 5000,
				Attempts: []runner.AttemptResult{{Status: runner.StatusTimedOut, DurationMs: 5000, Device: "emulator-5554", Shard: "1/2",
					Error: fail(9, 5, "wait", "timeout", "TIMEOUT after 5000ms")}}},
			{File: "suite/hung.ad", Name: "hung", Platform: "web", Status: runner.StatusFailed, DurationMs: 2000,
				Attempts: []runner.AttemptResult{{Status: runner.StatusFailed, DurationMs: 2000,
					Error: &runner.ErrorInfo{Code: "INFRA", Reason: "timeout_cleanup_pending", Message: "session teardown hung"}}}},
			{File: "nometa.ad", Name: "nometa", Status: runner.StatusSkipped, Reason: "missing platform metadata", Attempts: []runner.AttemptResult{}},
			{File: "suite/zz.ad", Name: "zz", Platform: "web", Status: runner.StatusNotRun, Reason: "interrupted", Attempts: []runner.AttemptResult{}},
		},
		Interrupted: true,
	}
}

func golden(t *testing.T) *goldie.Goldie {
	return goldie.New(t, goldie.WithFixtureDir("testdata"), goldie.WithNameSuffix(".golden"))
}

func TestRenderGolden(t *testing.T) {
	for _, tc := range []struct {
		name, reporter string
		color          bool
	}{
		{"summary", "console", false},
		{"summary-color", "console", true},
		{"result.json", "json", false},
		{"junit.xml", "junit", false},
		{"github", "github", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := Render(tc.reporter, &b, sample(), tc.color); err != nil {
				t.Fatal(err)
			}
			golden(t).Assert(t, tc.name, b.Bytes())
		})
	}
}

func TestConsoleStreaming(t *testing.T) {
	var b bytes.Buffer
	c := NewConsole(&b, false)
	r := sample()
	c.SuiteStarted(runner.SuiteStarted{Total: 7, Workers: 2, Shard: "1/2"})
	c.AttemptFinished(runner.AttemptFinished{Name: "flaky", Attempt: 1, Of: 3, Result: r.Tests[2].Attempts[0], WillRetry: true})
	for i, tr := range r.Tests {
		c.TestFinished(runner.TestFinished{Index: i + 1, Total: 7, Test: tr})
	}
	if err := c.Summary(r); err != nil {
		t.Fatal(err)
	}
	golden(t).Assert(t, "console", b.Bytes())
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if last := lines[len(lines)-1]; last != "1 passed, 2 failed, 1 flaky, 1 skipped, 1 timed out" {
		t.Errorf("last line = %q", last)
	}
}

func TestSummaryLastLine(t *testing.T) {
	for _, tc := range []struct {
		name  string
		stats runner.Stats
		want  string
	}{
		{"only passed and failed", runner.Stats{Passed: 3}, "3 passed, 0 failed"},
		{"extras when any is non-zero", runner.Stats{Passed: 3, Failed: 1, Skipped: 2}, "3 passed, 1 failed, 0 flaky, 2 skipped, 0 timed out"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			WriteSummary(&b, &runner.Result{Stats: tc.stats}, false)
			lines := strings.Split(strings.TrimSpace(b.String()), "\n")
			if got := lines[len(lines)-1]; got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// Surefire/Jenkins schema, declared independently of the writer's types.
type sfSuites struct {
	XMLName xml.Name   `xml:"testsuites"`
	Suites  []sfSuite  `xml:"testsuite"`
	Other   []xml.Attr `xml:",any,attr"`
}
type sfSuite struct {
	Name      string     `xml:"name,attr"`
	Tests     *int       `xml:"tests,attr"`
	Failures  *int       `xml:"failures,attr"`
	Errors    *int       `xml:"errors,attr"`
	Skipped   *int       `xml:"skipped,attr"`
	Time      *float64   `xml:"time,attr"`
	Timestamp string     `xml:"timestamp,attr"`
	Cases     []sfCase   `xml:"testcase"`
	Unknown   []xml.Name `xml:",any"`
}
type sfCase struct {
	Classname string    `xml:"classname,attr"`
	Name      string    `xml:"name,attr"`
	File      string    `xml:"file,attr"`
	Time      *float64  `xml:"time,attr"`
	Failure   []sfProb  `xml:"failure"`
	Error     []sfProb  `xml:"error"`
	Skipped   []sfProb  `xml:"skipped"`
	Flaky     []sfRerun `xml:"flakyFailure"`
	Rerun     []sfRerun `xml:"rerunFailure"`
	SystemOut []string  `xml:"system-out"`
	Unknown   []struct {
		XMLName xml.Name
	} `xml:",any"`
}
type sfProb struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Body    string `xml:",chardata"`
}
type sfRerun struct {
	Message    string `xml:"message,attr"`
	Type       string `xml:"type,attr"`
	StackTrace string `xml:"stackTrace"`
	SystemOut  string `xml:"system-out"`
}

func TestJUnitSchema(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJUnit(&b, sample()); err != nil {
		t.Fatal(err)
	}
	if bytes.ContainsRune(b.Bytes(), 0x01) {
		t.Fatal("XML contains a character XML 1.0 forbids")
	}
	var doc sfSuites
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("not well-formed: %v", err)
	}
	if len(doc.Suites) != 1 {
		t.Fatalf("%d testsuites", len(doc.Suites))
	}
	s := doc.Suites[0]
	if s.Tests == nil || s.Failures == nil || s.Errors == nil || s.Skipped == nil || s.Time == nil || s.Timestamp == "" || s.Name == "" {
		t.Fatalf("testsuite lacks attributes: %+v", s)
	}
	if *s.Tests != 7 || *s.Failures != 2 || *s.Errors != 1 || *s.Skipped != 2 || *s.Time != 12.345 || s.Timestamp != "2026-01-02T10:00:00" {
		t.Errorf("counts tests=%d failures=%d errors=%d skipped=%d time=%v ts=%s", *s.Tests, *s.Failures, *s.Errors, *s.Skipped, *s.Time, s.Timestamp)
	}
	type shape struct {
		classname, name, file             string
		failure, errs, skipped, flaky, rr int
	}
	want := []shape{
		{"suite", "login", "suite/login.ad", 0, 0, 0, 0, 0},
		{"suite", "cart", "suite/cart.ad", 1, 0, 0, 0, 1},
		{"suite", "flaky", "suite/flaky.ad", 0, 0, 0, 1, 0},
		{"suite", "slow", "suite/slow.ad", 1, 0, 0, 0, 0},
		{"suite", "hung", "suite/hung.ad", 0, 1, 0, 0, 0},
		{"adtest", "nometa", "nometa.ad", 0, 0, 1, 0, 0},
		{"suite", "zz", "suite/zz.ad", 0, 0, 1, 0, 0},
	}
	if len(s.Cases) != len(want) {
		t.Fatalf("%d testcases", len(s.Cases))
	}
	for i, c := range s.Cases {
		got := shape{c.Classname, c.Name, c.File, len(c.Failure), len(c.Error), len(c.Skipped), len(c.Flaky), len(c.Rerun)}
		if got != want[i] {
			t.Errorf("testcase %d = %+v, want %+v", i, got, want[i])
		}
		if c.Time == nil {
			t.Errorf("testcase %d has no time", i)
		}
		if len(c.Unknown) > 0 {
			t.Errorf("testcase %d has elements Jenkins does not know: %v", i, c.Unknown)
		}
		if len(c.SystemOut) != 1 {
			t.Errorf("testcase %d has %d system-out", i, len(c.SystemOut))
		}
	}
	cart := s.Cases[1]
	if f := cart.Failure[0]; f.Type != "selector_not_found" || f.Message != "No element matches \"label=Buy\"" || !strings.HasPrefix(f.Body, "suite/cart.ad:7: step 3 click:") {
		t.Errorf("failure = %+v", f)
	}
	if r := cart.Rerun[0]; r.Type != "selector_not_found" || !strings.HasPrefix(r.StackTrace, "suite/cart.ad:7:") || !strings.Contains(r.SystemOut, "[[ATTACHMENT|art/suite__cart.ad/attempt-1/failure.png]]") {
		t.Errorf("rerunFailure = %+v", r)
	}
	if !strings.Contains(cart.SystemOut[0], "[[ATTACHMENT|art/suite__cart.ad/attempt-2/failure.png]]") {
		t.Errorf("system-out lacks the attachment: %q", cart.SystemOut[0])
	}
	fl := s.Cases[2]
	if f := fl.Flaky[0]; f.Type != "timeout" || f.Message != "text \"Welcome\" did not appear" || !strings.Contains(fl.SystemOut[0], "flaky: true") {
		t.Errorf("flakyFailure = %+v / %q", f, fl.SystemOut[0])
	}
	if !strings.Contains(s.Cases[3].SystemOut[0], "device: emulator-5554\nshard: 1/2\n") {
		t.Errorf("system-out of slow = %q", s.Cases[3].SystemOut[0])
	}
}

func TestXMLSafe(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain\ttext\n", "plain\ttext\n"},
		{"a\x00b\x1bc\x7f", "abc\x7f"},
		{"bad \xff utf8", "bad  utf8"},
		{"ok \uFFFD é", "ok \uFFFD é"},
		{"\uFFFE\uFFFF", ""},
	} {
		if got := xmlSafe(tc.in); got != tc.want {
			t.Errorf("xmlSafe(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestParseSpec(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"console", "console:"},
		{"json=out/r.json", "json:out/r.json"},
		{"json", "json:"},
		{"junit=r.xml", "junit:r.xml"},
		{"junit", "reporter junit needs a path: --reporter junit=PATH"},
		{"junti=r.xml", `unknown reporter "junti" (known: console, json, junit, github, html)`},
	} {
		s, err := ParseSpec(tc.in)
		got := s.Name + ":" + s.Path
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("ParseSpec(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestFormatDuration(t *testing.T) {
	for ms, want := range map[int64]string{0: "0s", 500: "0.5s", 1: "0.001s", 1020: "1.02s", 12345: "12.3s"} {
		if got := FormatDuration(ms); got != want {
			t.Errorf("FormatDuration(%d) = %s, want %s", ms, got, want)
		}
	}
}

func TestEscapeControl(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, control, text string }{
		{"suite/a.ad", "suite/a.ad", "suite/a.ad"},
		{"évil ✓", "évil ✓", "évil ✓"},
		{"e\x1b]0;x\a.ad", `e\x1b]0;x\x07.ad`, `e\x1b]0;x\x07.ad`},
		{"a\nb\tc", `a\x0ab\x09c`, "a\nb\tc"},
		{"c1 \u009b31m del \x7f", `c1 \u009b31m del \x7f`, `c1 \u009b31m del \x7f`},
		{"bad \x9b byte", `bad \x9b byte`, `bad \x9b byte`},
	} {
		if got := EscapeControl(tc.in); got != tc.control {
			t.Errorf("EscapeControl(%q) = %q, want %q", tc.in, got, tc.control)
		}
		if got := EscapeText(tc.in); got != tc.text {
			t.Errorf("EscapeText(%q) = %q, want %q", tc.in, got, tc.text)
		}
	}
}
