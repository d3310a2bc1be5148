package html

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/adtest/adtest/runner"
)

var start = time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC)

// fixture is a result with a failed test (screenshot, snapshot, log,
// script), a flaky one, a passed one in another shard, and a skipped one;
// files holds the artifacts it names.
func fixture() (*runner.Result, map[string][]byte) {
	files := map[string][]byte{
		"art/cart/attempt-1/script.ad":    []byte("context platform=web\nopen ${AD_BASE_URL}\nfill id=pw ***\nclick \"label=Buy\"\nwait \"Thanks\"\n"),
		"art/cart/attempt-1/failure.png":  []byte("\x89PNG\r\n\x1a\n fake"),
		"art/cart/attempt-1/snapshot.txt": []byte("[button] \"Pay\"\n"),
		"art/cart/attempt-1/log.txt":      []byte("console.error: boom\n"),
	}
	ok := runner.StatusPassed
	return &runner.Result{
		Version: 1, StartedAt: start, DurationMs: 4000,
		Stats: runner.Stats{Total: 4, Passed: 1, Failed: 1, Flaky: 1, Skipped: 1},
		Tests: []runner.TestResult{
			{File: "suite/cart.ad", Name: "cart", Platform: "web", Status: runner.StatusFailed, DurationMs: 1500,
				Attempts: []runner.AttemptResult{{
					Status: runner.StatusFailed, StartedAt: start.Add(500 * time.Millisecond), DurationMs: 1500, Shard: "1/2",
					ArtifactsDir: "art/cart/attempt-1", Screenshot: "art/cart/attempt-1/failure.png",
					Steps: []runner.StepResult{
						{Step: 1, Line: 2, Command: "open", Action: "open about:blank", Status: ok, DurationMs: 300},
						{Step: 2, Line: 3, Command: "fill", Status: ok, DurationMs: 20},
						{Step: 3, Line: 4, Command: "click", Status: runner.StatusFailed, DurationMs: 1000},
					},
					Error: &runner.ErrorInfo{Code: "REPLAY_DIVERGENCE", Reason: "selector_not_found", Message: "no Buy",
						Hint: "check the selector", Step: 3, Line: 4, Command: "click",
						Details: map[string]any{"divergence": map[string]any{"kind": "selector-miss",
							"suggestions": []any{map[string]any{"selector": "label=Pay", "basis": "label"}}}}},
				}}},
			{File: "suite/flaky.ad", Name: "flaky </script><b>", Platform: "web", Status: runner.StatusFlaky, DurationMs: 900,
				Attempts: []runner.AttemptResult{
					{Status: runner.StatusFailed, DurationMs: 400, Shard: "1/2", ArtifactsDir: "gone/attempt-1", Screenshot: "gone/attempt-1/failure.png",
						Error: &runner.ErrorInfo{Code: "COMMAND_FAILED", Reason: "timeout", Message: "late", Line: 3, Step: 2}},
					{Status: ok, DurationMs: 500, Shard: "1/2"},
				}},
			{File: "suite/home.ad", Name: "home", Platform: "web", Status: ok, DurationMs: 200,
				Attempts: []runner.AttemptResult{{Status: ok, DurationMs: 200, Shard: "2/2", Worker: 1, StartedAt: start.Add(time.Second)}}},
			{File: "nometa.ad", Name: "nometa", Status: runner.StatusSkipped, Reason: "missing platform metadata", Attempts: []runner.AttemptResult{}},
		},
	}, files
}

func readMap(files map[string][]byte) func(string) ([]byte, error) {
	return func(name string) ([]byte, error) {
		if b, ok := files[name]; ok {
			return b, nil
		}
		return nil, fs.ErrNotExist
	}
}

// pageData extracts and decodes the report's data from index.html.
func pageData(t *testing.T, page string) report {
	t.Helper()
	const open = `<script id="report-data" type="application/json">`
	_, rest, ok := strings.Cut(page, open)
	if !ok {
		t.Fatal("no report-data script in the page")
	}
	data, _, ok := strings.Cut(rest, "</script>")
	if !ok {
		t.Fatal("report-data script not closed")
	}
	var rep report
	if err := json.Unmarshal([]byte(data), &rep); err != nil {
		t.Fatalf("report data: %v", err)
	}
	return rep
}

