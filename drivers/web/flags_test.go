package web

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestNoBrowserUIPages: a session's window opens no WebUI pages of the
// browser's own (the omnibox popups preloaded per window cost a renderer
// and about 0.6 CPU-s per session): the only page targets are the tests'.
func TestNoBrowserUIPages(t *testing.T) {
	s := session(t, "basic.html")
	infos, err := chromedp.Targets(s.b.ctx)
	if err != nil {
		t.Fatal(err)
	}
	var ui []string
	for _, ti := range infos {
		if ti.Type == "browser_ui" || strings.Contains(ti.URL, ".top-chrome") {
			ui = append(ui, string(ti.Type)+" "+ti.URL)
		}
	}
	if len(ui) != 0 {
		t.Errorf("browser UI pages: %s", strings.Join(ui, ", "))
	}
}
