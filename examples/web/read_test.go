package web_test

import (
	"testing"

	"github.com/adtest/adtest/runner/suite"
)

// TestReadAsAPersonSees runs the TodoMVC counter page of issue 16 (cause
// 3) as a script: text only in child elements is the text of the element
// with the id, a control is found by the words it shows, and an element
// with visibility hidden is absent.
func TestReadAsAPersonSees(t *testing.T) {
	srv := regressServer(t)
	res := regressRun(t, srv, suite.Config{Workers: 1}, nil, discover(t, "todo-count.ad"))
	if f := failures(res); f != "" || res.Stats.Passed != 1 {
		t.Errorf("stats %+v:\n%s", res.Stats, f)
	}
}

// TestTextParts runs the page of words in inline elements of their own
// inside a line of text (reveal.js's fragments): text= finds such a word
// when it is shown, not before, and a click on it lands on its element.
func TestTextParts(t *testing.T) {
	srv := regressServer(t)
	res := regressRun(t, srv, suite.Config{Workers: 1}, nil, discover(t, "text-parts.ad"))
	if f := failures(res); f != "" || res.Stats.Passed != 1 {
		t.Errorf("stats %+v:\n%s", res.Stats, f)
	}
}
