package components_test

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/adtest/adtest/examples/components"
	"github.com/adtest/adtest/examples/internal/suiterun"
	"github.com/adtest/adtest/examples/todomvc"
	"github.com/adtest/adtest/runner"
)

var (
	updateMatrix  = flag.Bool("update-matrix", false, "rewrite testdata/matrix.txt from this run of TestFlows")
	componentsAll = flag.Bool("components-all", false, "run every flow in TestFlows (make components), not only those expected to pass (make test)")
)

const expectations = "testdata/matrix.txt"

func readExpectations() (components.Matrix, error) {
	f, err := os.Open(expectations)
	if err != nil {
		return components.Matrix{}, err
	}
	defer f.Close()
	m, _, err := todomvc.ReadExpectations(filepath.ToSlash(expectations), f)
	return m, err
}

// runFlows runs the flow files given (paths under flows/) with two
// workers, as `adtest run -j 2` does, against the corpus served on loopback.
func runFlows(t *testing.T, roots map[string]string, files []string) *runner.Result {
	t.Helper()
	srv := httptest.NewServer(components.Handler(roots))
	defer srv.Close()
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return suiterun.Run(t, suiterun.Options{Name: "components", Workers: 2, Cwd: cwd, BaseURL: srv.URL}, suiterun.Discover(t, cwd, files...))
}

// TestFlows runs the flows of flows/ and compares each one's pass/fail with
// testdata/matrix.txt: a flow that starts failing, or starts passing, fails
// the test with the flow's cause. In the gate (make test) only the flows
// expected to pass run: a failing flow costs its waits' timeouts and says
// nothing the expectations do not; make components runs them all.
func TestFlows(t *testing.T) {
	roots, err := components.Roots(os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	names, _, err := components.Flows()
	if err != nil {
		t.Fatal(err)
	}
	want, err := readExpectations()
	if err != nil && !(*updateMatrix && errors.Is(err, fs.ErrNotExist)) {
		t.Fatalf("%v: regenerate with go test ./examples/components -run TestFlows -components-all -update-matrix", err)
	}
	var files []string
	for _, n := range names {
		if w, ok := want[n]; *componentsAll || *updateMatrix || !ok || w.Pass || w.Unknown || w.Flaky {
			files = append(files, filepath.Join("flows", filepath.FromSlash(n)+".ad"))
		}
	}
	start := time.Now()
	got := todomvc.FromResult(runFlows(t, roots, files))
	t.Logf("%d flows: %d passed in %s", len(got), got.Passed(), time.Since(start).Round(time.Second))

	if *updateMatrix {
		var b bytes.Buffer
		if err := components.WriteExpectations(&b, components.Next(want, got, names)); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(expectations, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", expectations)
		return
	}
	ran := components.Matrix{}
	for _, c := range want {
		if _, ok := got[c.Key()]; ok || *componentsAll {
			ran[c.Key()] = c
		}
	}
	for _, c := range got.Sorted() {
		if w, ok := want[c.Key()]; ok && (w.Unknown || w.Flaky) {
			t.Logf("%s: %s, now %s", c.Key(), map[bool]string{true: "flaky (" + w.Cause + ")", false: "not measured before"}[w.Flaky], map[bool]string{true: "pass", false: "fail: " + c.Cause}[c.Pass])
		}
	}
	diffs := todomvc.Diff(ran, got)
	for _, d := range diffs {
		t.Error(d)
	}
	if len(diffs) > 0 {
		t.Log(fmt.Sprintf("if the change is meant (a driver fix), regenerate: go test ./examples/components -run TestFlows -components-all -update-matrix (now %d of %d flows pass)", got.Passed(), len(got)))
	}
}
