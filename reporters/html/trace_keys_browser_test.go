package html_test

import (
	"context"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/drivers/web"
	"github.com/adtest/adtest/internal/testsupport/webtest"
	"github.com/adtest/adtest/runner"
)

// checkTraceKeys: in the report at url, the failed test's trace viewer
// (its failing step 3 of 3 shown) moves between steps with the Left and
// Right arrow keys, and stays within the steps. The .ad language has no
// arrow key, so the keys are the web driver's own action between steps.
func checkTraceKeys(ctx context.Context, t *testing.T, url string) {
	t.Helper()
	var rec webtest.ProfileRecorder
	prov, err := web.NewProvider(web.Options{Logf: rec.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := prov.Close(); err != nil {
			t.Error(err)
		}
		if err := rec.Leaks(); err != nil {
			t.Error(err)
		}
	}()
	d, err := prov.NewSession(ctx, drivers.SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sess := runner.NewSession(d, runner.SessionConfig{Platform: drivers.PlatformWeb, ArtifactsDir: t.TempDir()})
	defer sess.Close(context.Background())
	step := func(line string) {
		t.Helper()
		s, err := parse("keys.ad", []byte(line+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		if _, e := sess.Step(ctx, s.Actions[0], runner.StepOptions{Timeout: 20 * time.Second}); e != nil {
			t.Fatalf("%s: %s", line, e.Message)
		}
	}
	key := func(k string) {
		t.Helper()
		if err := d.Act(ctx, drivers.Action{Kind: drivers.ActKey, Key: k}); err != nil {
			t.Fatalf("key %s: %v", k, err)
		}
	}
	step(`open "` + url + `#t=t1"`)
	step(`wait text "Step 3 of 3: click"`)
	key("ArrowLeft")
	step(`wait text "Step 2 of 3: fill"`)
	key("ArrowLeft")
	step(`wait text "Step 1 of 3"`)
	key("ArrowLeft")
	key("ArrowRight")
	step(`wait text "Step 2 of 3: fill"`)
	key("ArrowRight")
	step(`wait text "Step 3 of 3: click"`)
}
