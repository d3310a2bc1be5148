package daemon

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/runner"
)

// open: a new session with its driver, app and recording.

func (r *registry) open(ctx context.Context, req *Request) *Response {
	a, ei := buildAction(req)
	if ei != nil {
		return &Response{Error: ei}
	}
	r.mu.Lock()
	e := r.sessions[req.Session]
	platform := req.Platform
	if e != nil {
		platform = e.platform
	} else if platform == "" {
		platform = r.srv.cfg.DefaultPlatform
	}
	if platform == drivers.PlatformWeb && len(a.Positionals) == 0 {
		// A usage error, not a failed command: nothing was tried.
		r.mu.Unlock()
		return failure(req, runner.CodeInvalidArgs, drivers.ReasonInvalidArgs, "Give the page to open: adtest open http://127.0.0.1:8080/ (a URL, or a host:port).",
			"open needs a URL on a web session")
	}
	fresh := e == nil
	if fresh {
		e = r.newEntry(req)
	}
	r.mu.Unlock()
	if ei := e.acquire(ctx); ei != nil {
		return &Response{Error: ei}
	}
	defer e.release()
	if !fresh {
		if e.closed {
			return r.open(ctx, req) // closed meanwhile: start a new one
		}
		if req.SaveScript {
			return failure(req, runner.CodeInvalidArgs, drivers.ReasonRecordingNotFirstOpen,
				"Close the session first, or use another --session name.",
				"open --save-script arms recording only on a new session's first open; session %q is already open", req.Session)
		}
		if req.TraceDir != "" {
			return failure(req, runner.CodeInvalidArgs, drivers.ReasonInvalidArgs, "Close the session first, or use another --session name.",
				"open --trace starts a trace only on a new session; session %q is already open", req.Session)
		}
		if req.Platform != "" && req.Platform != e.platform {
			return failure(req, runner.CodeInvalidArgs, drivers.ReasonPlatformMismatch, "Close the session first, or use another --session name.",
				"Session %q is a %s session; it cannot open on %s", req.Session, e.platform, req.Platform)
		}
		resp := r.run(ctx, e, req, a)
		if resp.Error == nil && e.rec != nil && e.aborted == "" {
			r.mu.Lock()
			e.aborted = "a second open"
			r.mu.Unlock()
			e.rec.Abort(e.aborted)
			resp.Warning = joinWarn(resp.Warning, "recording aborted: a second open on the session means nothing will be written (record one open per script)")
		}
		return resp
	}
	fail := func(resp *Response) *Response {
		r.drop(e)
		return resp
	}
	if req.SaveScript && r.srv.cfg.Recorders == nil {
		return fail(failure(req, runner.CodeUnsupportedOperation, drivers.ReasonRecordingUnavailable, "", "This daemon cannot record sessions"))
	}
	if e.platform == drivers.PlatformAndroid {
		// Before any adb server is looked for or started.
		if ei := r.srv.adbMismatch(req.ADBServer); ei != nil {
			return fail(&Response{Error: ei})
		}
	}
	if req.SaveScript && req.ScriptPath != "" {
		// Up front, not at close after the work is done.
		if ei := checkScriptTarget(req.ScriptPath); ei != nil {
			return fail(&Response{Error: ei})
		}
		// A new session owns no file yet: one already there is someone
		// else's, refused now rather than at close.
		if _, err := os.Lstat(req.ScriptPath); err == nil && !req.Force {
			return fail(&Response{Error: existsErr(req.ScriptPath)})
		}
	}
	if ei := r.startSession(ctx, e, req, func() ([]runner.StepHook, *runner.ErrorInfo) { return r.openHooks(e, req) }); ei != nil {
		return fail(&Response{Error: ei})
	}
	resp := r.run(ctx, e, req, a)
	if resp.Error != nil {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		_ = e.sess.Close(cctx)
		cancel()
		e.closeTrace()
		return fail(resp)
	}
	if e.trace != nil {
		resp.Text = joinLines(resp.Text, "Tracing to "+e.trace.Dir())
	}
	r.started(e)
	if e.rec != nil {
		resp.Data["recording"] = e.path
		resp.Text = joinLines(resp.Text, "Recording to "+e.path)
	}
	return resp
}