func TestRender(t *testing.T) {
	r, files := fixture()
	out, err := Render(r, Options{ReadFile: readMap(files)})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 2 || out[0].Name != "index.html" || !strings.HasPrefix(out[1].Name, "data/") || string(out[1].Data) != "\x89PNG\r\n\x1a\n fake" {
		t.Fatalf("files = %v, want index.html and the copied screenshot", names(out))
	}
	page := string(out[0].Data)
	for _, marker := range []string{"{{TITLE}}", "{{CSS}}", "{{JS}}", "{{DATA}}"} {
		if strings.Contains(page, marker) {
			t.Errorf("page still holds %s", marker)
		}
	}
	if strings.Contains(page, "<b>") {
		t.Error("a test name reached the page as markup")
	}
	for _, banned := range []string{"http://", "https://"} {
		if strings.Contains(page, banned) {
			t.Errorf("page refers to %s...: the report must need no network", banned)
		}
	}
	rep := pageData(t, page)
	if rep.Title != "adtest report" || rep.StartedAt != "2026-01-02T10:00:00Z" || rep.Stats.Failed != 1 || len(rep.Tests) != 4 {
		t.Errorf("summary = %q %q %+v %d tests", rep.Title, rep.StartedAt, rep.Stats, len(rep.Tests))
	}
	if got, want := strings.Join(rep.Shards, ","), "1/2,2/2"; got != want {
		t.Errorf("shards = %s, want %s", got, want)
	}
	if got, want := strings.Join(rep.Platforms, ","), "web"; got != want {
		t.Errorf("platforms = %s, want %s", got, want)
	}
	cart := rep.Tests[0].Attempts[0]
	if cart.Screenshot != out[1].Name {
		t.Errorf("screenshot = %q, want %q", cart.Screenshot, out[1].Name)
	}
	if cart.StartMs != 500 {
		t.Errorf("startMs = %d, want 500", cart.StartMs)
	}
	var actions []string
	for _, s := range cart.Steps {
		actions = append(actions, s.Action)
	}
	if got, want := strings.Join(actions, " | "), `open about:blank | fill id=pw *** | click "label=Buy"`; got != want {
		t.Errorf("actions = %s\nwant      %s", got, want)
	}
	var src []string
	for _, l := range cart.Source {
		src = append(src, fmt.Sprintf("%d:%s", l.N, l.Text))
	}
	if got, want := strings.Join(src, " | "), `1:context platform=web | 2:open ${AD_BASE_URL} | 3:fill id=pw *** | 4:click "label=Buy" | 5:wait "Thanks"`; got != want {
		t.Errorf("source = %s\nwant     %s", got, want)
	}
	if cart.Snapshot != "[button] \"Pay\"\n" || cart.Log != "console.error: boom\n" {
		t.Errorf("snapshot %q, log %q", cart.Snapshot, cart.Log)
	}
	if cart.Error == nil || cart.Error.Details["divergence"] == nil {
		t.Error("the divergence report did not reach the page")
	}
	flaky := rep.Tests[1].Attempts[0]
	if flaky.Screenshot != "" || flaky.ScreenshotPath != "gone/attempt-1/failure.png" || flaky.StartMs != -1 {
		t.Errorf("missing artifact: screenshot %q, path %q, startMs %d", flaky.Screenshot, flaky.ScreenshotPath, flaky.StartMs)
	}
}

func TestRenderWithoutArtifacts(t *testing.T) {
	r, _ := fixture()
	out, err := Render(r, Options{Title: "nightly"})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 1 {
		t.Fatalf("files = %v, want index.html alone", names(out))
	}
	rep := pageData(t, string(out[0].Data))
	if rep.Title != "nightly" || rep.Tests[0].Attempts[0].Steps[2].Action != "click" {
		t.Errorf("title %q, action %q: want the command name when the script is not at hand", rep.Title, rep.Tests[0].Attempts[0].Steps[2].Action)
	}
}

func TestWriteDir(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, "data", "0123456789abcdef.png")
	mine := filepath.Join(dir, "data", "notes.png")
	for _, p := range []string{stale, mine} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, files := fixture()
	if err := WriteDir(dir, r, Options{ReadFile: readMap(files)}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "index.html")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("an earlier report's image was left: %v", err)
	}
	if _, err := os.Stat(mine); err != nil {
		t.Errorf("a file WriteDir did not write was removed: %v", err)
	}
	m, _ := filepath.Glob(filepath.Join(dir, "data", "*.png"))
	if len(m) != 2 {
		t.Errorf("data/ = %v, want the screenshot and notes.png", m)
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".index.html.tmp-*"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func names(fs []File) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Name)
	}
	return out
}

// TestRenderCopiesOnlyPNG: the result names the screenshot's path, and a
// merged result may come from anywhere: a file that is not a PNG is not
// copied into the report.
func TestRenderCopiesOnlyPNG(t *testing.T) {
	r := &runner.Result{Version: 1, Tests: []runner.TestResult{{File: "a.ad", Name: "a", Status: runner.StatusFailed,
		Attempts: []runner.AttemptResult{{Status: runner.StatusFailed, Screenshot: "/home/me/.ssh/id_ed25519"}}}}}
	out, err := Render(r, Options{ReadFile: readMap(map[string][]byte{"/home/me/.ssh/id_ed25519": []byte("-----BEGIN OPENSSH PRIVATE KEY-----")})})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 1 || strings.Contains(string(out[0].Data), "OPENSSH") {
		t.Fatalf("a non-PNG file reached the report: %v", names(out))
	}
	if a := pageData(t, string(out[0].Data)).Tests[0].Attempts[0]; a.Screenshot != "" || a.ScreenshotPath != "/home/me/.ssh/id_ed25519" {
		t.Errorf("screenshot %q, path %q", a.Screenshot, a.ScreenshotPath)
	}
}
