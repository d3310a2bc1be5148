package daemon

import (
	"fmt"
	"os"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/runner"
	"github.com/adtest/adtest/runner/runctx"
	"github.com/adtest/adtest/runner/trace"
)

// A replay's trace (ReplayRequest.Trace): recorded into TraceDir when the
// mode records a first attempt, kept as the mode says (retain-on-failure:
// only when the replay failed). A trace that cannot be created leaves the
// replay untraced.

// startReplayTrace starts the trace of the replay rc runs, when asked for.
func startReplayTrace(rc *runctx.Run, rr *ReplayRequest, platform string) {
	p, err := replayTracePolicy(rr)
	if err != nil {
		return
	}
	_ = rc.StartTrace(p, platform, 1, rr.TraceDir, trace.Info{File: rr.File})
}

// replayTracePolicy is the replay's trace policy: --trace MODE, or the
// session's platform's default without --trace.
func replayTracePolicy(rr *ReplayRequest) (trace.Policy, error) {
	if rr.TraceDefault {
		return trace.Policy{PlatformDefault: true}, nil
	}
	mode, err := trace.ParseMode(rr.Trace)
	return trace.Policy{Mode: mode}, err
}

// finishReplayTrace keeps or removes the replay's trace; one whose
// trace.json cannot be written is removed.
func finishReplayTrace(rc *runctx.Run, passed bool) {
	if dir, err := rc.FinishTrace(passed); err != nil {
		os.RemoveAll(dir)
	}
}

// openTrace starts the trace of a new interactive session (open --trace).
func openTrace(req *Request, e *entry) (*trace.Trace, *runner.ErrorInfo) {
	tr, err := trace.New(req.TraceDir, drivers.NewMasker(nil), trace.Info{Name: e.name, Platform: e.platform})
	if err != nil {
		return nil, &runner.ErrorInfo{Code: runner.CodeInvalidArgs, Reason: drivers.ReasonInvalidArgs,
			Message: fmt.Sprintf("Cannot create the trace directory: %v", err), Hint: "Give a directory adtest can create with --trace DIR."}
	}
	return tr, nil
}

// closeTrace writes the trace of a closed session: its directory, or "".
func (e *entry) closeTrace() (string, error) {
	if e.trace == nil {
		return "", nil
	}
	tr := e.trace
	e.trace = nil
	return tr.Dir(), tr.Close()
}
