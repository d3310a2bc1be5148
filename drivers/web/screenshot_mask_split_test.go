package web

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestSecretAreasFindSplitFramedAndGeneratedText (real Chromium; issue 36,
// item 4): a secret split across inline elements, shown in a same-origin
// iframe, or in CSS ::after content (literal or attr()) is measured for
// painting; text without it is not.
func TestSecretAreasFindSplitFramedAndGeneratedText(t *testing.T) {
	t.Parallel()
	s := openSession(t, prov, "secret_split.html")
	t.Cleanup(func() { s.Close(context.Background()) })
	ctx := testCtx(t)
	// The frame's document loads after the page's: wait for its text.
	var boxes map[string][4]float64
	err := s.do(ctx, "test", func(ctx context.Context, tg *chromedp.Target) error {
		loaded := `new Promise(done => { const f = document.getElementById('fr'); const ok = () => { const d = f.contentDocument; return !!(d && d.body && d.body.textContent.includes('frame')); }; if (ok()) done(true); else f.addEventListener('load', () => done(ok())); })`
		if ok, err := chromedp.Evaluate[bool](loaded, chromedp.EvalAwaitPromise)(ctx, tg); err != nil || !ok {
			return fmt.Errorf("the frame did not load: %v", err)
		}
		str, err := chromedp.Evaluate[string](`JSON.stringify(Object.fromEntries(['split', 'gen', 'attr', 'fr', 'plain'].map(id => { const r = document.getElementById(id).getBoundingClientRect(); return [id, [r.left, r.top, r.width, r.height]]; })))`)(ctx, tg)
		if err != nil {
			return err
		}
		return json.Unmarshal([]byte(str), &boxes)
	})
	if err != nil {
		t.Fatal(err)
	}
	var areas *secretAreas
	if err := s.do(ctx, "test", func(ctx context.Context, tg *chromedp.Target) error {
		var err error
		areas, err = measureSecrets(ctx, tg, []string{"P@ss w0rd"})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	overlaps := func(b [4]float64) bool {
		for _, r := range areas.Rects {
			if r[0] < b[0]+b[2] && b[0] < r[0]+r[2] && r[1] < b[1]+b[3] && b[1] < r[1]+r[3] {
				return true
			}
		}
		return false
	}
	for _, id := range []string{"split", "gen", "attr", "fr"} {
		if !overlaps(boxes[id]) {
			t.Errorf("the secret in #%s (%v) is not measured: areas %v", id, boxes[id], areas.Rects)
		}
	}
	if overlaps(boxes["plain"]) {
		t.Errorf("#plain holds no secret but is measured: areas %v", areas.Rects)
	}
}
