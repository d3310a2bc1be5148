package web

import (
	"bytes"
	"context"
	"image"
	"image/jpeg"
	"image/png"
	"testing"

	"github.com/adtest/adtest/drivers"
)

// secretPage is secret_pixels.html in an 800 x 300 viewport with the
// secret "hunter2x" typed into its field.
func secretPage(t *testing.T, p *Provider) (*Session, context.Context) {
	t.Helper()
	s := openSession(t, p, "secret_pixels.html")
	t.Cleanup(func() { s.Close(context.Background()) })
	ctx := testCtx(t)
	if err := s.Act(ctx, drivers.Action{Kind: drivers.ActViewport, Size: drivers.Point{X: 800, Y: 300}}); err != nil {
		t.Fatal(err)
	}
	field := find(t, snap(t, s, drivers.SnapshotOptions{}), "textbox", "Token")
	if err := s.Act(ctx, drivers.Action{Kind: drivers.ActFill, Target: &drivers.Target{Node: field}, Text: "hunter2x"}); err != nil {
		t.Fatal(err)
	}
	return s, ctx
}

// TestScreenshotMasksSecrets (real Chromium): a secret typed into a field
// and one shown in text are painted over in a screenshot taken with Mask,
// and nothing else changes; a one-letter secret is not painted inside words.
func TestScreenshotMasksSecrets(t *testing.T) {
	t.Parallel()
	s, ctx := secretPage(t, prov)
	shot := func(mask []string) *image.RGBA {
		t.Helper()
		b, err := s.Screenshot(ctx, drivers.ScreenshotOptions{Mask: mask})
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		rgba := image.NewRGBA(img.Bounds())
		for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
			for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
				rgba.Set(x, y, img.At(x, y))
			}
		}
		return rgba
	}
	plain := shot(nil)
	masked := shot([]string{"hunter2x", "e"})
	scale := float64(plain.Bounds().Dx()) / 800
	region := func(x0, y0, x1, y1 float64) image.Rectangle {
		return image.Rect(int(x0*scale), int(y0*scale), int(x1*scale), int(y1*scale))
	}
	colors := func(img *image.RGBA, r image.Rectangle) map[[4]uint8]int {
		m := map[[4]uint8]int{}
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				c := img.RGBAAt(x, y)
				m[[4]uint8{c.R, c.G, c.B, c.A}]++
			}
		}
		return m
	}
	same := func(r image.Rectangle) bool {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				if plain.RGBAAt(x, y) != masked.RGBAAt(x, y) {
					return false
				}
			}
		}
		return true
	}
	mask := [4]uint8{maskColor.R, maskColor.G, maskColor.B, maskColor.A}

	// The field: text in the plain picture, one flat paint in the masked.
	pw := region(24, 24, 416, 66)
	if n := len(colors(plain, pw)); n < 2 {
		t.Fatalf("the plain capture shows no text in the field (%d colours): the test sees nothing", n)
	}
	if c := colors(masked, pw); len(c) != 1 || c[mask] == 0 {
		t.Errorf("the field is not painted over: %d colours", len(c))
	}
	// The text line: the secret's stretch is painted, so the line differs.
	line := region(20, 120, 420, 160)
	if same(line) || colors(masked, line)[mask] == 0 {
		t.Error("the secret shown as text is not painted over")
	}
	// "Replay failed" holds the one-letter secret "e" only inside words:
	// untouched, and so is a line without any secret.
	if r := region(0, 195, 800, 245); !same(r) {
		t.Error(`"Replay failed" was painted for the one-letter secret "e"`)
	}
	// No secret: the same picture as without Mask.
	if again := shot([]string{"not-on-the-page"}); !bytes.Equal(again.Pix, plain.Pix) {
		t.Error("a screenshot with secrets absent from the page differs from the plain one")
	}
}

// TestTraceShotMasksSecrets (real Chromium): a trace picture taken with
// Mask has the secret's field and its stretch of text painted over in the
// scaled JPEG, and a one-letter secret inside words left alone.
func TestTraceShotMasksSecrets(t *testing.T) {
	t.Parallel()
	t.Run("captured", func(t *testing.T) { traceShotMasksSecrets(t, prov) })
	t.Run("frames drawn", func(t *testing.T) { traceShotMasksSecrets(t, framesProvider(t)) })
}

