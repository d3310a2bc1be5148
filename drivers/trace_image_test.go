package drivers

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"testing"
)

// framePicture is a 1280x720 JPEG as a browser encodes a frame: bands of
// colour and a gradient.
func framePicture(tb testing.TB) []byte { return picture(tb, 1280, 720) }

// picture is a w x h JPEG: a gradient, a red quarter and a quarter of
// stripes.
func picture(tb testing.TB, w, h int) []byte {
	tb.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := color.RGBA{uint8(x / 5), uint8(y / 3), 200, 255}
			if x < w/2 && y < h/2 {
				c = color.RGBA{220, 30, 40, 255}
			}
			if x >= w/2 && y >= h/2 && x%2 == 0 {
				// Stripes a pixel wide: every source pixel counts.
				c = color.RGBA{0, 0, 0, 255}
			}
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 85}); err != nil {
		tb.Fatal(err)
	}
	return b.Bytes()
}

// The planes of a JPEG are scaled as its colours are: the picture from
// the YCbCr planes matches the one scaled from its RGBA conversion.
func TestTraceJPEGScalesPlanesAsColours(t *testing.T) {
	for _, c := range []struct{ w, h, dw, dh int }{
		{1280, 720, 640, 360}, // two by two
		{1024, 768, 640, 480}, // cells of one or two samples
		{800, 300, 640, 240},
	} {
		pic := picture(t, c.w, c.h)
		src, err := jpeg.Decode(bytes.NewReader(pic))
		if err != nil {
			t.Fatal(err)
		}
		yc, ok := src.(*image.YCbCr)
		if !ok || yc.SubsampleRatio != image.YCbCrSubsampleRatio420 {
			t.Fatalf("the encoder's JPEG decodes as %T, want 4:2:0 YCbCr", src)
		}
		small, ok := downscaleYCbCr(yc, c.dw, c.dh)
		if !ok {
			t.Fatal("4:2:0 planes not scaled")
		}
		want := downscale(src, c.dw, c.dh)
		worst := 0
		for y := 0; y < c.dh; y += 7 {
			for x := 0; x < c.dw; x += 5 {
				r, g, b, _ := small.At(x, y).RGBA()
				w := want.RGBAAt(x, y)
				for _, d := range []int{int(r>>8) - int(w.R), int(g>>8) - int(w.G), int(b>>8) - int(w.B)} {
					worst = max(worst, d, -d)
				}
			}
		}
		// Averaging YCbCr is not averaging RGB where colours clip: up to
		// 17 levels in the stripes; a sample left out is about 70.
		if worst > 24 {
			t.Errorf("%dx%d: scaled planes differ from the scaled colours by up to %d levels", c.w, c.h, worst)
		}
		out, err := TraceJPEG(pic, TraceShotOptions{})
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := jpeg.DecodeConfig(bytes.NewReader(out))
		if err != nil || cfg.Width != c.dw || cfg.Height != c.dh {
			t.Fatalf("trace picture %dx%d (%v), want %dx%d", cfg.Width, cfg.Height, err, c.dw, c.dh)
		}
	}
}

// go test -run '^$' -bench TraceJPEGFrame ./drivers/: a browser's frame
// made a trace picture.
func BenchmarkTraceJPEGFrame(b *testing.B) {
	pic := framePicture(b)
	for b.Loop() {
		if _, err := TraceJPEG(pic, TraceShotOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
