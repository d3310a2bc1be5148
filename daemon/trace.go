package daemon

import (
	"fmt"
	"os"
	"sort"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner"
	"github.com/adtest/adtest/runner/trace"
)

// A replay's trace (ReplayRequest.Trace): recorded into TraceDir when the
// mode records a first attempt, kept as the mode says (retain-on-failure:
// only when the replay failed). A trace that cannot be created leaves the
// replay untraced.

func replayTrace(rr *ReplayRequest, scope *lang.Scope, platform string) *trace.Trace {
	mode, err := replayTraceMode(rr, platform)
	if err != nil || rr.TraceDir == "" || !mode.Records(1) {
		return nil
	}
	tr, err := trace.New(rr.TraceDir, drivers.NewMasker(secretValues(scope)),
		trace.Info{File: rr.File, Platform: platform, Attempt: 1})
	if err != nil {
		return nil
	}
	return tr
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

// replayTraceMode is the replay's trace mode on the session's platform.
func replayTraceMode(rr *ReplayRequest, platform string) (trace.Mode, error) {
	if rr.TraceDefault {
		return trace.DefaultMode(platform), nil
	}
	return trace.ParseMode(rr.Trace)
}

func finishReplayTrace(tr *trace.Trace, rr *ReplayRequest, platform string, passed bool) {
	if tr == nil {
		return
	}
	mode, _ := replayTraceMode(rr, platform)
	if !mode.Keeps(1, passed) || tr.Close() != nil {
		os.RemoveAll(tr.Dir())
	}
}

// secretValues are the values of the scope's variables whose names look
// secret (lang.IsSecretName), in a stable order.
func secretValues(scope *lang.Scope) []string {
	var out []string
	for _, vars := range []map[string]string{scope.CLI, scope.Process, scope.Script} {
		for k, v := range vars {
			if v != "" && lang.IsSecretName(k) {
				out = append(out, v)
			}
		}
	}
	sort.Strings(out)
	return out
}
