package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"flag"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/adtest/adtest/internal/testsupport/adbtest"
)

// TestMain lets testscript run the real adtest binary (this test binary
// re-executed as `adtest`, with main's signal handling) in scripts.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"adtest": main, "webserve": webserve, "adtest-fakedevice": fakedeviceMain})
}

// webserve DIR PORT serves DIR on 127.0.0.1:PORT until killed (the app
// server of --web-server tests).
func webserve() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: webserve DIR PORT")
		os.Exit(2)
	}
	err := http.ListenAndServe("127.0.0.1:"+os.Args[2], http.FileServer(http.Dir(os.Args[1])))
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}

// TestScripts runs testdata/script/*.txtar end to end. Scripts that need
// Chromium (web_*.txtar) fail when none is installed: CI must have one.
func TestScripts(t *testing.T) {
	testscript.Run(t, scriptParams("testdata/script"))
}

// scriptParams are the testscript parameters of the scripts in dir: the
// environment and the commands every script of this package may use.
func scriptParams(dir string) testscript.Params {
	update := false
	if f := flag.Lookup("update"); f != nil {
		update, _ = strconv.ParseBool(f.Value.String())
	}
	return testscript.Params{
		Dir:           dir,
		UpdateScripts: update,
		Setup: func(e *testscript.Env) error {
			e.Setenv("NO_COLOR", "1")
			// A free port for the scripts' own servers (--web-server, webserve,
			// a private adb server), out of the kernel's ephemeral range: one
			// from listen(:0) could be handed to another process before the
			// script binds it (see adbtest.FreePort).
			port, err := adbtest.FreePort()
			if err != nil {
				return err
			}
			e.Setenv("FREE_PORT", strconv.Itoa(port))
			// REPO is the module root, for scripts that run the bundled examples.
			if wd, err := os.Getwd(); err == nil {
				e.Setenv("REPO", filepath.Dir(filepath.Dir(wd)))
			}
			if p, err := exec.LookPath("chromium"); err == nil {
				e.Setenv("ADTEST_CHROME", p)
			}
			daemonSetup(e)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"jsonq":          cmdJSONQ,
			"waitfile":       cmdWaitFile,
			"artifacts":      cmdArtifacts,
			"cpname":         cmdCpName,
			"noleak":         cmdNoLeak,
			"catglob":        cmdCatGlob,
			"junitcheck":     cmdJUnitCheck,
			"waithttp":       cmdWaitHTTP,
			"crashdaemon":    cmdCrashDaemon,
			"exits":          cmdExits,
			"daemonprofiles": cmdDaemonProfiles,
			"profilesgone":   cmdProfilesGone,
			"mkfifo":         cmdMkfifo,
		},
	}
}

// jsonq FILE PATH...: prints the value at each dotted PATH (a * segment
// iterates an array), one per line.
func cmdJSONQ(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: jsonq FILE PATH...")
	}
	var doc any
	if err := json.Unmarshal([]byte(ts.ReadFile(args[0])), &doc); err != nil {
		ts.Fatalf("jsonq %s: %v", args[0], err)
	}
	for _, p := range args[1:] {
		for _, v := range jsonPath(doc, strings.Split(p, ".")) {
			switch x := v.(type) {
			case string:
				fmt.Fprintln(ts.Stdout(), x)
			default:
				b, _ := json.Marshal(x)
				fmt.Fprintln(ts.Stdout(), string(b))
			}
		}
	}
}

func jsonPath(v any, path []string) []any {
	if len(path) == 0 {
		return []any{v}
	}
	switch x := v.(type) {
	case map[string]any:
		if e, ok := x[path[0]]; ok {
			return jsonPath(e, path[1:])
		}
	case []any:
		if path[0] == "*" {
			var out []any
			for _, e := range x {
				out = append(out, jsonPath(e, path[1:])...)
			}
			return out
		}
		if i, err := strconv.Atoi(path[0]); err == nil && i >= 0 && i < len(x) {
			return jsonPath(x[i], path[1:])
		}
	}
	return []any{nil}
}

