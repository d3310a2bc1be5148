package suite

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/runner"
)

// NewRunID returns a run id that sorts by time and does not repeat:
// 20261130-142300-3f9a.
func NewRunID(now time.Time) string {
	var b [2]byte
	rand.Read(b[:])
	return now.UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}

// Slug turns a path or a name into a directory name: lower-cased, path
// separators become "__", characters outside [a-z0-9._-] become "-", edge
// dashes trimmed, "test" when empty.
func Slug(p string) string {
	p = strings.ToLower(filepath.ToSlash(p))
	p = strings.ReplaceAll(p, "/", "__")
	var b strings.Builder
	for _, r := range p {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	s := strings.Trim(b.String(), "-")
	if s == "" || s == "." || s == ".." {
		return "test"
	}
	return s
}

// artifacts is one attempt's directory. Write errors are recorded as attempt
// warnings by the caller's result; an artifact never fails a test.
type artifacts struct {
	dir  string
	mask *drivers.Masker
	errs []string
}

// newArtifacts creates <run>/[shard-k/]<slug>/attempt-<a>/. An existing
// directory is never reused (two files whose slugs clash, or a run dir used
// twice): a suffix ~2, ~3, ... is added instead, "the second directory of
// that name", which cannot read as "attempt 1 of 2" the way -2 did.
func (s *scheduler) newArtifacts(t *Test, ai attemptInfo, mask *drivers.Masker) *artifacts {
	a := &artifacts{mask: mask}
	if s.cfg.RunDir == "" {
		return a
	}
	base := s.cfg.RunDir
	if s.cfg.Shard.Enabled() {
		base = filepath.Join(base, fmt.Sprintf("shard-%d", s.cfg.Shard.Index))
	}
	parent := filepath.Join(base, Slug(t.File))
	if t.RepeatOf > 1 {
		parent = filepath.Join(parent, fmt.Sprintf("repeat-%d", t.Repeat))
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		a.errs = append(a.errs, err.Error())
		return a
	}
	name := fmt.Sprintf("attempt-%d", ai.attempt)
	for k := 1; k < 1000; k++ {
		d := filepath.Join(parent, name)
		if k > 1 {
			d = fmt.Sprintf("%s~%d", d, k)
		}
		err := os.Mkdir(d, 0o755)
		if err == nil {
			a.dir = d
			return a
		}
		if !errors.Is(err, os.ErrExist) {
			a.errs = append(a.errs, err.Error())
			return a
		}
	}
	return a
}

func (a *artifacts) write(name string, data []byte) string {
	if a.dir == "" {
		return ""
	}
	p := filepath.Join(a.dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		a.errs = append(a.errs, err.Error())
		return ""
	}
	return p
}

func (a *artifacts) writeScript(src []byte) { a.write("script.ad", a.mask.Bytes(src)) }

func (a *artifacts) writeResult(ar *runner.AttemptResult) {
	// ar is already masked field by field; masking the encoded bytes could
	// corrupt numbers that happen to contain a short secret.
	b, _ := json.MarshalIndent(ar, "", "  ")
	a.write("result.json", append(b, '\n'))
}

// evidence saves the failure screenshot, the last snapshot and the log
// tail, as the attempt's session gives them.
func (a *artifacts) evidence(ctx context.Context, rep Replayer, format SnapshotFormatter, ar *runner.AttemptResult) {
	if a.dir == "" || rep == nil {
		return
	}
	// Secrets typed into the page are painted over in the picture too.
	ev := rep.Evidence(ctx, a.mask.Values())
	if ev.ScreenshotErr == nil && len(ev.Screenshot) > 0 {
		ar.Screenshot = a.write("failure.png", ev.Screenshot)
	} else if ev.ScreenshotErr != nil {
		ar.Warnings = append(ar.Warnings, "failure screenshot: "+ev.ScreenshotErr.Error())
	}
	if snap := ev.Snapshot; snap != nil {
		a.write("snapshot.txt", a.mask.Bytes([]byte(format(snap))))
		b, _ := json.MarshalIndent(a.mask.Snapshot(snap), "", "  ")
		a.write("snapshot.json", append(b, '\n'))
	}
	if ev.HasLog {
		a.write("log.txt", a.mask.Bytes([]byte(strings.Join(ev.Log, "\n")+"\n")))
	}
}

func (a *artifacts) timing() *timingWriter {
	tw := &timingWriter{mask: a.mask}
	if a.dir != "" {
		f, err := os.Create(filepath.Join(a.dir, "timing.ndjson"))
		if err == nil {
			tw.f = f
		}
	}
	return tw
}

// timingWriter writes timing.ndjson: attempt_start, step_start/step_stop per
// step, attempt_stop.
type timingWriter struct {
	mu   sync.Mutex
	f    *os.File
	mask *drivers.Masker
}

func (tw *timingWriter) write(v map[string]any) {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	if tw.f == nil {
		return
	}
	for k, x := range v {
		if str, ok := x.(string); ok {
			v[k] = tw.mask.String(str)
		}
	}
	b, _ := json.Marshal(v)
	tw.f.Write(append(b, '\n'))
}

// driverEvent is the line of a driver's own event, after the step it served
// ("event" names its source, which keys its kind: "helper": "reused").
func (tw *timingWriter) driverEvent(step int, e drivers.Event) {
	m := map[string]any{"event": e.Source, "ts": e.Time, "device": e.Device, "command": e.Command, string(e.Source): e.Kind, "step": step}
	if e.Reason != "" {
		m["reason"] = e.Reason
	}
	tw.write(m)
}

func (tw *timingWriter) step(now time.Time, ev runner.StepEvent, finished bool) {
	m := map[string]any{"ts": now, "step": ev.Step, "line": ev.Line, "command": ev.Command}
	if finished {
		m["event"] = "step_stop"
		m["status"] = ev.Status
		m["durationMs"] = ev.Duration.Milliseconds()
		if ev.Error != nil {
			m["errorCode"] = ev.Error.Code
		}
	} else {
		m["event"] = "step_start"
	}
	tw.write(m)
}

// timingHook is the step hook that writes timing.ndjson: a line when a step
// starts, one when it ends, then the driver's own events of the step
// (drivers.EventFrom.OwnMachinery, drained by the session).
type timingHook struct {
	runner.NoStepHook
	tw  *timingWriter
	now func() time.Time
}

func (h timingHook) BeginStep(_ context.Context, st *runner.HookStep) {
	h.tw.step(h.now(), st.Record.Event(), false)
}

func (h timingHook) EndStep(_ context.Context, st *runner.HookStep) {
	ev := st.Record.Event()
	h.tw.step(h.now(), ev, true)
	for _, e := range ev.Events {
		if e.Source.OwnMachinery() {
			h.tw.driverEvent(ev.Step, e)
		}
	}
}

func (tw *timingWriter) close() {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	if tw.f != nil {
		tw.f.Close()
		tw.f = nil
	}
}
