package main

import (
	"os"
	"strconv"

	"github.com/rogpeppe/go-internal/testscript"
)

// cpname SRC DST: copies SRC to DST, whose name is a Go string literal's
// body ("suite/evil\x1b]0;x\a.ad"): names a txtar archive cannot hold.
func cmdCpName(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: cpname SRC DST")
	}
	dst, err := strconv.Unquote(`"` + args[1] + `"`)
	if err != nil {
		ts.Fatalf("cpname: %s is no Go string body: %v", args[1], err)
	}
	ts.Check(os.WriteFile(ts.MkAbs(dst), []byte(ts.ReadFile(args[0])), 0o644))
}
