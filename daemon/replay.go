package daemon

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner"
	"github.com/adtest/adtest/runner/runctx"

	"github.com/adtest/adtest/drivers"
)

// DefaultReplayTimeout bounds a whole replay request: agent-device's client
// envelope of 90 s, which `replay --timeout MS` replaces.
const DefaultReplayTimeout = 90 * time.Second

// ReplayRequest is the payload of an OpReplay request: a script run in the
// request's session, as agent-device's `replay` runs one (spec §4.2). The
// client has parsed the script, checked --from/--plan-digest and chosen the
// effective platform (Request.Platform); the daemon parses the source again
// (the AST does not travel) and runs steps From..K.
type ReplayRequest struct {
	Source string `json:"source"`
	// File is the script's absolute path (errors and the divergence name it).
	File string `json:"file"`
	// From is the 1-based first step to run (0 or 1: all).
	From       int    `json:"from,omitempty"`
	PlanDigest string `json:"planDigest,omitempty"`
	// Vars are the -e KEY=VALUE values, ProcessVars the AD_VAR_* ones.
	Vars        map[string]string `json:"vars,omitempty"`
	ProcessVars map[string]string `json:"processVars,omitempty"`
	// KeepSession leaves the session open even when the script ends in
	// close (the terminal close is not run).
	KeepSession bool `json:"keepSession,omitempty"`
	// Trace and TraceDir: the replay's trace mode (trace.Mode, ""
	// = off) and the directory it is written to (trace.go). TraceDefault
	// (no --trace) has the session's platform choose the mode
	// (trace.DefaultMode) instead of Trace.
	Trace        string `json:"trace,omitempty"`
	TraceDir     string `json:"traceDir,omitempty"`
	TraceDefault bool   `json:"traceDefault,omitempty"`
}

// replay runs a script in a session: a new session when none has the name
// (then the script's first open starts it, as in agent-device), else the
// existing one, so `replay --from N` continues where a failed replay
// stopped. A failure leaves the session open for the resume.
func (r *registry) replay(ctx context.Context, req *Request) *Response {
	rr := req.Replay
	if rr == nil {
		return failure(req, runner.CodeInvalidArgs, drivers.ReasonBadRequest, "", "replay request without a script")
	}
	if req.Session == "" {
		req.Session = "default"
	}
	if !sessionNameRe.MatchString(req.Session) {
		return failure(req, runner.CodeInvalidArgs, drivers.ReasonInvalidSession, "Session names use letters, digits, '.', '_' and '-' (at most 64).", "Invalid session name %q", req.Session)
	}
	script, errs := lang.ParseAll(rr.File, []byte(rr.Source))
	if len(errs) > 0 {
		return &Response{Error: &runner.ErrorInfo{Code: runner.CodeInvalidArgs, Reason: drivers.ReasonInvalidArgs, Message: errs[0].Error(), Hint: errs[0].Hint}}
	}
	r.mu.Lock()
	e := r.sessions[req.Session]
	fresh := e == nil
	if fresh {
		if rr.From > 1 {
			r.mu.Unlock()
			ei := notFound(req.Session)
			ei.Message = fmt.Sprintf("replay --from %d needs session %q, which is not open", rr.From, req.Session)
			ei.Hint = "A resume continues the session a failed replay left open; replay the whole script without --from to start again."
			return &Response{Error: ei}
		}
		e = r.newEntry(req)
	}
	r.mu.Unlock()
	if ei := e.acquire(ctx); ei != nil {
		return &Response{Error: ei}
	}
	defer e.release()
	if e.closed {
		if fresh {
			return &Response{Error: notFound(req.Session)}
		}
		return r.replay(ctx, req) // closed meanwhile: as if it never was
	}
	if !fresh && req.Platform != "" && req.Platform != e.platform {
		return failure(req, runner.CodeInvalidArgs, drivers.ReasonPlatformMismatch, "Close the session first, or use another --session name.",
			"Session %q is a %s session; the script runs on %s", req.Session, e.platform, req.Platform)
	}
	if fresh {
		if ei := r.startSession(ctx, e, req, nil); ei != nil {
			r.drop(e)
			return &Response{Error: ei}
		}
		r.started(e)
	}

	// The terminal close ends the session itself (below), not only its page;
	// with --keep-session it does not run at all.
	run := *script
	endsInClose := len(run.Actions) > 0 && lang.TraitsOf(run.Actions[len(run.Actions)-1].Command).ClosesSession
	if endsInClose {
		run.Actions = run.Actions[:len(run.Actions)-1]
	}
	rc := runctx.New(runctx.Vars{CLI: rr.Vars, Process: rr.ProcessVars, Script: script})
	rc.Scope.BuiltIns = map[string]string{"AD_PLATFORM": e.platform, "AD_SESSION": e.name, "AD_FILENAME": rr.File}
	e.commands.Add(1)
	start := time.Now()
	startReplayTrace(rc, rr, e.platform)
	ro := runner.ReplayOptions{Scope: rc.Scope, From: rr.From, PlanDigest: rr.PlanDigest, Hooks: rc.Hooks()}
	if rc.Trace != nil && e.trace != nil {
		// The replay's trace records its steps in place of the session's.
		e.sess.RemoveHook(e.trace)
		defer e.sess.AddHook(e.trace)
	}
	res := e.sess.Replay(ctx, &run, ro)
	finishReplayTrace(rc, res.Status == runner.StatusPassed)
	if res.Error != nil {
		if res.Error.Unavailable() {
			r.lose(ctx, e)
		}
		return &Response{Error: res.Error}
	}
	replayed := 0
	for _, s := range res.Steps {
		if s.Status == runner.StatusPassed {
			replayed++
		}
	}
	active := true
	if endsInClose && !rr.KeepSession {
		r.end(ctx, e)
		active = false
		replayed++
	}
	msg := fmt.Sprintf("Replayed %d step(s) in %.1fs", replayed, time.Since(start).Seconds())
	resp := &Response{OK: true, Text: msg, Data: map[string]any{
		"replayed": replayed, "healed": 0, "session": e.name, "sessionActive": active, "message": msg,
	}}
	if rr.PlanDigest != "" {
		resp.Data["planDigest"] = rr.PlanDigest
	}
	if len(res.Warnings) > 0 {
		resp.Warning = strings.Join(res.Warnings, "; ")
	}
	return resp
}

// end closes a locked session for good: the replayed script's own close.
func (r *registry) end(ctx context.Context, e *entry) {
	r.stop(ctx, e, 10*time.Second)
	r.forget(e, "")
}
