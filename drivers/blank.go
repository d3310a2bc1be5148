package drivers

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"slices"
)

// BlankPictures, among the values a picture must not show
// (ScreenshotOptions.Mask, Masker.Values), asks for the whole picture to be
// painted over: `--mask-screenshots=all`, for teams that cannot rely on
// finding every secret on a screen (a canvas, an image of text, an Android
// screen). It is never a text to mask.
const BlankPictures = "\x00adtest:blank-pictures"

// BlankColor is the paint of a blanked picture.
var BlankColor = color.Gray{Y: 0x33}

// Blank returns pic painted over whole, in its own size and format (PNG
// or JPEG), when mask holds BlankPictures; else pic itself.
func Blank(pic []byte, mask []string) ([]byte, error) {
	if len(pic) == 0 || !slices.Contains(mask, BlankPictures) {
		return pic, nil
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(pic))
	if err != nil {
		return nil, err
	}
	img := image.NewGray(image.Rect(0, 0, cfg.Width, cfg.Height))
	for i := range img.Pix {
		img.Pix[i] = BlankColor.Y
	}
	var out bytes.Buffer
	if format == "jpeg" {
		err = jpeg.Encode(&out, img, &jpeg.Options{Quality: 50})
	} else {
		err = png.Encode(&out, img)
	}
	return out.Bytes(), err
}
