package main

import (
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestIssue36B runs the probes of issue 36's items 2, 3, 4, 6 and 7, each
// a script under testdata/issue36b, end to end against the real adtest:
//
//	go test -count=1 -run TestIssue36B ./cmd/adtest/
//
// repair_quote: every command printed for a person to paste is quoted.
// repair_outside: a repair of a script outside the working directory
// applies with the printed command, git apply and patch alike.
func TestIssue36B(t *testing.T) {
	testscript.Run(t, scriptParams("testdata/issue36b"))
}
