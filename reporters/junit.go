package reporters

import (
	"encoding/xml"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/adtest/adtest/runner"
)

// The JUnit XML shape Jenkins, GitLab and GitHub test-report actions read,
// with Maven Surefire's rerun elements: <flakyFailure> for failed attempts
// of a test that passed on retry, <rerunFailure> for the earlier attempts of
// a test that failed every time.

// JUnitSuites is <testsuites>.
type JUnitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []JUnitSuite `xml:"testsuite"`
}

// JUnitSuite is <testsuite>.
type JUnitSuite struct {
	Name      string      `xml:"name,attr"`
	Tests     int         `xml:"tests,attr"`
	Failures  int         `xml:"failures,attr"`
	Errors    int         `xml:"errors,attr"`
	Skipped   int         `xml:"skipped,attr"`
	Time      string      `xml:"time,attr"`
	Timestamp string      `xml:"timestamp,attr"`
	Cases     []JUnitCase `xml:"testcase"`
}

// JUnitCase is <testcase>.
type JUnitCase struct {
	Classname string        `xml:"classname,attr"`
	Name      string        `xml:"name,attr"`
	File      string        `xml:"file,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *JUnitProblem `xml:"failure"`
	Error     *JUnitProblem `xml:"error"`
	Skipped   *JUnitSkipped `xml:"skipped"`
	Flaky     []JUnitRerun  `xml:"flakyFailure"`
	Rerun     []JUnitRerun  `xml:"rerunFailure"`
	SystemOut *CData        `xml:"system-out"`
}

// CData is element text written as CDATA, so multi-line text stays readable.
type CData struct {
	Text string `xml:",cdata"`
}

func cdata(s string) *CData {
	if s == "" {
		return nil
	}
	return &CData{Text: s}
}

// JUnitProblem is <failure> or <error>.
type JUnitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Body    string `xml:",cdata"`
}

// JUnitSkipped is <skipped>.
type JUnitSkipped struct {
	Message string `xml:"message,attr,omitempty"`
}

// JUnitRerun is Surefire's <flakyFailure>/<rerunFailure>.
type JUnitRerun struct {
	Message    string `xml:"message,attr"`
	Type       string `xml:"type,attr"`
	StackTrace *CData `xml:"stackTrace"`
	SystemOut  *CData `xml:"system-out"`
}

// WriteJUnit writes r as JUnit XML.
func WriteJUnit(w io.Writer, r *runner.Result) error {
	suite := JUnitSuite{
		Name:      "adtest",
		Time:      seconds(r.DurationMs),
		Timestamp: r.StartedAt.UTC().Format("2006-01-02T15:04:05"),
		Cases:     []JUnitCase{},
	}
	for _, t := range r.Tests {
		c := junitCase(t)
		suite.Tests++
		switch {
		case c.Error != nil:
			suite.Errors++
		case c.Failure != nil:
			suite.Failures++
		case c.Skipped != nil:
			suite.Skipped++
		}
		suite.Cases = append(suite.Cases, c)
	}
	all := JUnitSuites{
		Name: "adtest", Tests: suite.Tests, Failures: suite.Failures, Errors: suite.Errors,
		Skipped: suite.Skipped, Time: suite.Time, Suites: []JUnitSuite{suite},
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(all); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func junitCase(t runner.TestResult) JUnitCase {
	dir := path.Dir(t.File)
	classname := "adtest"
	if dir != "." && dir != "/" {
		classname = strings.ReplaceAll(strings.Trim(dir, "/"), "/", ".")
	}
	c := JUnitCase{
		Classname: xmlSafe(classname),
		Name:      xmlSafe(t.Name),
		File:      xmlSafe(t.File),
		Time:      seconds(t.DurationMs),
	}
	last := len(t.Attempts) - 1
	switch t.Status {
	case runner.StatusSkipped, runner.StatusNotRun:
		msg := t.Reason
		if t.Status == runner.StatusNotRun && msg == "" {
			msg = "not run"
		}
		c.Skipped = &JUnitSkipped{Message: xmlSafe(msg)}
	case runner.StatusFlaky:
		for _, a := range t.Attempts[:last] {
			c.Flaky = append(c.Flaky, rerun(t, a))
		}
	case runner.StatusFailed, runner.StatusTimedOut:
		for _, a := range t.Attempts[:max(last, 0)] {
			c.Rerun = append(c.Rerun, rerun(t, a))
		}
		var e *runner.ErrorInfo
		if last >= 0 {
			e = t.Attempts[last].Error
		}
		p := &JUnitProblem{Message: "failed", Type: string(t.Status)}
		if e != nil {
			p.Message = xmlSafe(e.Message)
			p.Type = xmlSafe(reasonOf(e))
			p.Body = xmlSafe(failureBody(t.File, e, t.Attempts[last]))
		}
		if infrastructure(e) {
			c.Error = p
		} else {
			c.Failure = p
		}
	}
	c.SystemOut = cdata(xmlSafe(systemOut(t)))
	return c
}

func rerun(t runner.TestResult, a runner.AttemptResult) JUnitRerun {
	e := a.Error
	if e == nil {
		e = &runner.ErrorInfo{Message: string(a.Status)}
	}
	out := fmt.Sprintf("attempt status: %s\nduration: %s\nworker: %d\n", a.Status, FormatDuration(a.DurationMs), a.Worker)
	if a.ArtifactsDir != "" {
		out += "artifacts: " + a.ArtifactsDir + "\n"
	}
	if a.Screenshot != "" {
		out += "[[ATTACHMENT|" + a.Screenshot + "]]\n"
	}
	return JUnitRerun{
		Message:    xmlSafe(e.Message),
		Type:       xmlSafe(reasonOf(e)),
		StackTrace: cdata(xmlSafe(failureBody(t.File, e, a))),
		SystemOut:  cdata(xmlSafe(out)),
	}
}

func reasonOf(e *runner.ErrorInfo) string {
	if e.Reason != "" {
		return string(e.Reason)
	}
	return e.Code
}

func failureBody(file string, e *runner.ErrorInfo, a runner.AttemptResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", location(file, e), describe(e))
	writeField(&b, "code", e.Code)
	writeField(&b, "hint", e.Hint)
	writeField(&b, "artifacts", a.ArtifactsDir)
	return b.String()
}

// writeField writes the line "key: value" to b unless value is empty.
func writeField(b *strings.Builder, key, value string) {
	if value != "" {
		fmt.Fprintf(b, "%s: %s\n", key, value)
	}
}

func systemOut(t runner.TestResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "status: %s\nattempts: %d\n", t.Status, len(t.Attempts))
	if t.Status == runner.StatusFlaky {
		b.WriteString("flaky: true\n")
	}
	writeField(&b, "reason", t.Reason)
	if n := len(t.Attempts); n > 0 {
		a := t.Attempts[n-1]
		fmt.Fprintf(&b, "worker: %d\n", a.Worker)
		writeField(&b, "device", a.Device)
		writeField(&b, "shard", a.Shard)
		writeField(&b, "artifacts", a.ArtifactsDir)
		for _, w := range a.Warnings {
			fmt.Fprintf(&b, "warning: %s\n", w)
		}
		if a.Screenshot != "" {
			fmt.Fprintf(&b, "[[ATTACHMENT|%s]]\n", a.Screenshot)
		}
		b.WriteString(junitRepair(a.Repair))
	}
	return b.String()
}

func seconds(ms int64) string { return fmt.Sprintf("%.3f", float64(ms)/1000) }

// xmlSafe drops the characters XML 1.0 forbids (control characters other
// than tab, newline and carriage return; surrogates; U+FFFE/U+FFFF).
func xmlSafe(s string) string {
	ok := func(r rune) bool {
		return r == 0x9 || r == 0xA || r == 0xD ||
			(r >= 0x20 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0xFFFD) || (r >= 0x10000 && r <= 0x10FFFF)
	}
	clean := true
	for _, r := range s {
		if !ok(r) || r == 0xFFFD {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	return strings.Map(func(r rune) rune {
		if !ok(r) {
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, ""))
}