// openHooks are the step hooks of a session open starts: its recording's
// journal (--save-script) and its trace (--trace).
func (r *registry) openHooks(e *entry, req *Request) ([]runner.StepHook, *runner.ErrorInfo) {
	var hooks []runner.StepHook
	if req.SaveScript {
		rec := r.srv.cfg.Recorders(RecordingInfo{Session: e.name, Platform: e.platform, Device: req.Device, Created: e.created})
		path := req.ScriptPath
		if path == "" {
			path = defaultScriptPath(r.srv.cfg.ScriptDir, e.name, e.created)
		}
		r.mu.Lock()
		e.rec, e.path, e.force = rec, path, req.Force
		r.mu.Unlock()
		hooks = append(hooks, runner.JournalHook(rec))
	}
	if req.TraceDir != "" {
		tr, ei := openTrace(req, e)
		if ei != nil {
			return nil, ei
		}
		e.trace = tr
		hooks = append(hooks, tr)
	}
	return hooks, nil
}

// The one way a daemon session comes to be, for open and replay alike: an
// entry (newEntry), then its driver and runner.Session (startSession), and
// once it is up, its place in the state file (started); an entry whose
// start failed is dropped (drop).

// newEntry makes and registers the entry of a new session named by req, on
// its platform or the daemon's default; r.mu is held.
func (r *registry) newEntry(req *Request) *entry {
	platform := req.Platform
	if platform == "" {
		platform = r.srv.cfg.DefaultPlatform
	}
	e := &entry{lock: make(chan struct{}, 1), name: req.Session, platform: platform, device: req.Device, created: time.Now().UTC()}
	r.sessions[req.Session] = e
	return e
}

// startSession starts the driver of a new, locked entry and its
// runner.Session with the step hooks hooks gives (nil: none); when hooks
// fails the driver is closed again.
func (r *registry) startSession(ctx context.Context, e *entry, req *Request, hooks func() ([]runner.StepHook, *runner.ErrorInfo)) *runner.ErrorInfo {
	drv, cfg, ei := r.startDriver(ctx, e, req)
	if ei != nil {
		return ei
	}
	if hooks != nil {
		hs, ei := hooks()
		if ei != nil {
			cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
			_ = drv.Close(cctx)
			cancel()
			return ei
		}
		cfg.Hooks = append(slices.Clip(cfg.Hooks), hs...)
	}
	e.sess = runner.NewSession(drv, cfg)
	return nil
}

// started records a session that is up: it is lost no more, and the state
// file lists it.
func (r *registry) started(e *entry) {
	r.mu.Lock()
	delete(r.lost, e.name)
	r.mu.Unlock()
	r.saveState()
}

// drop forgets a session entry that never started.
func (r *registry) drop(e *entry) {
	e.closed = true
	r.mu.Lock()
	if r.sessions[e.name] == e {
		delete(r.sessions, e.name)
	}
	r.mu.Unlock()
}

// startDriver starts the driver of a new session entry and the session
// configuration its runner.Session gets.
func (r *registry) startDriver(ctx context.Context, e *entry, req *Request) (drivers.Driver, runner.SessionConfig, *runner.ErrorInfo) {
	cfg := r.srv.cfg.Session
	prov, err := r.provider(ctx, e.platform)
	if err != nil {
		return nil, cfg, infraErr(err, e.platform)
	}
	r.mu.Lock()
	worker := r.workers
	r.workers++
	r.mu.Unlock()
	drv, err := prov.NewSession(ctx, drivers.SessionOptions{Worker: worker, Device: req.Device})
	if err != nil {
		return nil, cfg, infraErr(err, e.platform)
	}
	cfg.Platform = e.platform
	if filepath.IsAbs(req.Cwd) {
		cfg.ArtifactsDir = req.Cwd
	}
	return drv, cfg, nil
}

func joinWarn(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

func joinLines(a, b string) string {
	if a == "" {
		return b
	}
	return a + "\n" + b
}

func infraErr(err error, platform string) *runner.ErrorInfo {
	return &runner.ErrorInfo{Code: runner.CodeDeviceNotFound, Reason: drivers.ReasonInfrastructure,
		Message: fmt.Sprintf("Could not start %s %s session: %v", article(platform), platform, err), Hint: runner.DefaultHint(runner.CodeDeviceNotFound)}
}

// defaultScriptPath is <dir>/<session>-<createdAt>.ad (spec §5.1, adtest's directory).
func defaultScriptPath(dir, session string, created time.Time) string {
	safe := regexp.MustCompile(`[^A-Za-z0-9._-]`).ReplaceAllString(session, "_")
	ts := strings.NewReplacer(":", "-", ".", "-").Replace(created.UTC().Format("2006-01-02T15:04:05.000Z"))
	return filepath.Join(dir, safe+"-"+ts+".ad")
}
