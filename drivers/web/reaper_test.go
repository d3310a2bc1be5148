package web

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/adtest/adtest/internal/proc"
)

// startHelper starts a process that runs with profile dir until its stdin
// closes, as a browser of a dead daemon would.
func startHelper(t *testing.T, dir string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("sh", "-c", "read x", "sh", profilePrefix(dir))
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(); cmd.Wait() })
	return cmd
}

func TestHelpersOfNamesDescendantsAndProfiles(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "profile")
	cmd := startHelper(t, dir)
	h := HelpersOf(os.Getpid())
	self, _ := proc.Stat(cmd.Process.Pid)
	if !slices.Contains(h.Procs, HelperProc{PID: cmd.Process.Pid, Start: self.Start}) {
		t.Errorf("HelpersOf(self).Procs = %v, want the child %d (start %d)", h.Procs, cmd.Process.Pid, self.Start)
	}
	if !slices.Contains(h.Profiles, dir) {
		t.Errorf("HelpersOf(self).Profiles = %q, want %s", h.Profiles, dir)
	}
}

// The record is sessions.json's "helpers" object, as daemons before the
// reaper moved into drivers/web wrote it: a new daemon reaps an old one's.
func TestReaperReapsARecord(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "profile")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	cmd := startHelper(t, dir)
	p, ok := proc.Stat(cmd.Process.Pid)
	if !ok {
		t.Fatal("the helper is not in /proc")
	}
	record := fmt.Sprintf(`{"procs":[{"pid":%d,"start":%d}],"profiles":[%q]}`, p.PID, p.Start, dir)
	if n := (Reaper{}).Reap(json.RawMessage(record)); n < 1 {
		t.Errorf("Reap killed %d processes, want the helper", n)
	}
	if err := cmd.Wait(); err == nil {
		t.Error("the helper exited on its own, want it killed")
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the profile is still there: %v", err)
	}
}

// A recorded pid whose start time differs is another process now: Reap
// leaves it alone.
func TestReapSparesAReusedPID(t *testing.T) {
	t.Parallel()
	cmd := startHelper(t, filepath.Join(t.TempDir(), "other"))
	p, _ := proc.Stat(cmd.Process.Pid)
	if n := Reap(Helpers{Procs: []HelperProc{{PID: p.PID, Start: p.Start + 1}}}); n != 0 {
		t.Errorf("Reap killed %d processes, want none", n)
	}
	if q, ok := proc.Stat(cmd.Process.Pid); !ok || !q.Live() {
		t.Errorf("the process is gone: %+v", q)
	}
	if got := (Reaper{}).Reap(json.RawMessage(`{"procs":`)); got != 0 {
		t.Errorf("an unreadable record reaped %d", got)
	}
}
