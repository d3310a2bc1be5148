package daemon

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner"
)

// buildAction turns a request's command line into an action through the
// script's own flag rules.
func buildAction(req *Request) (*lang.Action, *runner.ErrorInfo) {
	var b strings.Builder
	b.WriteString(req.Command)
	for _, a := range req.Argv {
		b.WriteByte(' ')
		if a == "" || strings.ContainsAny(a, " \t\"'\\#") {
			q, _ := json.Marshal(a)
			b.Write(q)
		} else {
			b.WriteString(a)
		}
	}
	s, errs := lang.ParseAll("<command line>", []byte(b.String()+"\n"))
	if len(errs) > 0 {
		return nil, &runner.ErrorInfo{Code: runner.CodeInvalidArgs, Reason: "invalid_args", Message: errs[0].Message, Hint: errs[0].Hint}
	}
	if len(s.Actions) != 1 {
		return nil, &runner.ErrorInfo{Code: runner.CodeInvalidArgs, Reason: "invalid_args", Message: "Expected one command"}
	}
	return s.Actions[0], nil
}

// stepAction runs one action through the session's step pipeline.
func stepAction(ctx context.Context, e *entry, a *lang.Action, req *Request) (*runner.Output, *runner.ErrorInfo) {
	if e.rec != nil && e.aborted == "" && targetsRef(a) {
		// A read-only capture for the recorder; it never touches the frame.
		if snap, err := e.drv.Snapshot(ctx, drivers.SnapshotOptions{}); err == nil {
			e.rec.Capture(snap)
		}
	}
	return e.sess.Dispatch(ctx, a)
}

// targetsRef reports whether an action names a snapshot ref.
func targetsRef(a *lang.Action) bool {
	for _, p := range a.Positionals {
		if _, _, _, ok := lang.ParseRef(p); ok {
			return true
		}
	}
	return false
}

// withJournal attaches a recording to a session configuration.
func withJournal(cfg runner.SessionConfig, rec Recording) runner.SessionConfig {
	return cfg
}