// waitfile GLOB: polls until a file matches GLOB (30 s deadline).
func cmdWaitFile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: waitfile GLOB")
	}
	pattern := ts.MkAbs(args[0])
	deadline := time.NewTimer(30 * time.Second)
	defer deadline.Stop()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		if m, _ := filepath.Glob(pattern); len(m) > 0 {
			return
		}
		select {
		case <-deadline.C:
			ts.Fatalf("waitfile: nothing matched %s within 30s", args[0])
		case <-tick.C:
		}
	}
}

var runIDPattern = regexp.MustCompile(`^\d{8}-\d{6}-[0-9a-f]{4}$`)

// artifacts DIR: lists the files under DIR, sorted, with each run-id
// directory replaced by RUN (so two runs list their files twice).
func cmdArtifacts(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: artifacts DIR")
	}
	root := ts.MkAbs(args[0])
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		parts := strings.Split(filepath.ToSlash(rel), "/")
		if runIDPattern.MatchString(parts[0]) {
			parts[0] = "RUN"
		}
		out = append(out, strings.Join(parts, "/"))
		return nil
	})
	ts.Check(err)
	sort.Strings(out)
	for _, l := range out {
		fmt.Fprintln(ts.Stdout(), l)
	}
}

// junitcheck FILE: FILE is JUnit XML in the shape Jenkins' JUnit plugin and
// Maven Surefire read: one <testsuites> with <testsuite> elements carrying
// name/tests/failures/errors/skipped/time/timestamp, whose counts match their
// <testcase> children (classname/name/file/time), each with at most one
// failure, error or skipped, and nothing else but Surefire's rerun elements
// and system-out. It prints "tests=T failures=F errors=E skipped=S flaky=K".
func cmdJUnitCheck(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: junitcheck FILE")
	}
	var doc jenkinsSuites
	if err := xml.Unmarshal([]byte(ts.ReadFile(args[0])), &doc); err != nil {
		ts.Fatalf("junitcheck: not well-formed: %v", err)
	}
	if len(doc.Raw) == 0 {
		ts.Fatalf("junitcheck: no <testsuite>")
	}
	var tests, failures, errs, skipped, flaky int
	for _, su := range doc.Raw {
		if su.Name == nil || su.Tests == nil || su.Failures == nil || su.Errors == nil || su.Skipped == nil || su.Time == nil || su.Timestamp == nil {
			ts.Fatalf("junitcheck: <testsuite> lacks an attribute Jenkins reads")
		}
		if _, err := time.Parse("2006-01-02T15:04:05", *su.Timestamp); err != nil {
			ts.Fatalf("junitcheck: timestamp %q is not ISO 8601", *su.Timestamp)
		}
		var f, e, sk int
		for _, c := range su.Cases {
			if c.Classname == nil || c.Name == nil || c.File == nil || c.Time == nil {
				ts.Fatalf("junitcheck: <testcase> lacks classname/name/file/time")
			}
			if _, err := strconv.ParseFloat(*c.Time, 64); err != nil {
				ts.Fatalf("junitcheck: time %q is not seconds", *c.Time)
			}
			if len(c.Failure)+len(c.Error)+len(c.Skipped) > 1 {
				ts.Fatalf("junitcheck: %s has more than one outcome element", *c.Name)
			}
			for _, p := range append(c.Failure, c.Error...) {
				if p.Message == nil || p.Type == nil {
					ts.Fatalf("junitcheck: failure/error of %s lacks message or type", *c.Name)
				}
			}
			for _, r := range append(c.Flaky, c.Rerun...) {
				if r.Message == nil || r.Type == nil || r.StackTrace == nil {
					ts.Fatalf("junitcheck: rerun element of %s lacks message, type or stackTrace", *c.Name)
				}
			}
			if len(c.Other) > 0 {
				ts.Fatalf("junitcheck: %s has an element Jenkins does not read: %s", *c.Name, c.Other[0].XMLName.Local)
			}
			f += len(c.Failure)
			e += len(c.Error)
			sk += len(c.Skipped)
			if len(c.Flaky) > 0 {
				flaky++
			}
		}
		if *su.Tests != len(su.Cases) || *su.Failures != f || *su.Errors != e || *su.Skipped != sk {
			ts.Fatalf("junitcheck: counts tests=%d failures=%d errors=%d skipped=%d do not match the testcases (%d, %d, %d, %d)",
				*su.Tests, *su.Failures, *su.Errors, *su.Skipped, len(su.Cases), f, e, sk)
		}
		tests += *su.Tests
		failures += f
		errs += e
		skipped += sk
	}
	fmt.Fprintf(ts.Stdout(), "tests=%d failures=%d errors=%d skipped=%d flaky=%d\n", tests, failures, errs, skipped, flaky)
}

