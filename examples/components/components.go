// Package components is adtest's corpus of real component libraries: six
// packages from npm, none of them ours (web components with shadow DOM, a
// rich-text editor whose body is an iframe, a virtualised data grid, a date
// picker, a custom select with tags, drag-and-drop lists), each loaded by a
// host page of ours (pages/), and everyday flows of a person using them
// written once as .ad scripts (flows/LIBRARY/FLOW.ad) and once as Playwright
// Test specs of the same meaning (playwright/).
//
// The packages are fetched by scripts/setup-components.sh with npm pack into
// the per-user cache, checked against the sha256 pinned here and never
// committed. The test of this package runs the flows and compares each
// one's pass/fail with testdata/matrix.txt.
package components

import (
	"embed"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/adtest/adtest/internal/userdir"
)

// Package is one pinned npm package, served under /pkg/KEY/.
type Package struct {
	Key, Name, Version, SHA256 string
}

// Packages are the pinned packages. scripts/setup-components.sh reads the
// lines of this table that have the form {"KEY", "NAME", "VERSION", "SHA256"},
var Packages = []Package{
	{"shoelace", "@shoelace-style/shoelace", "2.20.1", "8d213fdff247fe42c90a9d613b1f75fc81f91018a5cee532e92e19e3da5478d5"},
	{"tinymce", "tinymce", "8.9.2", "a6be6b984a254128a1a5624ffaca1d4558698cb3717ec3ec2fc367d7e2a10051"},
	{"ag-grid", "ag-grid-community", "36.2.0", "691720b60486ab2e8ebafb6f760b198a718c766c55d3c4e204264d44e636a816"},
	{"flatpickr", "flatpickr", "4.6.13", "912da5a92aea3447d39ab83d83706c004c999ee9b013a6267fab3d8710e8a7a8"},
	{"tom-select", "tom-select", "2.6.2", "91e3a429b42d9163e8ade96f3603109d3b7faa7f9b1a5259fa30f8f4b162415a"},
	{"sortablejs", "sortablejs", "1.15.7", "66cbfc8fa18860783584fe0c346baf6cbf3399da72d23d21053425ba232abed4"},
}

// CacheDir is where scripts/setup-components.sh keeps a package's tarball
// and extracted tree: the adtest cache (internal/userdir: $ADTEST_CACHE_DIR,
// else $XDG_CACHE_HOME/adtest, else ~/.cache/adtest), then
// components/KEY/VERSION.
func CacheDir(getenv func(string) string, p Package) string {
	return filepath.Join(userdir.Dir(getenv, userdir.Cache), "components", p.Key, p.Version)
}

// Roots maps each package's key to its extracted tree (the tarball's
// package/ directory), or is an error that names every package missing and
// says how to get them.
func Roots(getenv func(string) string) (map[string]string, error) {
	roots := map[string]string{}
	var missing []string
	for _, p := range Packages {
		dir := CacheDir(getenv, p)
		b, err := os.ReadFile(filepath.Join(dir, "extracted.sha256"))
		if err != nil || string(b) != p.SHA256+"\n" {
			missing = append(missing, fmt.Sprintf("%s@%s (%s)", p.Name, p.Version, dir))
			continue
		}
		roots[p.Key] = filepath.Join(dir, "package")
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("the component corpus is not set up: missing %s: run `make setup` (scripts/setup-components.sh fetches them with npm pack and checks their sha256)", strings.Join(missing, ", "))
	}
	return roots, nil
}

//go:embed pages
var pages embed.FS

// Handler serves the host pages at the site root (/shoelace.html, ...) and
// each package's extracted tree under /pkg/KEY/.
func Handler(roots map[string]string) http.Handler {
	mux := http.NewServeMux()
	sub, err := fs.Sub(pages, "pages")
	if err != nil {
		panic(err) // the embedded directory is there by construction
	}
	mux.Handle("/", http.FileServerFS(sub))
	for key, root := range roots {
		mux.Handle("/pkg/"+key+"/", http.StripPrefix("/pkg/"+key+"/", http.FileServer(http.Dir(root))))
	}
	return mux
}
