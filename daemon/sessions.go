package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/internal/atomicfile"
	"github.com/adtest/adtest/internal/shellquote"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner"
	"github.com/adtest/adtest/runner/trace"
)

// Recording is the recorder of one armed session (package recorder): the
// session's journal.
type Recording interface {
	runner.Journal
	// Script renders the recording as .ad text (it ends with a newline).
	Script() ([]byte, error)
	// Abort ends the recording: nothing will be written (a second open).
	Abort(reason string)
	// Capture hands the recorder a full read-only capture taken just before
	// a step that targets a ref (the screen may have changed since the
	// snapshot that issued it; replay resolves against the screen as it is).
	Capture(snap *drivers.Snapshot)
	// Mask registers a literal that must never be written (fill --record-as).
	Mask(literal string)
	// Problem returns, and forgets, why the last step cannot be recorded.
	Problem() string
	// Guard checks what publishing without closing needs (a destination
	// guard: a selector wait after the last mutating action).
	Guard() error
}

// RecordingInfo describes the session a recorder records.
type RecordingInfo struct {
	Session  string
	Platform string
	Device   string
	Created  time.Time
}

// RecorderFunc builds the recorder of a session armed by open --save-script.
type RecorderFunc func(info RecordingInfo) Recording

// WriteScriptFunc publishes a recording at path (atomic; exclusive unless force).
type WriteScriptFunc func(path string, script []byte, force bool) error

// SessionInfo is one row of `session list`.
type SessionInfo struct {
	Name       string    `json:"name"`
	Platform   string    `json:"platform"`
	Device     string    `json:"device,omitempty"`
	CreatedAt  time.Time `json:"createdAt"`
	Recording  bool      `json:"recording"`
	ScriptPath string    `json:"scriptPath,omitempty"`
	Commands   int       `json:"commands"`
}

// entry is one live session. lock serialises its commands; it is held
// while a command runs and released when the command ends, whatever way.
type entry struct {
	lock chan struct{}

	name     string
	platform string
	device   string
	created  time.Time
	sess     *runner.Session // owns the driver
	rec      Recording
	path     string // recording path
	force    bool
	written  map[string]fs.FileInfo // what this session published where (scripttarget.go)
	aborted  string                 // guarded by registry.mu as well (read by list)
	commands atomic.Int64
	closed   bool
	// trace records the session's steps (open --trace), written at close.
	trace *trace.Trace
}

func (e *entry) acquire(ctx context.Context) *runner.ErrorInfo {
	select {
	case e.lock <- struct{}{}:
		return nil
	case <-ctx.Done():
		return &runner.ErrorInfo{Code: runner.CodeCommandFailed, Reason: drivers.ReasonSessionBusy,
			Message: fmt.Sprintf("Session %q is busy with another command and this one was cancelled or timed out while waiting", e.name),
			Hint:    "Commands on one session run one at a time; retry when the other command has finished."}
	}
}

func (e *entry) release() { <-e.lock }

// registry holds the sessions of a daemon and the warm providers.
type registry struct {
	srv *Server

	mu        sync.Mutex
	sessions  map[string]*entry
	lost      map[string]string // name -> why it was lost
	providers map[string]drivers.Provider
	workers   int
	provMu    sync.Mutex
}

func newRegistry(s *Server) *registry {
	return &registry{srv: s, sessions: map[string]*entry{}, lost: map[string]string{}, providers: map[string]drivers.Provider{}}
}

var sessionNameRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

func (r *registry) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.sessions)
}

