// Package grid runs the example suite on a real Selenium Grid 4 (a hub and
// two nodes on loopback, started once for the package by TestMain) with
// `adtest run --grid`, and checks from the Grid's own API where the
// sessions ran and that none is left: after a run, after an interrupt, and
// after a node was killed mid-run.
package grid

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/adtest/adtest/internal/testsupport/gridtest"
	"github.com/adtest/adtest/reporters"
	"github.com/adtest/adtest/runner"
)

var (
	grid   *gridtest.Grid
	adtest string // the binary under test
	jar    string
)

const slots = 2 // a node's sessions

func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "adtest-grid-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	adtest = filepath.Join(dir, "adtest")
	build := exec.Command("go", "build", "-o", adtest, "../../cmd/adtest")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building adtest:", err)
		return 1
	}
	jar = gridtest.JarFile(os.Getenv)
	grid, err = gridtest.Start(context.Background(), jar, dir, 2, slots)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gridtest:", err)
		for _, name := range []string{"hub.log", "node1.log", "node2.log"} {
			b, _ := os.ReadFile(filepath.Join(dir, name))
			if len(b) > 3000 {
				b = b[len(b)-3000:]
			}
			fmt.Fprintf(os.Stderr, "--- %s (end)\n%s\n", name, b)
		}
		return 1
	}
	defer grid.Close()
	return m.Run()
}

// start runs adtest on the Grid with the example suite and its app.
func start(t *testing.T, extra ...string) (*exec.Cmd, *strings.Builder, string) {
	t.Helper()
	// A node a test killed is replaced in the background (-count N).
	if err := grid.Ready(context.Background()); err != nil {
		t.Fatal(err)
	}
	suite, err := filepath.Abs("../web/suite")
	if err != nil {
		t.Fatal(err)
	}
	cwd := t.TempDir()
	result := filepath.Join(cwd, "result.json")
	args := append([]string{"run", "--grid", grid.URL, "--serve-example", "-j", "4",
		"--reporter", "console", "--reporter", "json=" + result, "--trace", "off"}, extra...)
	cmd := exec.Command(adtest, append(args, suite)...)
	cmd.Dir = cwd
	out := &strings.Builder{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	return cmd, out, result
}

// wait waits for adtest to exit, bounded, and returns its exit code.
func wait(t *testing.T, cmd *exec.Cmd, out *strings.Builder) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Minute):
		cmd.Process.Kill()
		<-done
		t.Fatalf("adtest did not finish within 10 minutes:\n%s", out)
	}
	return cmd.ProcessState.ExitCode()
}

// noneLeft fails the test when a session adtest asked for outlives it: a
// session the hub lists, a queued request, or a slot reserved for a session
// its node is creating. The hub learns of an ended session from its node's
// events, a moment after the DELETE was answered, so its view is given a
// few seconds to settle (far below the Grid's 300 s session timeout, which
// a real leak would wait for); if the hub still lists sessions then, the
// nodes themselves are asked, as they run the browsers.
func noneLeft(t *testing.T) bool {
	t.Helper()
	ctx := context.Background()
	settle, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	var nodes []string
	var queued, reserved int
	for {
		var err error
		if nodes, queued, err = grid.Sessions(ctx); err != nil {
			t.Fatalf("asking the Grid: %v", err)
		}
		if reserved, err = grid.Reserved(ctx); err != nil {
			t.Fatalf("asking the Grid: %v", err)
		}
		if len(nodes) == 0 && queued == 0 && reserved == 0 {
			return true
		}
		select {
		case <-tick.C:
			continue
		case <-settle.Done():
		}
		break
	}
	held := 0
	for _, n := range grid.Nodes {
		h, err := n.Held(ctx)
		if err != nil {
			t.Fatalf("asking node %s: %v", n.URI, err)
		}
		held += h
	}
	if held == 0 && queued == 0 && reserved == 0 {
		t.Logf("the hub still lists %d session(s) (on %v) that no node holds: its view lags the DELETEs", len(nodes), nodes)
		return true
	}
	t.Errorf("after adtest exited the nodes hold %d session(s) (the hub lists %d, on %v), %d request(s) are queued and %d slot(s) reserved",
		held, len(nodes), nodes, queued, reserved)
	return false
}

