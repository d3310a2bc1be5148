package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"math"

	"github.com/chromedp/chromedp"

	"github.com/adtest/adtest/drivers"
)

// Secrets in pixels. A screenshot taken with ScreenshotOptions.Mask has the
// areas where the page renders a secret painted over in the PNG: every form
// field (input, textarea) whose value holds one, and every stretch of text
// that shows one. The page is only measured, never changed (no style, no
// overlay its scripts could see); the areas are measured before and after
// the capture and both are painted, so a page that moves meanwhile still
// leaves nothing readable. A page that cannot be measured gives no picture.

// maskColor is the paint of a masked area.
var maskColor = color.RGBA{R: 0x33, G: 0x33, B: 0x33, A: 0xff}

// secretAreas is what the page reports: rectangles in CSS pixels relative
// to the viewport, the viewport width and the scroll offset and width of the
// document (for a full-page capture).
type secretAreas struct {
	Rects   [][4]float64 `json:"rects"`
	Width   float64      `json:"w"`
	ScrollX float64      `json:"sx"`
	ScrollY float64      `json:"sy"`
	DocW    float64      `json:"dw"`
}

// secretAreasJS measures the secret areas; %s is the JSON list of secrets
// and %d drivers.ShortSecretLen (a shorter secret counts only as a whole
// token, as drivers.SecretAt decides). Text is searched as it reads, not
// node by node: the text nodes of a document (and of its open shadow
// roots) are joined in order, each run of white space read as one space,
// so a secret split across inline elements (<b>P@ss w</b><i>0rd</i>) is
// found and its range painted across them. A same-origin iframe is
// searched as a document of its own, its areas moved by where the frame
// is; CSS generated content (::before, ::after, attr() included) has no
// range, so the element that carries it is painted whole. What the page
// draws itself (a canvas, an image of text) is not found.
const secretAreasJS = `(() => {
const ws = s => s.replace(/\s+/g, ' ');
const secrets = %s.map(ws).filter(v => v.trim() !== ''), short = %d;
const word = c => c !== undefined && /[\p{L}\p{N}_*]/u.test(c);
const at = (s, i, v) => [...v].length >= short || (!word(s[i - 1]) && !word(s[i + v.length]));
const find = s => { const hits = []; for (const v of secrets) { for (let i = s.indexOf(v); i >= 0; i = s.indexOf(v, i + 1)) if (at(s, i, v)) hits.push([i, v.length]); } return hits; };
const found = s => s != null && find(ws(String(s))).length > 0;
const rects = [];
const measure = (doc, dx, dy, depth) => {
  const add = r => { if (r.width > 0 && r.height > 0) rects.push([r.left + dx, r.top + dy, r.width, r.height]); };
  const roots = [doc];
  for (let k = 0; k < roots.length; k++) {
    const root = roots[k];
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) roots.push(el.shadowRoot);
      const tag = el.localName;
      if ((tag === 'input' && el.type !== 'hidden') || tag === 'textarea') {
        if (found(el.value)) add(el.getBoundingClientRect());
      }
      if ((tag === 'iframe' || tag === 'frame') && depth < 4) {
        let sub = null;
        try { sub = el.contentDocument; } catch (e) { sub = null; }
        if (sub && sub.documentElement) {
          const r = el.getBoundingClientRect(), cs = getComputedStyle(el);
          measure(sub, dx + r.left + el.clientLeft + parseFloat(cs.paddingLeft || 0), dy + r.top + el.clientTop + parseFloat(cs.paddingTop || 0), depth + 1);
        }
      }
      const view = doc.defaultView || window;
      for (const pseudo of ['::before', '::after']) {
        const c = view.getComputedStyle(el, pseudo).content;
        if (!c || c === 'none' || c === 'normal') continue;
        let text = c;
        if (c.includes('attr(')) for (const a of el.attributes) text += ' ' + a.value;
        if (found(text)) { add(el.getBoundingClientRect()); break; }
      }
    }
    // The text as it reads: joined text nodes, white space collapsed;
    // pos[i] is the node and offset of the i-th character read.
    let text = '';
    const pos = [];
    const tw = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n; (n = tw.nextNode()); ) {
      const p = n.parentNode && n.parentNode.localName;
      if (p === 'script' || p === 'style' || p === 'noscript' || p === 'template') continue;
      const d = n.data;
      for (let i = 0; i < d.length; i++) {
        if (/\s/.test(d[i])) { if (text.endsWith(' ')) continue; text += ' '; } else text += d[i];
        pos.push([n, i]);
      }
    }
    for (const [i, len] of find(text)) {
      const [sn, so] = pos[i], [en, eo] = pos[i + len - 1];
      const r = doc.createRange(); r.setStart(sn, so); r.setEnd(en, eo + 1);
      for (const c of r.getClientRects()) add(c);
    }
  }
};
measure(document, 0, 0, 0);
const de = document.documentElement;
return JSON.stringify({rects, w: innerWidth, sx: scrollX, sy: scrollY, dw: Math.max(de.scrollWidth, innerWidth)});
})()`

