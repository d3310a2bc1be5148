package todomvc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"

	"github.com/adtest/adtest/reporters"
)

// The files the comparison scripts hand the commands (cmd/todomvc and
// examples/components' cmd/components): adtest's and Playwright's reports
// of a run, the expectations, and a corpus served until killed.

// ReadResultFile reads adtest's JSON result (--reporter json=FILE) of a run
// of flows laid out as FRAMEWORK/FLOW.ad into its cells.
func ReadResultFile(path string) (Matrix, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	res, err := reporters.ReadJSON(f)
	if err != nil {
		return nil, fmt.Errorf("%s: not an adtest JSON result: %w", path, err)
	}
	return FromResult(res), nil
}

// ReadReports reads the two reports a comparison sets side by side:
// adtest's JSON result and Playwright's JSON report (FromPlaywright) of the
// same flows; both are required (the -adtest and -playwright flags).
func ReadReports(adtest, playwright string) (ad, pw Matrix, err error) {
	if adtest == "" || playwright == "" {
		return nil, nil, errors.New("-adtest FILE and -playwright FILE are required")
	}
	if ad, err = ReadResultFile(adtest); err != nil {
		return nil, nil, err
	}
	f, err := os.Open(playwright)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	if pw, err = FromPlaywright(f); err != nil {
		return nil, nil, err
	}
	return ad, pw, nil
}

// ReadExpectationsFile reads the expectations file at path
// (ReadExpectations); a file that does not exist yet is an empty matrix.
func ReadExpectationsFile(path string) (Matrix, []Excluded, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Matrix{}, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return ReadExpectations(path, f)
}

// Expect rewrites the expectations file at path from adtest's JSON result
// at result (both required: the -file and -adtest flags): write gets what
// the file held (nothing when it does not exist yet) and the run's cells,
// and writes the new expectations.
func Expect(result, path string, write func(w io.Writer, old, got Matrix) error) error {
	if result == "" || path == "" {
		return errors.New("-adtest FILE and -file testdata/matrix.txt are required")
	}
	got, err := ReadResultFile(result)
	if err != nil {
		return err
	}
	old, _, err := ReadExpectationsFile(path)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := write(&b, old, got); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// Serve listens on addr, writes the URL it serves on to w, and serves h
// until the listener fails.
func Serve(w io.Writer, addr string, h http.Handler) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "http://%s\n", ln.Addr())
	return http.Serve(ln, h)
}
