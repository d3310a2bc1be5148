// Package html renders a run's Result as a static, self-contained HTML report:
// one index.html with the page's styles, script and data inlined (assets are
// embedded in the binary), plus the failure screenshots copied next to it
// under data/. It needs no network and works from file:// and from a
// downloaded CI artifact.
//
// Like every reporter it is a pure renderer: it reads the Result and, through
// Options.ReadFile, the artifacts the Result names; cmd decides where they
// live and where the report goes.
package html

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/adtest/adtest/runner"
	"github.com/adtest/adtest/runner/trace"
)

//go:embed assets/index.html
var pageHTML string

//go:embed assets/report.css
var reportCSS string

//go:embed assets/trace.css
var traceCSS string

var pageCSS = reportCSS + traceCSS

//go:embed assets/report.js
var reportJS string

//go:embed assets/trace.js
var traceJS string

// pageJS is the page's script: the trace viewer first (report.js calls it).
var pageJS = traceJS + "\n" + reportJS

//go:embed assets/repair.js
var repairJS string

// DefaultDir is where `--reporter html` writes without a path.
const DefaultDir = ".adtest/report"

// Options control a report.
type Options struct {
	// Title heads the page ("adtest report" when empty).
	Title string
	// ReadFile reads an artifact named in the Result (a screenshot, an
	// attempt's script.ad, snapshot.txt, log.txt), by the path the Result
	// gives. nil: no artifact is read and the report shows the Result alone.
	ReadFile func(name string) ([]byte, error)
}

// Limits on what an attempt carries into the page.
const (
	sourceContext = 3         // lines shown either side of the failing line
	maxTextBytes  = 256 << 10 // snapshot and log text, each
)

// File is one file of a report, by its slash-separated path below the
// report's directory.
type File struct {
	Name string
	Data []byte
}

// Render builds the report: index.html first, then every data/ file.
func Render(r *runner.Result, opts Options) ([]File, error) {
	b := builder{opts: opts, files: map[string][]byte{}}
	rep := b.report(r)
	data, err := json.Marshal(rep)
	if err != nil {
		return nil, err
	}
	var page bytes.Buffer
	if err := writePage(&page, rep.Title, data); err != nil {
		return nil, err
	}
	out := []File{{Name: "index.html", Data: page.Bytes()}}
	names := make([]string, 0, len(b.files))
	for n := range b.files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		out = append(out, File{Name: n, Data: b.files[n]})
	}
	return out, nil
}

// writePage fills the page template: the title, the inlined CSS and JS, and
// the data as JSON (encoding/json escapes <, > and &, so the JSON cannot end
// its script element).
func writePage(w io.Writer, title string, data []byte) error {
	r := strings.NewReplacer("{{TITLE}}", htmlEscape(title), "{{CSS}}", pageCSS, "{{JS}}", pageJS, "{{REPAIR_JS}}", repairJS)
	head, tail, ok := strings.Cut(pageHTML, "{{DATA}}")
	if !ok {
		return fmt.Errorf("html report template has no {{DATA}} marker")
	}
	if _, err := io.WriteString(w, r.Replace(head)); err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		return err
	}
	_, err := io.WriteString(w, r.Replace(tail))
	return err
}

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}

// The page's data. Field names are short but spelled out; report.js reads them.
type report struct {
	Title       string       `json:"title"`
	StartedAt   string       `json:"startedAt"`
	DurationMs  int64        `json:"durationMs"`
	Stats       runner.Stats `json:"stats"`
	Shards      []string     `json:"shards"`
	Platforms   []string     `json:"platforms"`
	Workers     int          `json:"workers"`
	Interrupted bool         `json:"interrupted"`
	Tests       []test       `json:"tests"`
}

type test struct {
	ID         string    `json:"id"`
	File       string    `json:"file"`
	Name       string    `json:"name"`
	Platform   string    `json:"platform"`
	Status     string    `json:"status"`
	DurationMs int64     `json:"durationMs"`
	Reason     string    `json:"reason,omitempty"`
	Attempts   []attempt `json:"attempts"`
}

type attempt struct {
	Status     string `json:"status"`
	DurationMs int64  `json:"durationMs"`
	Worker     int    `json:"worker"`
	Device     string `json:"device,omitempty"`
	Shard      string `json:"shard,omitempty"`
	// StartMs is the attempt's start relative to the run's; -1 unknown.
	StartMs      int64             `json:"startMs"`
	ArtifactsDir string            `json:"artifactsDir,omitempty"`
	Steps        []step            `json:"steps"`
	Error        *runner.ErrorInfo `json:"error,omitempty"`
	// Source is the script around the failing line (masked: read from the
	// attempt's script.ad artifact).
	Source []sourceLine `json:"source,omitempty"`
	// Screenshot is the copied image below the report; ScreenshotPath the
	// original path when it could not be copied.
	Screenshot     string   `json:"screenshot,omitempty"`
	ScreenshotPath string   `json:"screenshotPath,omitempty"`
	Snapshot       string   `json:"snapshot,omitempty"`
	Log            string   `json:"log,omitempty"`
	Warnings       []string `json:"warnings,omitempty"`
	// Trace is the attempt's trace (trace.go), its pictures under data/.
	Trace *trace.Data `json:"trace,omitempty"`
	// Repair is --repair's suggestion (repair.js draws it).
	Repair *runner.RepairReport `json:"repair,omitempty"`
}