// The JUnit schema Jenkins reads (with Surefire's rerun elements), declared
// independently of the reporter's own types.
type jenkinsSuites struct {
	XMLName xml.Name `xml:"testsuites"`
	Raw     []struct {
		Name      *string       `xml:"name,attr"`
		Tests     *int          `xml:"tests,attr"`
		Failures  *int          `xml:"failures,attr"`
		Errors    *int          `xml:"errors,attr"`
		Skipped   *int          `xml:"skipped,attr"`
		Time      *float64      `xml:"time,attr"`
		Timestamp *string       `xml:"timestamp,attr"`
		Cases     []jenkinsCase `xml:"testcase"`
	} `xml:"testsuite"`
}

type jenkinsCase struct {
	Classname *string          `xml:"classname,attr"`
	Name      *string          `xml:"name,attr"`
	File      *string          `xml:"file,attr"`
	Time      *string          `xml:"time,attr"`
	Failure   []jenkinsProblem `xml:"failure"`
	Error     []jenkinsProblem `xml:"error"`
	Skipped   []struct{}       `xml:"skipped"`
	Flaky     []jenkinsRerun   `xml:"flakyFailure"`
	Rerun     []jenkinsRerun   `xml:"rerunFailure"`
	SystemOut []string         `xml:"system-out"`
	Other     []struct {
		XMLName xml.Name
	} `xml:",any"`
}

type jenkinsProblem struct {
	Message *string `xml:"message,attr"`
	Type    *string `xml:"type,attr"`
}

type jenkinsRerun struct {
	Message    *string `xml:"message,attr"`
	Type       *string `xml:"type,attr"`
	StackTrace *string `xml:"stackTrace"`
}

// catglob GLOB: prints the content of the files matching GLOB (at least one).
func cmdCatGlob(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: catglob GLOB")
	}
	m, _ := filepath.Glob(ts.MkAbs(args[0]))
	if len(m) == 0 {
		ts.Fatalf("catglob: nothing matched %s", args[0])
	}
	for _, p := range m {
		b, err := os.ReadFile(p)
		ts.Check(err)
		ts.Stdout().Write(b)
	}
}

// noleak TEXT DIR...: fails when TEXT appears in any file under DIRs, or in
// the last command's stdout/stderr.
func cmdNoLeak(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: noleak TEXT DIR...")
	}
	secret := []byte(args[0])
	n := 0
	for _, dir := range args[1:] {
		filepath.WalkDir(ts.MkAbs(dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			n++
			if b, _ := os.ReadFile(p); bytes.Contains(b, secret) {
				ts.Fatalf("secret leaked into %s", p)
			}
			return nil
		})
	}
	if n == 0 {
		ts.Fatalf("noleak: no file under %v", args[1:])
	}
	for _, s := range []string{ts.ReadFile("stdout"), ts.ReadFile("stderr")} {
		if strings.Contains(s, args[0]) {
			ts.Fatalf("secret leaked into the command's output")
		}
	}
}

