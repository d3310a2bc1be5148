package web

import (
	"bytes"
	"image/jpeg"
	"math"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers"
)

// shotSize decodes a trace picture and returns its size.
func shotSize(t *testing.T, pic []byte) (int, int) {
	t.Helper()
	img, err := jpeg.Decode(bytes.NewReader(pic))
	if err != nil {
		t.Fatalf("the picture is no JPEG (%d bytes): %v", len(pic), err)
	}
	return img.Bounds().Dx(), img.Bounds().Dy()
}

// TestTraceShotIsAScreencastFrame: each picture is the first frame of a
// screencast started for it (the browser numbers each start, so a late
// frame of an earlier picture is never taken for a new one), scaled into
// the bounds; a viewport smaller than the bounds is not enlarged.
func TestTraceShotIsAScreencastFrame(t *testing.T) {
	t.Parallel()
	s := session(t, "basic.html")
	ctx := testCtx(t)
	var last int64
	for i := 0; i < 3; i++ {
		pic, err := s.TraceShot(ctx, drivers.TraceShotOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if w, h := shotSize(t, pic); w != 640 || h != 360 {
			t.Errorf("picture %d is %dx%d, want the 1280x720 viewport at 640x360", i, w, h)
		}
		s.mu.Lock()
		n := s.cast.last
		s.mu.Unlock()
		if n <= last {
			t.Fatalf("picture %d: screencast %d after %d: not a frame of a screencast of its own", i, n, last)
		}
		last = n
	}
	if err := s.Act(ctx, drivers.Action{Kind: drivers.ActViewport, Size: drivers.Point{X: 400, Y: 300}}); err != nil {
		t.Fatal(err)
	}
	pic, err := s.TraceShot(ctx, drivers.TraceShotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if w, h := shotSize(t, pic); w != 400 || h != 300 {
		t.Errorf("picture of a 400x300 viewport is %dx%d", w, h)
	}
}

// TestTraceShotWithoutAFrameIsCaptured: when the screencast sends no frame
// in time, the picture is a captured screenshot, of the same size.
func TestTraceShotWithoutAFrameIsCaptured(t *testing.T) {
	s := session(t, "basic.html")
	ctx := testCtx(t)
	old := castFrameBound
	castFrameBound = 200 * time.Millisecond
	t.Cleanup(func() { castFrameBound = old })
	// Every frame is taken for a late one of an earlier screencast.
	s.mu.Lock()
	s.cast.last = math.MaxInt64
	s.mu.Unlock()
	pic, err := s.TraceShot(ctx, drivers.TraceShotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if w, h := shotSize(t, pic); w != 640 || h != 360 {
		t.Errorf("captured picture is %dx%d, want 640x360", w, h)
	}
	if _, err := s.castShot(ctx, drivers.TraceShotOptions{}.Defaults()); err != errNoCastFrame {
		t.Errorf("castShot with no frame in time: %v, want errNoCastFrame", err)
	}
}
