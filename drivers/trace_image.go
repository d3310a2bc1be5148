package drivers

import (
	"bytes"
	"fmt"
	"image"
	"image/draw"
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
		w, h := max(int(float64(b.Dx())*s), 1), max(int(float64(b.Dy())*s), 1)
		yc, ok := img.(*image.YCbCr)
		var small *image.YCbCr
		if ok {
			small, ok = downscaleYCbCr(yc, w, h)
		}
		if ok {
			img = small
		} else {
			img = downscale(img, w, h)
		}
	}
	var out bytes.Buffer
	if err := jpeg.Encode(&out, img, &jpeg.Options{Quality: o.Quality}); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// downscaleYCbCr is downscale of a JPEG's planes, into a 4:4:4 picture
// (the encoder's own form): each plane's cells averaged, no colour
// conversion. ok is false for a subsampling it does not know.
func downscaleYCbCr(src *image.YCbCr, w, h int) (*image.YCbCr, bool) {
	b := src.Bounds()
	if b.Min != (image.Point{}) {
		return nil, false
	}
	cw, ch := b.Dx(), b.Dy()
	switch src.SubsampleRatio {
	case image.YCbCrSubsampleRatio444:
	case image.YCbCrSubsampleRatio422:
		cw = (cw + 1) / 2
	case image.YCbCrSubsampleRatio420:
		cw, ch = (cw+1)/2, (ch+1)/2
	case image.YCbCrSubsampleRatio440:
		ch = (ch + 1) / 2
	default:
		return nil, false
	}
	dst := image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio444)
	boxPlane(dst.Y, dst.YStride, w, h, src.Y, src.YStride, b.Dx(), b.Dy())
	boxPlane(dst.Cb, dst.CStride, w, h, src.Cb, src.CStride, cw, ch)
	boxPlane(dst.Cr, dst.CStride, w, h, src.Cr, src.CStride, cw, ch)
	return dst, true
}

// boxPlane averages the sw x sh plane src into the cells of the dw x dh
// plane dst (a cell narrower than a source sample takes that sample). A
// plane of the same size is copied and one of twice the size averaged by
// two by two: a 1280x720 page in a 640x360 picture.
func boxPlane(dst []uint8, dstride, dw, dh int, src []uint8, sstride, sw, sh int) {
	switch {
	case sw == dw && sh == dh:
		for y := 0; y < dh; y++ {
			copy(dst[y*dstride:y*dstride+dw], src[y*sstride:y*sstride+sw])
		}
		return
	case sw == 2*dw && sh == 2*dh:
		for y := 0; y < dh; y++ {
			r0, r1 := src[2*y*sstride:2*y*sstride+sw], src[(2*y+1)*sstride:(2*y+1)*sstride+sw]
			d := dst[y*dstride : y*dstride+dw]
			for x := range d {
				d[x] = uint8((uint32(r0[2*x]) + uint32(r0[2*x+1]) + uint32(r1[2*x]) + uint32(r1[2*x+1]) + 2) / 4)
			}
		}
		return
	}
	xs := make([][2]int, dw)
	for x := range xs {
		x0 := x * sw / dw
		xs[x] = [2]int{x0, max((x+1)*sw/dw, x0+1)}
	}
	for y := 0; y < dh; y++ {
		y0 := y * sh / dh
		y1 := max((y+1)*sh/dh, y0+1)
		for x, c := range xs {
			var sum uint32
			for sy := y0; sy < y1; sy++ {
				for _, v := range src[sy*sstride+c[0] : sy*sstride+c[1]] {
					sum += uint32(v)
				}
			}
			dst[y*dstride+x] = uint8(sum / uint32((y1-y0)*(c[1]-c[0])))
		}
	}
}

// downscale averages the source pixels that fall into each of w x h cells.
// It reads the pixels from an RGBA copy of src (image/draw converts a
// JPEG's YCbCr planes in one pass), not pixel by pixel through At.
func downscale(src image.Image, w, h int) *image.RGBA {
	b := src.Bounds()
	rgba, ok := src.(*image.RGBA)
	if !ok {
		rgba = image.NewRGBA(b)
		draw.Draw(rgba, b, src, b.Min, draw.Src)
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		y0, y1 := b.Min.Y+y*b.Dy()/h, b.Min.Y+(y+1)*b.Dy()/h
		y1 = max(y1, y0+1)
		for x := 0; x < w; x++ {
			x0, x1 := b.Min.X+x*b.Dx()/w, b.Min.X+(x+1)*b.Dx()/w
			x1 = max(x1, x0+1)
			var r, g, bl, a, n uint32
			for sy := y0; sy < y1; sy++ {
				row := rgba.Pix[rgba.PixOffset(x0, sy):rgba.PixOffset(x1, sy)]
				for i := 0; i+3 < len(row); i += 4 {
					r, g, bl, a = r+uint32(row[i]), g+uint32(row[i+1]), bl+uint32(row[i+2]), a+uint32(row[i+3])
				}
				n += uint32(x1 - x0)
			}
			i := dst.PixOffset(x, y)
			dst.Pix[i], dst.Pix[i+1], dst.Pix[i+2], dst.Pix[i+3] = uint8(r/n), uint8(g/n), uint8(bl/n), uint8(a/n)
		}
	}
	return dst
}