// TestRunInterruptedExit130 cancels Main's context while a test hangs: the
// run stops, reports are written with what finished, and the exit code is 130.
func TestRunInterruptedExit130(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"screens.txt": "open demo -> home\nhang fill\nscreen home\n  textbox \"Email\" id=email editable\n",
		"suite/a.ad":  "context platform=web\nopen demo\n",
		"suite/b.ad":  "context platform=web\nopen demo\nfill \"id=email\" x\n",
		"suite/c.ad":  "context platform=web\nopen demo\n",
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Cancel as soon as b's attempt has started (its timing file exists).
	go func() {
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for range tick.C {
			if m, _ := filepath.Glob(filepath.Join(dir, "art", "*", "suite__b.ad", "attempt-1", "timing.ndjson")); len(m) > 0 {
				cancel()
				return
			}
			if ctx.Err() != nil {
				return
			}
		}
	}()
	code, stdout, stderr := runMainCall(ctx, t, cliCall{cwd: dir}, "run", "--fake-device", "screens.txt", "--artifacts-dir", "art", "--reporter", "console", "--reporter", "json=r.json", "suite")
	if code != ExitInterrupted {
		t.Fatalf("exit = %d, want 130\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	var res struct {
		Interrupted bool
		Stats       struct{ Passed, NotRun int }
		Tests       []struct{ File, Status, Reason string }
	}
	b, err := os.ReadFile(filepath.Join(dir, "r.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tr := range res.Tests {
		got = append(got, tr.File+"="+tr.Status+"("+tr.Reason+")")
	}
	if want := "suite/a.ad=passed() suite/b.ad=notRun(interrupted) suite/c.ad=notRun(interrupted)"; strings.Join(got, " ") != want {
		t.Errorf("tests = %s\nwant    %s", strings.Join(got, " "), want)
	}
	if !res.Interrupted || res.Stats.Passed != 1 || res.Stats.NotRun != 2 {
		t.Errorf("result = %+v", res)
	}
	if !strings.HasSuffix(stdout, "\n2 not run (interrupted)\n1 passed, 0 failed\n") {
		t.Errorf("console summary:\n%s", stdout)
	}
}

// TestRunExitCodes checks design.md's exit codes exactly (testscript only
// tells zero from non-zero).
func TestRunExitCodes(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"screens.txt": "open demo -> home\nscreen home\n  heading \"Home\"\n  button \"Late\" id=late from-session=2\n",
		"pass.ad":     "context platform=web\nopen demo\n",
		"fail.ad":     "context platform=web\nopen demo\nclick \"id=nothere\"\n",
		"flaky.ad":    "context platform=web retries=1\nopen demo\nclick \"id=late\"\n",
		"bad.ad":      "context platform=web\nopen demo\nfrobnicate\n",
	})
	fakeRun := []string{"run", "--fake-device", "screens.txt", "--artifacts-dir", "art"}
	for _, tc := range []struct {
		name string
		args []string
		want int
	}{
		{"all passed", append(fakeRun, "pass.ad"), ExitOK},
		{"flaky counts as passed", append(fakeRun, "flaky.ad"), ExitOK},
		{"--fail-on-flaky", append(fakeRun, "--fail-on-flaky", "flaky.ad"), ExitFailed},
		{"a test failed", append(fakeRun, "pass.ad", "fail.ad"), ExitFailed},
		{"parse error", append(fakeRun, "pass.ad", "bad.ad"), ExitUsage},
		{"usage error", append(fakeRun, "--shard", "0/2", "pass.ad"), ExitUsage},
		{"no browser", []string{"run", "--browser", "/nonexistent/chromium", "pass.ad"}, ExitInfra},
		{"browser does not start", []string{"run", "--browser", "/bin/true", "--artifacts-dir", "art", "pass.ad", "fail.ad"}, ExitInfra},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, stdout, stderr := runMain(t, dir, tc.args...); got != tc.want {
				t.Errorf("exit = %d, want %d\nstdout:\n%s\nstderr:\n%s", got, tc.want, stdout, stderr)
			}
		})
	}
}

// TestReplayInterruptedExit130: a replay interrupted before the daemon
// answered exits 130, as an interrupted adtest test and run do, not 1.
func TestReplayInterruptedExit130(t *testing.T) {
	dir := writeFiles(t, map[string]string{"flow.ad": "context platform=web\nopen http://127.0.0.1:1/\n"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	run := filepath.Join(dir, "run")
	call := cliCall{cwd: dir, getenv: map[string]string{"XDG_RUNTIME_DIR": run, "ADTEST_DAEMON_DIR": filepath.Join(run, "adtest"), "HOME": dir}}
	code, stdout, stderr := runMainCall(ctx, t, call, "replay", "flow.ad")
	if code != ExitInterrupted {
		t.Fatalf("exit = %d, want 130\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}