type step struct {
	Step       int    `json:"step"`
	Line       int    `json:"line"`
	Command    string `json:"command"`
	Action     string `json:"action"`
	Status     string `json:"status"`
	DurationMs int64  `json:"durationMs"`
	Warning    string `json:"warning,omitempty"`
}

type sourceLine struct {
	N    int    `json:"n"`
	Text string `json:"text"`
}

type builder struct {
	opts  Options
	files map[string][]byte // data/ files by name
}

func (b *builder) report(r *runner.Result) report {
	title := b.opts.Title
	if title == "" {
		title = "adtest report"
	}
	rep := report{
		Title:       title,
		DurationMs:  r.DurationMs,
		Stats:       r.Stats,
		Interrupted: r.Interrupted,
		Tests:       make([]test, 0, len(r.Tests)),
		Shards:      []string{},
		Platforms:   []string{},
	}
	if !r.StartedAt.IsZero() {
		rep.StartedAt = r.StartedAt.UTC().Format(time.RFC3339)
	}
	shards := map[string]bool{}
	platforms := map[string]bool{}
	workers := map[string]bool{}
	if r.Shard != "" {
		shards[r.Shard] = true
	}
	for i, t := range r.Tests {
		tv := test{
			ID: fmt.Sprintf("t%d", i+1), File: t.File, Name: t.Name, Platform: t.Platform,
			Status: string(t.Status), DurationMs: t.DurationMs, Reason: t.Reason,
			Attempts: make([]attempt, 0, len(t.Attempts)),
		}
		if t.Platform != "" {
			platforms[t.Platform] = true
		}
		for _, a := range t.Attempts {
			if a.Shard != "" {
				shards[a.Shard] = true
			}
			workers[fmt.Sprintf("%s/%d", a.Shard, a.Worker)] = true
			tv.Attempts = append(tv.Attempts, b.attempt(r, a))
		}
		rep.Tests = append(rep.Tests, tv)
	}
	rep.Shards = sortedKeys(shards)
	rep.Platforms = sortedKeys(platforms)
	rep.Workers = len(workers)
	return rep
}

func (b *builder) attempt(r *runner.Result, a runner.AttemptResult) attempt {
	av := attempt{
		Status: string(a.Status), DurationMs: a.DurationMs, Worker: a.Worker, Device: a.Device,
		Shard: a.Shard, ArtifactsDir: a.ArtifactsDir, Error: a.Error, Warnings: a.Warnings,
		StartMs: -1, Steps: make([]step, 0, len(a.Steps)), Repair: b.repair(a.Repair),
	}
	if st := a.StartedAt; !st.IsZero() && !r.StartedAt.IsZero() {
		av.StartMs = max(st.Sub(r.StartedAt).Milliseconds(), 0)
	}
	var src []string
	if a.ArtifactsDir != "" {
		if data, ok := b.read(joinPath(a.ArtifactsDir, "script.ad")); ok {
			src = strings.Split(strings.TrimRight(string(data), "\n"), "\n")
		}
	}
	for _, s := range a.Steps {
		av.Steps = append(av.Steps, step{
			Step: s.Step, Line: s.Line, Command: s.Command, Action: actionText(s, src),
			Status: string(s.Status), DurationMs: s.DurationMs, Warning: s.Warning,
		})
	}
	if a.Error != nil && a.Error.Line > 0 && len(src) > 0 {
		lo, hi := max(a.Error.Line-sourceContext, 1), min(a.Error.Line+sourceContext, len(src))
		for n := lo; n <= hi; n++ {
			av.Source = append(av.Source, sourceLine{N: n, Text: src[n-1]})
		}
	}
	if a.Screenshot != "" {
		// Only a PNG is copied; the page names any other file by its path.
		if av.Screenshot = b.embed(a.Screenshot, pngPicture); av.Screenshot == "" {
			av.ScreenshotPath = a.Screenshot
		}
	}
	av.Trace = b.trace(a.Trace)
	if a.ArtifactsDir != "" && a.Status != runner.StatusPassed {
		if data, ok := b.read(joinPath(a.ArtifactsDir, "snapshot.txt")); ok {
			av.Snapshot = clip(data)
		}
		if data, ok := b.read(joinPath(a.ArtifactsDir, "log.txt")); ok {
			av.Log = clip(data)
		}
	}
	return av
}

// actionText is the step's action: the masked action text of the result,
// else (a result written before steps carried it) the masked source line of
// the step from the attempt's script.ad, else the command name.
func actionText(s runner.StepResult, src []string) string {
	if s.Action != "" {
		return s.Action
	}
	if s.Line > 0 && s.Line <= len(src) {
		if t := strings.TrimSpace(src[s.Line-1]); t != "" {
			return t
		}
	}
	return s.Command
}

func (b *builder) read(name string) ([]byte, bool) {
	if b.opts.ReadFile == nil || name == "" {
		return nil, false
	}
	data, err := b.opts.ReadFile(name)
	return data, err == nil
}

func clip(data []byte) string {
	if len(data) > maxTextBytes {
		data = append(data[:maxTextBytes:maxTextBytes], "\n… (clipped)"...)
	}
	return strings.ToValidUTF8(string(data), "\uFFFD")
}

func joinPath(dir, name string) string { return strings.TrimRight(dir, "/") + "/" + name }

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		if k != "" {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}