func traceShotMasksSecrets(t *testing.T, prv *Provider) {
	s, ctx := secretPage(t, prv)
	if n := s.FramesDrawn(); (n > 0) != prv.opts.FrameControl {
		t.Fatalf("the session drew %d frames of its page", n)
	}
	shot := func(mask []string) image.Image {
		t.Helper()
		b, err := s.TraceShot(ctx, drivers.TraceShotOptions{Mask: mask})
		if err != nil {
			t.Fatal(err)
		}
		img, err := jpeg.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		return img
	}
	plain, masked := shot(nil), shot([]string{"hunter2x", "e"})
	scale := float64(plain.Bounds().Dx()) / 800
	if scale >= 1 || masked.Bounds() != plain.Bounds() {
		t.Fatalf("pictures of %v and %v: want both scaled down from 800 CSS pixels", plain.Bounds(), masked.Bounds())
	}
	// near counts the pixels of a region (CSS pixels) within a JPEG's
	// error of the mask's paint.
	near := func(img image.Image, x0, y0, x1, y1 float64) (n, all int) {
		for y := int(y0 * scale); y < int(y1*scale); y++ {
			for x := int(x0 * scale); x < int(x1*scale); x++ {
				r, g, b, _ := img.At(x, y).RGBA()
				d := func(v uint32, want uint8) bool { return max(int(v>>8), int(want))-min(int(v>>8), int(want)) <= 16 }
				if d(r, maskColor.R) && d(g, maskColor.G) && d(b, maskColor.B) {
					n++
				}
				all++
			}
		}
		return n, all
	}
	// The field (inside its border): white with black text in the plain
	// picture (a few pixels of its glyphs' edges as grey as the paint),
	// all paint in the masked one.
	if n, all := near(plain, 30, 30, 410, 60); n > all/10 {
		t.Fatalf("the plain picture has %d of %d pixels of the mask's colour in the field: the test sees nothing", n, all)
	}
	if n, all := near(masked, 30, 30, 410, 60); n < all*95/100 {
		t.Errorf("the field is not painted over: %d of %d pixels", n, all)
	}
	// The secret shown as text ("key: hunter2x", 32px monospace from x 20:
	// the secret from about x 116).
	if n, all := near(masked, 125, 125, 250, 155); n < all*95/100 {
		t.Errorf("the secret shown as text is not painted over: %d of %d pixels", n, all)
	}
	// "Replay failed" holds the one-letter secret "e" only inside words.
	p, _ := near(plain, 0, 195, 800, 245)
	if m, _ := near(masked, 0, 195, 800, 245); m > p+100 {
		t.Errorf(`"Replay failed" was painted for the one-letter secret "e": %d pixels of the paint, %d before`, m, p)
	}
}

// TestTraceShotsAtOnce (real Chromium): trace pictures asked for at once
// are taken one at a time. A capture with a scaled clip overrides the
// page's metrics while it runs and puts back those it found, so two at
// once left the second's override in place: a swipe in the lower part of
// the viewport was then refused as out of bounds.
func TestTraceShotsAtOnce(t *testing.T) {
	t.Parallel()
	t.Run("captured", func(t *testing.T) { traceShotsAtOnce(t, prov) })
	t.Run("frames drawn", func(t *testing.T) { traceShotsAtOnce(t, framesProvider(t)) })
}

func traceShotsAtOnce(t *testing.T, p *Provider) {
	s := openSession(t, p, "scroll.html")
	t.Cleanup(func() { s.Close(context.Background()) })
	ctx := testCtx(t)
	for round := 0; round < 3; round++ {
		var waits []func() ([]byte, error)
		for i := 0; i < 4; i++ {
			waits = append(waits, s.StartTraceShot(ctx, drivers.TraceShotOptions{}))
		}
		for _, w := range waits {
			if pic, err := w(); err != nil || len(pic) == 0 {
				t.Fatalf("picture: %d bytes, %v", len(pic), err)
			}
		}
		if err := s.Act(ctx, drivers.Action{Kind: drivers.ActSwipe, From: drivers.Point{X: 600, Y: 650}, To: drivers.Point{X: 600, Y: 550}}); err != nil {
			t.Fatalf("round %d: swipe in the lower part of the viewport after pictures at once: %v", round, err)
		}
	}
}