func measureSecrets(ctx context.Context, t *chromedp.Target, secrets []string) (*secretAreas, error) {
	js, _ := json.Marshal(secrets)
	str, err := chromedp.Evaluate[string](fmt.Sprintf(secretAreasJS, js, drivers.ShortSecretLen))(ctx, t)
	if err != nil {
		return nil, err
	}
	var a secretAreas
	if err := json.Unmarshal([]byte(str), &a); err != nil {
		return nil, err
	}
	if a.Width <= 0 || a.DocW <= 0 {
		return nil, fmt.Errorf("the page reports a viewport %gpx wide", a.Width)
	}
	return &a, nil
}

// paintSecrets paints the areas of every measurement over in the PNG buf.
// A viewport capture maps the viewport's CSS width to the image width; a
// full-page capture the document's width, with the areas moved by the
// scroll offset.
func paintSecrets(buf []byte, fullPage bool, measured ...*secretAreas) ([]byte, error) {
	if !anySecretArea(measured) {
		return buf, nil
	}
	src, err := png.Decode(bytes.NewReader(buf))
	if err != nil {
		return nil, fmt.Errorf("masking the screenshot: %w", err)
	}
	img := toRGBA(src)
	for _, a := range measured {
		scale, dx, dy := float64(img.Bounds().Dx())/a.Width, 0.0, 0.0
		if fullPage {
			scale, dx, dy = float64(img.Bounds().Dx())/a.DocW, a.ScrollX, a.ScrollY
		}
		paintAreas(img, a, scale, dx, dy)
	}
	var out bytes.Buffer
	if err := png.Encode(&out, img); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// paintSecretsJPEG paints the areas of every measurement over in the JPEG
// buf, a capture of the viewport at scale image pixels per CSS pixel, and
// encodes it again at quality. Without an area to paint buf is returned
// as it is: no decoding, no loss.
func paintSecretsJPEG(buf []byte, scale float64, quality int, measured ...*secretAreas) ([]byte, error) {
	if !anySecretArea(measured) {
		return buf, nil
	}
	src, err := jpeg.Decode(bytes.NewReader(buf))
	if err != nil {
		return nil, fmt.Errorf("masking the picture: %w", err)
	}
	img := toRGBA(src)
	for _, a := range measured {
		paintAreas(img, a, scale, 0, 0)
	}
	var out bytes.Buffer
	if err := jpeg.Encode(&out, img, &jpeg.Options{Quality: quality}); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

func anySecretArea(measured []*secretAreas) bool {
	for _, a := range measured {
		if len(a.Rects) > 0 {
			return true
		}
	}
	return false
}

func toRGBA(src image.Image) *image.RGBA {
	img := image.NewRGBA(src.Bounds())
	draw.Draw(img, img.Bounds(), src, src.Bounds().Min, draw.Src)
	return img
}

// paintAreas paints the areas of a over in img: a CSS point (x, y) is the
// pixel ((x+dx)*scale, (y+dy)*scale).
func paintAreas(img *image.RGBA, a *secretAreas, scale, dx, dy float64) {
	for _, r := range a.Rects {
		// One CSS pixel more on every side: anti-aliased glyph edges.
		x0 := int(math.Floor((r[0] + dx - 1) * scale))
		y0 := int(math.Floor((r[1] + dy - 1) * scale))
		x1 := int(math.Ceil((r[0] + dx + r[2] + 1) * scale))
		y1 := int(math.Ceil((r[1] + dy + r[3] + 1) * scale))
		draw.Draw(img, image.Rect(x0, y0, x1, y1).Intersect(img.Bounds()), image.NewUniform(maskColor), image.Point{}, draw.Src)
	}
}
