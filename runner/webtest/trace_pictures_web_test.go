package webtest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/jpeg"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers"
	webdrv "github.com/adtest/adtest/drivers/web"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner"
	"github.com/adtest/adtest/runner/trace"
)

// meanColour is the mean colour (0-255) of the top-left quarter of a trace
// picture.
func meanColour(t *testing.T, path string) [3]float64 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := jpeg.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	r := img.Bounds()
	r = image.Rect(r.Min.X, r.Min.Y, r.Min.X+r.Dx()/2, r.Min.Y+r.Dy()/2)
	var sum [3]float64
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			sum[0], sum[1], sum[2] = sum[0]+float64(cr>>8), sum[1]+float64(cg>>8), sum[2]+float64(cb>>8)
		}
	}
	n := float64(r.Dx() * r.Dy())
	return [3]float64{sum[0] / n, sum[1] / n, sum[2] / n}
}

// TestTraceWebPictureShowsTheStep: the picture after each step, taken while
// the next step resolves its target (drivers.TraceShotStarter), shows what
// the step changed (the page's colour), never the screen before it nor
// after the next step, also for the last step of the replay; a step that
// only reads shares the picture it began on.
//
// On the heavy page a frame takes long to raster (thousands of blurred
// shadows change colour): the picture must still be of the frame with the
// step's effect, not of the one the screen showed while it rastered.
func TestTraceWebPictureShowsTheStep(t *testing.T) {
	webBrowser.once.Do(startWebBrowser)
	if webBrowser.err != nil {
		t.Fatalf("the trace test needs Chromium: %v", webBrowser.err)
	}
	for _, page := range []string{"colour.html", "heavy.html"} {
		t.Run(page, func(t *testing.T) { tracePictureShowsTheStep(t, webBrowser.prov, page) })
		t.Run("frames drawn/"+page, func(t *testing.T) { tracePictureShowsTheStep(t, webBrowser.frames, page) })
	}
}

// newTraceSession opens a session of prov; on the provider whose sessions
// draw their frames it checks that they do.
func newTraceSession(ctx context.Context, t *testing.T, prov *webdrv.Provider) drivers.Driver {
	t.Helper()
	d, err := prov.NewSession(ctx, drivers.SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n := d.(*webdrv.Session).FramesDrawn(); (n > 0) != (prov == webBrowser.frames) {
		t.Fatalf("the session drew %d frames of its page", n)
	}
	return d
}

func tracePictureShowsTheStep(t *testing.T, prov *webdrv.Provider, page string) {
	tr, err := trace.New(filepath.Join(t.TempDir(), "trace"), drivers.NewMasker(nil), trace.Info{File: "colour.ad", Platform: "web"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	d := newTraceSession(ctx, t, prov)
	sess := runner.NewSession(d, runner.SessionConfig{ArtifactsDir: t.TempDir(), Hooks: []runner.StepHook{tr}})
	defer sess.Close(context.Background())
	script, err := lang.Parse("colour.ad", []byte("open "+webBrowser.srv.URL+"/trace/"+page+"\n"+
		"click id=paint\nclick id=paint\nis text id=out white\nclick id=paint\nclick id=paint\nclick id=paint\n"))
	if err != nil {
		t.Fatal(err)
	}
	res := sess.Replay(ctx, script, runner.ReplayOptions{StepTimeout: 20 * time.Second})
	if res.Status != runner.StatusPassed {
		t.Fatalf("replay: %s %+v", res.Status, res.Error)
	}
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(tr.Dir(), trace.File))
	if err != nil {
		t.Fatal(err)
	}
	var data trace.Data
	if err := json.Unmarshal(b, &data); err != nil {
		t.Fatal(err)
	}
	if len(data.Warnings) > 0 || len(data.Steps) != 7 {
		t.Fatalf("%d steps, warnings %v; want 7 steps and none", len(data.Steps), data.Warnings)
	}
	want := []string{"white", "red", "white", "white", "red", "white", "red"}
	for i, st := range data.Steps {
		if st.After == "" {
			t.Fatalf("step %d has no picture after it", st.Step)
		}
		c := meanColour(t, filepath.Join(tr.Dir(), st.After))
		red := c[0] > 200 && c[1] < 80 && c[2] < 80
		white := c[0] > 200 && c[1] > 200 && c[2] > 200
		if want[i] == "red" && !red || want[i] == "white" && !white {
			t.Errorf("step %d (%s): the picture after it has mean colour %v, want %s", st.Step, st.Action, c, want[i])
		}
	}
	if is := data.Steps[3]; is.After != is.Before {
		t.Errorf("the is step's picture %q, want the one it began on %q", is.After, is.Before)
	}
}
