package web

import (
	"context"

	"github.com/chromedp/chromedp"

	"github.com/adtest/adtest/drivers"
)

// CloseApp implements drivers.AppCloser: a script's close ends the page (it
// navigates to about:blank); the session keeps its browser context, so a
// later open loads a page again. Close releases the session itself.
func (s *Session) CloseApp(ctx context.Context) error {
	return s.input(ctx, "close", func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Navigate("about:blank")(ctx, t)
		return err
	})
}

var _ drivers.AppCloser = (*Session)(nil)
