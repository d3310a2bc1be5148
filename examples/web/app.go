// Package web is the example web app of adtest: a small shop (sign-in,
// checkout form, a 200-item catalog, JS dialogs, page navigation, content
// that arrives late, a playground for gestures and keys) embedded in the
// binary, and the .ad suite in suite/ that exercises it.
//
// `adtest run --serve-example examples/web/suite` serves App on 127.0.0.1
// and passes its URL to the scripts as AD_BASE_URL.
package web

import (
	"embed"
	"io/fs"
	"net/http"
)

//go:embed app
var files embed.FS

// App holds the static files of the example app, rooted at the site root
// (index.html, login.html, ...).
var App fs.FS = mustSub(files, "app")

func mustSub(f fs.FS, dir string) fs.FS {
	sub, err := fs.Sub(f, dir)
	if err != nil {
		panic(err) // the embedded directory is fixed at build time
	}
	return sub
}

// Handler serves the example app.
func Handler() http.Handler { return http.FileServerFS(App) }
