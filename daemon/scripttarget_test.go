package daemon

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adtest/adtest/recorder"
)

func openRecording(t *testing.T, c *Client, path string) {
	t.Helper()
	open := cmd("", "open", "demo")
	open.SaveScript, open.ScriptPath = true, path
	mustOK(t, do(t, c, open))
}

// TestCloseAfterSaveScript: the file a session's own save-script wrote is
// updated by its close (it is not a foreign file); a file someone else put
// there since is refused without --force, and the session stays open.
func TestCloseAfterSaveScript(t *testing.T) {
	td := startDaemon(t, recordingConfig)
	c := td.client()
	path := filepath.Join(shortTemp(t), "flow.ad")
	openRecording(t, c, path)
	mustOK(t, do(t, c, cmd("", "click", "id=signin")))
	mustOK(t, do(t, c, cmd("", "wait", "text=\"Signed in\"", "1000")))
	mustOK(t, do(t, c, &Request{Op: OpSaveScript}))
	mustOK(t, do(t, c, &Request{Op: OpSaveScript})) // again: still its own file
	resp := mustOK(t, do(t, c, cmd("", "close")))
	if resp.Data["script"] != path {
		t.Fatalf("close data %v", resp.Data)
	}
	if b, _ := os.ReadFile(path); !strings.HasSuffix(string(b), "\nclose\n") {
		t.Fatalf("close did not update the saved script:\n%s", b)
	}

	// A foreign file where the session saved before: refused, session open.
	openRecording(t, c, path+"2")
	mustOK(t, do(t, c, cmd("", "click", "id=signin")))
	mustOK(t, do(t, c, cmd("", "wait", "text=\"Signed in\"", "1000")))
	mustOK(t, do(t, c, &Request{Op: OpSaveScript}))
	if err := os.Remove(path + "2"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path+"2", []byte("someone else's\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	wantReason(t, do(t, c, cmd("", "close")), "script_target_exists")
	mustOK(t, do(t, c, cmd("", "snapshot")))
	if b, _ := os.ReadFile(path + "2"); string(b) != "someone else's\n" {
		t.Fatalf("the foreign file was replaced: %q", b)
	}
	cl := cmd("", "close")
	cl.Force = true
	mustOK(t, do(t, c, cl))
}

// TestCloseDirectoryTargetKeepsSession: a directory where the recording
// goes is refused before the session closes, --force or not, so the
// recording is not lost; another path then works.
func TestCloseDirectoryTargetKeepsSession(t *testing.T) {
	td := startDaemon(t, recordingConfig)
	c := td.client()
	dir := shortTemp(t)
	path := filepath.Join(dir, "flow.ad")
	openRecording(t, c, path)
	mustOK(t, do(t, c, cmd("", "click", "id=signin")))
	if err := os.Mkdir(path, 0o755); err != nil { // appears meanwhile
		t.Fatal(err)
	}
	for _, force := range []bool{false, true} {
		cl := cmd("", "close")
		cl.Force = force
		r := do(t, c, cl)
		wantReason(t, r, "script_target_is_directory")
		if !strings.Contains(r.Error.Hint, "--save-script=") {
			t.Errorf("hint %q", r.Error.Hint)
		}
	}
	mustOK(t, do(t, c, cmd("", "snapshot")))
	cl := cmd("", "close")
	cl.ScriptPath = filepath.Join(dir, "other.ad")
	mustOK(t, do(t, c, cl))
	if b, _ := os.ReadFile(filepath.Join(dir, "other.ad")); !strings.Contains(string(b), "click ") {
		t.Fatalf("recording:\n%s", b)
	}
}

// TestCloseKeepsRecordingWhenPublishFails: a write that fails after the
// session is gone keeps the recording in the script directory and says where.
func TestCloseKeepsRecordingWhenPublishFails(t *testing.T) {
	scripts := shortTemp(t)
	td := startDaemon(t, func(c *Config) {
		recordingConfig(c)
		c.ScriptDir = scripts
		c.WriteScript = func(path string, b []byte, force bool) error {
			if filepath.Base(path) == "full.ad" {
				return errors.New("no space left on device")
			}
			return recorder.WriteFile(path, b, force)
		}
	})
	c := td.client()
	openRecording(t, c, filepath.Join(shortTemp(t), "full.ad"))
	mustOK(t, do(t, c, cmd("", "click", "id=signin")))
	r := do(t, c, cmd("", "close"))
	wantReason(t, r, "script_write_failed")
	kept, _ := r.Error.Details["keptAt"].(string)
	if kept == "" || filepath.Dir(kept) != scripts || !strings.Contains(r.Error.Message, "recording was kept at "+kept) || !strings.Contains(r.Error.Hint, "mv "+kept) {
		t.Fatalf("error %+v", r.Error)
	}
	if b, err := os.ReadFile(kept); err != nil || !strings.Contains(string(b), "click ") {
		t.Fatalf("kept recording %q: %v", b, err)
	}
}

// TestOpenRefusesDirectoryTarget: open --save-script=DIR is refused up
// front and leaves no session.
func TestOpenRefusesDirectoryTarget(t *testing.T) {
	td := startDaemon(t, recordingConfig)
	c := td.client()
	dir := shortTemp(t)
	open := cmd("", "open", "demo")
	open.SaveScript, open.ScriptPath = true, dir
	wantReason(t, do(t, c, open), "script_target_is_directory")
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	open.ScriptPath = filepath.Join(file, "x.ad")
	wantReason(t, do(t, c, open), "script_target_unwritable")
	list := mustOK(t, do(t, c, &Request{Op: OpSessions}))
	if b, _ := json.Marshal(list.Data["sessions"]); strings.Contains(string(b), `"default"`) {
		t.Fatalf("session left: %s", b)
	}
}
