package reporters

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/runner"
)

// fillStrings sets every string reachable from v (fields, slices, pointers)
// to s and gives every slice one element, so that a field added to the
// divergence later is covered without editing this test.
func fillStrings(v reflect.Value, s string) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(s)
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		fillStrings(v.Elem(), s)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			fillStrings(v.Field(i), s)
		}
	case reflect.Slice:
		if v.Len() == 0 {
			v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		}
		for i := 0; i < v.Len(); i++ {
			fillStrings(v.Index(i), s)
		}
	}
}

// TestDivergenceSecretsReachNoWriter: a secret in every text of a
// divergence (and of its error, steps and warnings) is masked by the one
// masker the suite applies to an attempt, before any writer sees it: no
// reporter's output (console, JSON, JUnit, GitHub, the HTML report's
// files) holds it.
func TestDivergenceSecretsReachNoWriter(t *testing.T) {
	t.Parallel()
	const secret = "hunter2-secret"
	div := &runner.Divergence{}
	fillStrings(reflect.ValueOf(div), "value "+secret+" here")
	tb := &runner.TargetBinding{}
	fillStrings(reflect.ValueOf(tb), secret)
	e := &runner.ErrorInfo{Code: runner.CodeReplayDivergence, Reason: drivers.ReasonSelectorNotFound,
		Message: "Replay failed: " + secret, Hint: "hint " + secret, Step: 1, Line: 2, Command: "click",
		Details: map[string]any{"divergence": div, "targetBinding": tb, "positionals": []string{secret},
			"partialResults": []map[string]any{{"command": secret}}, "replayPath": secret}}
	ar := runner.AttemptResult{Status: runner.StatusFailed, DurationMs: 5, Error: e, Warnings: []string{secret},
		Steps: []runner.StepResult{{Step: 1, Line: 2, Command: "click", Action: "click " + secret, Status: runner.StatusFailed, Warning: secret}}}

	ar.Mask(drivers.NewMasker([]string{secret}))

	if got := e.Divergence(); got == div || got.Cause.Message != "value *** here" {
		t.Fatalf("the divergence was not masked as a copy: %+v", got)
	}
	if strings.Contains(div.Action, "***") {
		t.Fatal("masking edited the shared divergence in place")
	}
	res := &runner.Result{Version: 1, StartedAt: time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC), DurationMs: 5,
		Stats: runner.Stats{Total: 1, Failed: 1},
		Tests: []runner.TestResult{{File: "a.ad", Name: "a", Platform: "web", Status: runner.StatusFailed, DurationMs: 5,
			Attempts: []runner.AttemptResult{ar}}}}
	written := 0
	for _, name := range Names {
		rep, _ := Lookup(name)
		var out []byte
		switch {
		case rep.Render != nil:
			var b bytes.Buffer
			if err := rep.Render(&b, res, false); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			out = b.Bytes()
		case rep.Dir != nil:
			dir := t.TempDir()
			if err := rep.Dir(dir, res, func(string) ([]byte, error) { return nil, os.ErrNotExist }); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					b, _ := os.ReadFile(p)
					out = append(out, b...)
				}
				return nil
			})
		}
		if len(out) == 0 {
			t.Fatalf("%s wrote nothing", name)
		}
		written++
		if bytes.Contains(out, []byte(secret)) {
			i := bytes.Index(out, []byte(secret))
			t.Errorf("%s output holds the secret: ...%s...", name, out[max(0, i-80):min(len(out), i+40)])
		}
	}
	if written < 5 {
		t.Fatalf("only %d writers checked", written)
	}
}
