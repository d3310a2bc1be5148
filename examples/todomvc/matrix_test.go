package todomvc_test

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/adtest/adtest/examples/internal/suiterun"
	"github.com/adtest/adtest/examples/todomvc"
	"github.com/adtest/adtest/runner"
)

var (
	updateMatrix = flag.Bool("update-matrix", false, "rewrite testdata/matrix.txt from this run of TestMatrix")
	matrixOnly   = flag.String("matrix-only", "", "run TestMatrix on these comma-separated frameworks only (and rewrite only their cells)")
	matrixAll    = flag.Bool("matrix-all", false, "run TestMatrix on every complete framework (make todomvc), not only the gate's (todomvc.GateFrameworks)")
)

const expectations = "testdata/matrix.txt"

// runMatrix runs the suite in dir against the package at root, served on
// loopback, with two workers as `adtest run -j 2` does.
func runMatrix(t *testing.T, root, dir string) *runner.Result {
	t.Helper()
	srv := httptest.NewServer(todomvc.Handler(root))
	defer srv.Close()
	return suiterun.Run(t, suiterun.Options{Name: "todomvc", Workers: 2, Cwd: dir, BaseURL: srv.URL}, suiterun.Discover(t, dir, dir))
}

func readExpectations() (todomvc.Matrix, []todomvc.Excluded, error) {
	f, err := os.Open(expectations)
	if err != nil {
		return todomvc.Matrix{}, nil, err
	}
	defer f.Close()
	return todomvc.ReadExpectations(filepath.ToSlash(expectations), f)
}

// TestMatrix runs the nine flows on every complete TodoMVC app and compares
// each cell's pass/fail with testdata/matrix.txt: a cell that starts
// failing, or starts passing, fails the test with the cell's cause.
func TestMatrix(t *testing.T) {
	root, err := todomvc.Root(os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	all, excluded, err := todomvc.Discover(root)
	if err != nil {
		t.Fatal(err)
	}
	// The gate (make test) runs the frameworks of GateFrameworks: the whole
	// matrix takes about 12 minutes with two workers on two cores, more than
	// the gate can give it; make todomvc runs it all.
	only := todomvc.GateFrameworks
	switch {
	case *matrixOnly != "":
		only = strings.Split(*matrixOnly, ",")
	case *matrixAll:
		only = nil
	}
	fws, err := todomvc.Select(all, only)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := todomvc.WriteSuite(dir, fws, nil); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	got := todomvc.FromResult(runMatrix(t, root, dir))
	t.Logf("%d frameworks x 9 flows: %d of %d cells passed in %s", len(fws), got.Passed(), len(got), time.Since(start).Round(time.Second))

	want, wantExcluded, err := readExpectations()
	if err != nil && !(*updateMatrix && errors.Is(err, fs.ErrNotExist)) {
		t.Fatalf("%v: regenerate with go test ./examples/todomvc -run TestMatrix -update-matrix", err)
	}
	if *updateMatrix {
		names, _, err := todomvc.Flows()
		if err != nil {
			t.Fatal(err)
		}
		next := todomvc.Merge(want, got, all, names)
		var b bytes.Buffer
		if err := todomvc.WriteExpectations(&b, next, excluded); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(expectations, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", expectations)
		return
	}
	if !slices.Equal(excluded, wantExcluded) {
		t.Errorf("the apps left out changed:\n got %v\nwant %v", excluded, wantExcluded)
	}
	if only != nil { // compare the frameworks that ran
		sub := todomvc.Matrix{}
		for _, c := range want {
			if slices.Contains(only, c.Framework) {
				sub[c.Key()] = c
			}
		}
		want = sub
	}
	for _, c := range got.Sorted() {
		if w, ok := want[c.Key()]; ok && w.Unknown {
			t.Logf("%s: not measured before (unknown), now %s", c.Key(), map[bool]string{true: "pass", false: "fail: " + c.Cause}[c.Pass])
		} else if ok && w.Flaky {
			t.Logf("%s: flaky (%s), now %s", c.Key(), w.Cause, map[bool]string{true: "pass", false: "fail: " + c.Cause}[c.Pass])
		}
	}
	diffs := todomvc.Diff(want, got)
	for _, d := range diffs {
		t.Error(d)
	}
	if len(diffs) > 0 {
		t.Log(fmt.Sprintf("if the change is meant (a driver fix), regenerate: go test ./examples/todomvc -run TestMatrix -update-matrix (now %d of %d cells pass, expected %d)", got.Passed(), len(got), want.Passed()))
	}
}
