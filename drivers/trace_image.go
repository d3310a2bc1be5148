package drivers

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	_ "image/png" // decodes the PNG of Driver.Screenshot
)

// Trace picture defaults: a 1280x720 page becomes 640x360, about 20-40 KB.
const (
	TraceShotMaxWidth  = 640
	TraceShotMaxHeight = 640
	TraceShotQuality   = 60
)

// Defaults fills the zero fields of o with the trace defaults.
func (o TraceShotOptions) Defaults() TraceShotOptions {
	if o.MaxWidth <= 0 {
		o.MaxWidth = TraceShotMaxWidth
	}
	if o.MaxHeight <= 0 {
		o.MaxHeight = TraceShotMaxHeight
	}
	if o.Quality <= 0 || o.Quality > 100 {
		o.Quality = TraceShotQuality
	}
	return o
}

// FitScale is the factor (at most 1) that fits w x h into the bounds of o.
func (o TraceShotOptions) FitScale(w, h float64) float64 {
	o = o.Defaults()
	s := 1.0
	if w > 0 && w*s > float64(o.MaxWidth) {
		s = float64(o.MaxWidth) / w
	}
	if h > 0 && h*s > float64(o.MaxHeight) {
		s = float64(o.MaxHeight) / h
	}
	return s
}

// TraceJPEG turns a picture (PNG or JPEG) into a trace picture: scaled down
// to fit the bounds of o by averaging the pixels each target pixel covers,
// and encoded as JPEG.
func TraceJPEG(pic []byte, o TraceShotOptions) ([]byte, error) {
	o = o.Defaults()
	src, _, err := image.Decode(bytes.NewReader(pic))
	if err != nil {
		return nil, fmt.Errorf("trace picture: %w", err)
	}
	return EncodeTraceJPEG(src, o)
}

// EncodeTraceJPEG scales img to fit the bounds of o and encodes it as JPEG.
func EncodeTraceJPEG(img image.Image, o TraceShotOptions) ([]byte, error) {
	o = o.Defaults()
	b := img.Bounds()
	s := o.FitScale(float64(b.Dx()), float64(b.Dy()))
	if s < 1 {
		img = downscale(img, max(int(float64(b.Dx())*s), 1), max(int(float64(b.Dy())*s), 1))
	}
	var out bytes.Buffer
	if err := jpeg.Encode(&out, img, &jpeg.Options{Quality: o.Quality}); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// downscale averages the source pixels that fall into each of w x h cells.
func downscale(src image.Image, w, h int) *image.RGBA {
	b := src.Bounds()
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		y0, y1 := b.Min.Y+y*b.Dy()/h, b.Min.Y+(y+1)*b.Dy()/h
		y1 = max(y1, y0+1)
		for x := 0; x < w; x++ {
			x0, x1 := b.Min.X+x*b.Dx()/w, b.Min.X+(x+1)*b.Dx()/w
			x1 = max(x1, x0+1)
			var r, g, bl, a, n uint32
			for sy := y0; sy < y1; sy++ {
				for sx := x0; sx < x1; sx++ {
					cr, cg, cb, ca := src.At(sx, sy).RGBA()
					r, g, bl, a, n = r+cr, g+cg, bl+cb, a+ca, n+1
				}
			}
			i := dst.PixOffset(x, y)
			dst.Pix[i], dst.Pix[i+1], dst.Pix[i+2], dst.Pix[i+3] = uint8(r/n>>8), uint8(g/n>>8), uint8(bl/n>>8), uint8(a/n>>8)
		}
	}
	return dst
}
