package web_test

// Actionability on real Chromium (issue 16, cause 4): a selector target is
// found again until it is attached, visible, still, enabled and takes the
// press; a ref target is never found again (ADR 0014). The pages and the
// scripts are in testdata/actionability.

import (
	"context"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers"
	webdrv "github.com/adtest/adtest/drivers/web"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner"
	"github.com/adtest/adtest/runner/suite"
)

const actionDir = "testdata/actionability"

// TestActionabilityScripts runs the .ad scripts of the pages: each clicks by
// selector a button that is not actionable when the page has loaded.
func TestActionabilityScripts(t *testing.T) {
	srv := serveDir(t, actionDir)
	tests := discoverIn(t, actionDir, "rerender.ad", "modal.ad", "overlay.ad", "enable.ad")
	res := regressRun(t, srv, suite.Config{Workers: 1}, nil, tests)
	if res.Stats.Total != 4 || res.Stats.Passed != 4 {
		t.Errorf("stats %+v, want 4 passed:\n%s", res.Stats, failures(res))
	}
}

// actionEnv is a runner session on its own browser.
type actionEnv struct {
	t    *testing.T
	drv  drivers.Driver
	sess *runner.Session
	base string
}

func newActionEnv(t *testing.T, prov *webdrv.Provider, base string) *actionEnv {
	t.Helper()
	// The first session starts the browser: on a loaded machine that alone
	// has taken over a minute.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	d, err := prov.NewSession(ctx, drivers.SessionOptions{})
	if err != nil {
		t.Fatalf("NewSession: %v", err)
	}
	sess := runner.NewSession(d, runner.SessionConfig{ArtifactsDir: t.TempDir()})
	t.Cleanup(func() { sess.Close(context.Background()) })
	return &actionEnv{t: t, drv: d, sess: sess, base: base}
}

func (e *actionEnv) run(line string) (*runner.Output, *runner.ErrorInfo) {
	e.t.Helper()
	s, err := lang.Parse("action.ad", []byte(line+"\n"))
	if err != nil || len(s.Actions) != 1 {
		e.t.Fatalf("parse %q: %v", line, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return e.sess.Dispatch(ctx, s.Actions[0])
}

func (e *actionEnv) must(line string) *runner.Output {
	e.t.Helper()
	out, er := e.run(line)
	if er != nil {
		e.t.Fatalf("%s: %s (%s): %s", line, er.Code, er.Reason, er.Message)
	}
	return out
}

func (e *actionEnv) text(id string) string {
	e.t.Helper()
	return e.must("get text id=" + id).Text
}

var actionRef = regexp.MustCompile(`^\s*(@e\d+) .* id="([^"]+)"`)

// refs takes `snapshot -i` and returns the refs by DOM id.
func (e *actionEnv) refs() map[string]string {
	e.t.Helper()
	refs := map[string]string{}
	for _, l := range strings.Split(e.must("snapshot -i").Text, "\n") {
		if m := actionRef.FindStringSubmatch(l); m != nil {
			refs[m[2]] = m[1]
		}
	}
	return refs
}

func TestActionabilityOnChromium(t *testing.T) {
	srv := httptest.NewServer(http.FileServer(http.Dir(actionDir)))
	t.Cleanup(srv.Close)
	prov, err := webdrv.NewProvider(webdrv.Options{})
	if err != nil {
		t.Fatalf("NewProvider (apt-get install chromium, or ADTEST_CHROME=PATH): %v", err)
	}
	t.Cleanup(func() {
		if err := prov.Close(); err != nil {
			t.Errorf("provider close: %v", err)
		}
	})
	// Each page has a button that is not actionable right after load; the
	// click by selector waits until it is and lands on it.
	for _, tc := range []struct{ name, page, click, id, want string }{
		{"re-rendered every 4 ms for 1.5 s", "rerender.html", `click "id=go"`, "result", "clicked"},
		{"dialog sliding in", "modal.html", `click "id=ok"`, "result", "confirmed"},
		{"overlay fading out", "overlay.html", `click "id=buy"`, "result", "bought"},
		{"disabled until ready", "enable.html", `click "id=send"`, "result", "sent"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newActionEnv(t, prov, srv.URL)
			e.must("open " + srv.URL + "/" + tc.page)
			e.must(tc.click)
			if got := e.text(tc.id); got != tc.want {
				t.Errorf("#%s shows %q after %s, want %q", tc.id, got, tc.click, tc.want)
			}
		})
	}

	// A ref names the element of its snapshot, never another one (ADR
	// 0014): once the page replaced that element with an identical one, a
	// click by the ref fails closed, before the seam, and nothing is
	// clicked; the same click by selector finds the new element.
	t.Run("ref to a re-rendered element fails closed", func(t *testing.T) {
		e := newActionEnv(t, prov, srv.URL)
		e.must("open " + srv.URL + "/refresh.html")
		refs := e.refs()
		gen := e.sess.RefsGeneration()
		// The page re-renders by itself: the driver is used directly, so
		// the runner's frame knows nothing of it.
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		sn, err := e.drv.Snapshot(ctx, drivers.SnapshotOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var rerender *drivers.Node
		for i := range sn.Nodes {
			if sn.Nodes[i].ID == "rerender" {
				rerender = &sn.Nodes[i]
			}
		}
		if rerender == nil {
			t.Fatal("no re-render button")
		}
		if err := e.drv.Act(ctx, drivers.Action{Kind: drivers.ActTap, Target: &drivers.Target{Node: rerender, Point: rerender.Rect.Center()}}); err != nil {
			t.Fatal(err)
		}
		_, er := e.run("click " + refs["go"])
		if er == nil || er.Code != runner.CodeCommandFailed || er.Reason != drivers.ReasonTargetStale {
			t.Fatalf("click %s after the re-render: %+v, want %s (%s)", refs["go"], er, runner.CodeCommandFailed, drivers.ReasonTargetStale)
		}
		if got := e.sess.RefsGeneration(); got != gen {
			t.Errorf("generation %d, want %d: the failed ref click crossed the seam", got, gen)
		}
		if got := e.text("result"); got != "not clicked" {
			t.Errorf("the stale ref clicked: %q", got)
		}
		e.must(`click "id=go"`)
		if got := e.text("result"); got != "clicked" {
			t.Errorf("the selector click: %q, want %q", got, "clicked")
		}
	})
}