// until polls the Grid's sessions until ok says so, bounded.
func until(t *testing.T, what string, ok func(nodes []string) bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		if nodes, _, err := grid.Sessions(ctx); err == nil && ok(nodes) {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the Grid never had %s", what)
		case <-tick.C:
		}
	}
}

func readResult(t *testing.T, path, out string) runner.Stats {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("no result: %v\n%s", err, out)
	}
	defer f.Close()
	res, err := reporters.ReadJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	return res.Stats
}

// TestSuiteOnTwoNodes: -j 4 takes four sessions, which the Grid spreads over
// both nodes; the suite passes; no session is left.
func TestSuiteOnTwoNodes(t *testing.T) {
	before, err := grid.Started(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	cmd, out, result := start(t)
	if code := wait(t, cmd, out); code != 0 {
		t.Fatalf("exit %d, want 0:\n%s", code, out)
	}
	after, err := grid.Started(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range grid.Nodes {
		if !after[n.URI].After(before[n.URI]) {
			t.Errorf("no session started on node %s (last %v)", n.URI, after[n.URI])
		}
	}
	if st := readResult(t, result, out.String()); st.Passed != st.Total {
		t.Errorf("stats %+v, want all passed:\n%s", st, out)
	}
	noneLeft(t)
}

// TestInterruptEndsEverySession: SIGINT while the workers hold their
// sessions ends the run (130) with none left on the Grid.
func TestInterruptEndsEverySession(t *testing.T) {
	cmd, out, _ := start(t, "--repeat-each", "3", "--debug")
	until(t, "two sessions", func(nodes []string) bool { return len(nodes) >= 2 })
	cmd.Process.Signal(syscall.SIGINT)
	if code := wait(t, cmd, out); code != 130 {
		t.Errorf("exit %d, want 130:\n%s", code, out)
	}
	if !noneLeft(t) {
		// What adtest did with its Grid sessions (--debug).
		var lines []string
		for _, l := range strings.Split(out.String(), "\n") {
			if strings.Contains(l, "Grid") {
				lines = append(lines, l)
			}
		}
		t.Logf("adtest's Grid lines:\n%s", strings.Join(lines, "\n"))
	}
}

// TestNodeKilledMidRun: a node dies (SIGKILL to it, its chromedriver and its
// browsers) while sessions run on it; the tests it ran are run again on the
// other node, the run is green (those tests flaky), and no session is left.
// The node is replaced afterwards for the tests that follow.
func TestNodeKilledMidRun(t *testing.T) {
	victim := grid.Nodes[1]
	t.Cleanup(func() {
		if err := grid.Replace(jar, 1, slots); err != nil {
			t.Errorf("replacing the killed node: %v", err)
		}
	})
	cmd, out, result := start(t, "--repeat-each", "2")
	until(t, "sessions on both nodes", func(nodes []string) bool {
		on := map[string]bool{}
		for _, n := range nodes {
			on[n] = true
		}
		return on[grid.Nodes[0].URI] && on[victim.URI]
	})
	victim.Kill()
	if code := wait(t, cmd, out); code != 0 {
		t.Errorf("exit %d, want 0 (the lost node's tests flaky):\n%s", code, out)
	}
	st := readResult(t, result, out.String())
	if st.Failed != 0 || st.TimedOut != 0 || st.NotRun != 0 || st.Passed+st.Flaky != st.Total {
		t.Errorf("stats %+v, want every test passed (flaky when it ran on the lost node):\n%s", st, out)
	}
	t.Logf("%d test(s) flaky, run again after the node was lost", st.Flaky)
	// The live node holds nothing of the run; the sessions the Grid still
	// lists on the dead node (it answers no DELETE) go when the Grid drops
	// the node.
	nodes, _, err := grid.Sessions(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range nodes {
		if n != victim.URI {
			t.Errorf("after adtest exited the Grid holds a session on the live node %s", n)
		}
	}
	until(t, "no session left once it dropped the dead node", func(nodes []string) bool { return len(nodes) == 0 })
}