func (r *registry) list() []SessionInfo {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]SessionInfo, 0, len(r.sessions))
	for _, e := range r.sessions {
		out = append(out, SessionInfo{Name: e.name, Platform: e.platform, Device: e.device, CreatedAt: e.created,
			Recording: e.rec != nil && e.aborted == "", ScriptPath: e.path, Commands: int(e.commands.Load())})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func (r *registry) lostNames() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for n := range r.lost {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// state is sessions.json: the live sessions of the daemon that wrote it and
// the sessions an earlier daemon lost. A daemon that starts and finds live
// sessions there knows its predecessor died with them.
type state struct {
	PID  int           `json:"pid"`
	Live []SessionInfo `json:"live"`
	Lost []string      `json:"lost,omitempty"`
	// Helpers are the processes the daemon started for its live sessions,
	// as its Reaper records them.
	Helpers json.RawMessage `json:"helpers,omitempty"`
}

func (r *registry) statePath() string { return filepath.Join(r.srv.cfg.Dir, sessionsName) }

func (r *registry) loadLost() {
	b, err := os.ReadFile(r.statePath())
	if err != nil {
		return
	}
	var st state
	if json.Unmarshal(b, &st) != nil {
		return
	}
	r.mu.Lock()
	for _, s := range st.Live {
		r.lost[s.Name] = whyCrash
	}
	for _, n := range st.Lost {
		r.lost[n] = whyCrash
	}
	r.mu.Unlock()
	if rp := r.srv.cfg.Reaper; rp != nil && len(st.Helpers) > 0 && st.PID != os.Getpid() {
		if n := rp.Reap(st.Helpers); n > 0 {
			r.srv.cfg.Logf("killed %d helper processes left by daemon %d", n, st.PID)
		}
	}
	r.saveState()
}

// saveState writes sessions.json (removed when there is nothing to remember).
func (r *registry) saveState() {
	st := state{PID: os.Getpid(), Live: r.list(), Lost: r.lostNames()}
	if rp := r.srv.cfg.Reaper; rp != nil && len(st.Live) > 0 {
		st.Helpers = rp.Record()
	}
	if len(st.Live) == 0 && len(st.Lost) == 0 {
		_ = os.Remove(r.statePath())
		return
	}
	b, _ := json.Marshal(st)
	if err := atomicfile.WriteFile(r.statePath(), b, atomicfile.Options{Perm: 0o600}); err != nil {
		r.srv.cfg.Logf("sessions.json: %v", err)
	}
}

func notFound(name string) *runner.ErrorInfo {
	return &runner.ErrorInfo{Code: runner.CodeSessionNotFound, Reason: drivers.ReasonSessionNotFound,
		Message: fmt.Sprintf("No session %q", name),
		Hint:    fmt.Sprintf("Run `adtest open TARGET --session %s` first (adtest session list shows the open sessions).", shellquote.Word(name))}
}

// Why a session was lost.
const (
	whyCrash = "the adtest daemon that held it stopped unexpectedly, and a new daemon was started"
	whyGone  = "its browser or device went away"
)

func lostErr(name, why string) *runner.ErrorInfo {
	if why == "" {
		why = whyCrash
	}
	return &runner.ErrorInfo{Code: runner.CodeSessionNotFound, Reason: drivers.ReasonSessionLost,
		Message: fmt.Sprintf("Session %q was lost: %s", name, why),
		Hint:    fmt.Sprintf("Nothing was done on a fresh page. Run `adtest open TARGET --session %s` to start again; an unsaved recording of it is gone.", shellquote.Word(name))}
}

func (r *registry) provider(ctx context.Context, platform string) (drivers.Provider, error) {
	r.provMu.Lock()
	defer r.provMu.Unlock()
	if p, ok := r.providers[platform]; ok {
		return p, nil
	}
	p, err := r.srv.cfg.Providers(ctx, platform)
	if err != nil {
		return nil, err
	}
	r.providers[platform] = p
	return p, nil
}

// command runs one interactive command on its session.
func (r *registry) command(ctx context.Context, req *Request) *Response {
	if req.Session == "" {
		req.Session = "default"
	}
	if !sessionNameRe.MatchString(req.Session) {
		return failure(req, runner.CodeInvalidArgs, drivers.ReasonInvalidSession, "Session names use letters, digits, '.', '_' and '-' (at most 64).", "Invalid session name %q", req.Session)
	}
	if _, ok := lang.LookupCommand(req.Command); !ok {
		return failure(req, runner.CodeInvalidArgs, drivers.ReasonUnknownCommand, "Run `adtest help` for the interactive commands.", "Unknown command %q", req.Command)
	}
	if lang.TraitsOf(req.Command).OpensSession {
		return r.open(ctx, req)
	}
	e, resp := r.acquireNamed(ctx, req)
	if resp != nil {
		return resp
	}
	defer e.release()
	if lang.TraitsOf(req.Command).ClosesSession {
		return r.close(ctx, e, req)
	}
	a, ei := buildAction(req)
	if ei != nil {
		return &Response{Error: ei}
	}
	return r.run(ctx, e, req, a)
}

// acquireNamed finds the open session req names and takes its lock (the
// caller releases it); otherwise the response says why there is none: not
// found, or lost (a close of a lost session forgets it).
func (r *registry) acquireNamed(ctx context.Context, req *Request) (*entry, *Response) {
	r.mu.Lock()
	e := r.sessions[req.Session]
	why, lost := r.lost[req.Session]
	forgetLost := e == nil && lost && lang.TraitsOf(req.Command).ClosesSession
	if forgetLost {
		delete(r.lost, req.Session)
	}
	r.mu.Unlock()
	if e == nil {
		if lost {
			if forgetLost {
				r.saveState()
			}
			return nil, &Response{Error: lostErr(req.Session, why)}
		}
		return nil, &Response{Error: notFound(req.Session)}
	}
	if ei := e.acquire(ctx); ei != nil {
		return nil, &Response{Error: ei}
	}
	if e.closed {
		e.release()
		return nil, &Response{Error: notFound(req.Session)}
	}
	return e, nil
}

// run executes one action on a locked session and shapes the response.
func (r *registry) run(ctx context.Context, e *entry, req *Request, a *lang.Action) *Response {
	e.commands.Add(1)
	out, ei := stepAction(ctx, e, a, req)
	problem := ""
	if e.rec != nil && e.aborted == "" {
		problem = e.rec.Problem()
	}
	if ei != nil {
		if ei.Unavailable() && e.sess != nil && !e.closed {
			r.lose(ctx, e)
			ei.Hint = joinWarn(ei.Hint, fmt.Sprintf("the session's browser or device is gone, so session %q was closed; open it again", e.name))
		}
		return &Response{Error: ei}
	}
	resp := &Response{OK: true}
	if problem != "" {
		resp.Warning = joinWarn(resp.Warning, "not recordable: "+problem)
	}
	resp.Data = map[string]any{}
	if out != nil {
		resp.Text, resp.Warning = out.Text, joinWarn(out.Warning, resp.Warning)
		for k, v := range out.Data {
			resp.Data[k] = v
		}
	}
	if lang.TraitsOf(a.Command).Publishes == lang.PublishesFrame && req.JSON {
		addSnapshotNodes(resp, e.sess, a)
	}
	return resp
}

// addSnapshotNodes puts the printed nodes of the snapshot just taken into
// the response data (the refsGeneration stays once at the top).
func addSnapshotNodes(resp *Response, s *runner.Session, a *lang.Action) {
	snap := s.LastSnapshot()
	if snap == nil {
		return
	}
	opts := drivers.SnapshotOptions{Interactive: a.Flags.Bool("snapshotInteractiveOnly"), Raw: a.Flags.Bool("snapshotRaw")}
	if d, ok := a.Flags.Int("snapshotDepth"); ok {
		opts.Depth = d
	}
	if sc, ok := a.Flags.String("snapshotScope"); ok {
		if strings.HasPrefix(sc, "@") {
			return // a ref scope: the text form carries the tree
		}
		opts.Scope = sc
	}
	b, err := runner.FormatSnapshotJSON(snap, opts, s.RefsGeneration())
	if err != nil {
		return
	}
	var m map[string]any
	if json.Unmarshal(b, &m) == nil {
		for k, v := range m {
			resp.Data[k] = v
		}
	}
}

// close runs close on a locked session, publishes its recording and drops it.
func (r *registry) close(ctx context.Context, e *entry, req *Request) *Response {
	a, ei := buildAction(req)
	if ei != nil {
		return &Response{Error: ei}
	}
	path, force := e.path, e.force || req.Force
	if req.ScriptPath != "" {
		path = req.ScriptPath
	}
	publish := e.rec != nil && e.aborted == ""
	if publish {
		// Refuse what cannot be written before the session is closed: a
		// refusal after would lose the recording.
		if ei := checkScriptTarget(path); ei != nil {
			return &Response{Error: ei}
		}
		if e.ownsScript(path) {
			force = true // this session's own save-script: update it
		}
		if _, err := os.Lstat(path); err == nil && !force {
			return &Response{Error: existsErr(path)}
		}
	}
	resp := r.run(ctx, e, req, a)
	// The session ends whatever close answered: its driver is gone or broken.
	r.stop(ctx, e, 10*time.Second)
	if dir, err := e.closeTrace(); dir != "" {
		if err != nil {
			resp.Warning = joinWarn(resp.Warning, "trace: "+err.Error())
		} else {
			if resp.Data == nil {
				resp.Data = map[string]any{}
			}
			resp.Data["trace"] = dir
			resp.Text = joinLines(resp.Text, "Trace "+dir+" ("+shellquote.Join("adtest", "show-trace", dir)+")")
		}
	}
	r.forget(e, "") // closed on purpose, even if its helper was gone
	if resp.Error != nil || !publish {
		return resp
	}
	if ei := r.publish(e, path, force); ei != nil {
		return &Response{Error: keptErr(ei, path, r.rescueScript(e))}
	}
	resp.Data["script"] = path
	resp.Text = joinLines(resp.Text, "Saved script "+path)
	return resp
}

func existsErr(path string) *runner.ErrorInfo {
	return &runner.ErrorInfo{Code: runner.CodeCommandFailed, Reason: drivers.ReasonScriptTargetExists,
		Message: fmt.Sprintf("A file already exists at %s", path),
		Hint:    "Remove it, pass --save-script=<other-path>, or pass --force to replace it.", Details: map[string]any{"path": path}}
}

func (r *registry) publish(e *entry, path string, force bool) *runner.ErrorInfo {
	script, err := e.rec.Script()
	if err != nil {
		var ei *runner.ErrorInfo
		if errors.As(err, &ei) {
			return ei
		}
		return &runner.ErrorInfo{Code: runner.CodeCommandFailed, Reason: drivers.ReasonRecordingFailed, Message: err.Error()}
	}
	write := r.srv.cfg.WriteScript
	if write == nil {
		return &runner.ErrorInfo{Code: runner.CodeUnsupportedOperation, Reason: drivers.ReasonRecordingUnavailable, Message: "This daemon cannot write scripts"}
	}
	if err := write(path, script, force); err != nil {
		if errors.Is(err, os.ErrExist) {
			return existsErr(path)
		}
		return &runner.ErrorInfo{Code: runner.CodeCommandFailed, Reason: drivers.ReasonScriptWriteFailed, Message: err.Error(), Details: map[string]any{"path": path}}
	}
	return nil
}

// saveScript is `session save-script [PATH] [--force]`: publish without closing.
func (r *registry) saveScript(ctx context.Context, req *Request) *Response {
	if req.Session == "" {
		req.Session = "default"
	}
	e, resp := r.acquireNamed(ctx, req)
	if resp != nil {
		return resp
	}
	defer e.release()
	if e.rec == nil || e.aborted != "" {
		why := "it was not opened with --save-script"
		if e.aborted != "" {
			why = "its recording was aborted by " + e.aborted
		}
		return failure(req, runner.CodeCommandFailed, drivers.ReasonNotRecording, "Open a new session with `adtest open TARGET --save-script[=PATH]`.",
			"Session %q is not recording: %s", e.name, why)
	}
	path := e.path
	if req.ScriptPath != "" {
		path = req.ScriptPath
	}
	if err := e.rec.Guard(); err != nil {
		var ei *runner.ErrorInfo
		if errors.As(err, &ei) {
			return &Response{Error: ei}
		}
		return failure(req, runner.CodeCommandFailed, drivers.ReasonDestinationGuardMissing, "", "%v", err)
	}
	if ei := checkScriptTarget(path); ei != nil {
		return &Response{Error: ei}
	}
	if ei := r.publish(e, path, req.Force || e.force || e.ownsScript(path)); ei != nil {
		return &Response{Error: ei}
	}
	e.noteScript(path)
	return &Response{OK: true, Text: "Saved script " + path, Data: map[string]any{"script": path}}
}

// closeAll ends every session and provider (daemon stop or idle exit).
func (r *registry) closeAll() {
	r.mu.Lock()
	list := make([]*entry, 0, len(r.sessions))
	for _, e := range r.sessions {
		list = append(list, e)
	}
	r.sessions = map[string]*entry{}
	r.mu.Unlock()
	for _, e := range list {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if e.acquire(ctx) == nil {
			if e.sess != nil && !e.closed {
				_ = e.sess.Close(ctx)
				e.closeTrace()
			}
			e.closed = true
			e.release()
		}
		cancel()
	}
	r.provMu.Lock()
	for name, p := range r.providers {
		if err := p.Close(); err != nil {
			r.srv.cfg.Logf("closing the %s provider: %v", name, err)
		}
	}
	r.providers = map[string]drivers.Provider{}
	r.provMu.Unlock()
}

// lose drops a session whose browser or device went away: later commands
// on its name are told it was lost (like after a daemon crash) instead of
// failing one by one against a dead helper. The caller holds e's lock.
func (r *registry) lose(ctx context.Context, e *entry) {
	r.stop(ctx, e, 5*time.Second)
	r.forget(e, whyGone)
}

// stop ends a locked session's runner.Session and driver, within bound.
func (r *registry) stop(ctx context.Context, e *entry, bound time.Duration) {
	e.closed = true
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), bound)
	_ = e.sess.Close(cctx)
	cancel()
}

// forget removes a stopped session from the registry and the state file:
// lost for why (later commands on its name are told so) when why is not
// "", else gone for good (closed on purpose, even if it had been lost).
func (r *registry) forget(e *entry, why string) {
	r.mu.Lock()
	registered := r.sessions[e.name] == e
	if registered {
		delete(r.sessions, e.name)
	}
	if why == "" {
		delete(r.lost, e.name)
	} else if registered {
		r.lost[e.name] = why
	}
	r.mu.Unlock()
	r.saveState()
}
