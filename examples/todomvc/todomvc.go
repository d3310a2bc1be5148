// Package todomvc is adtest's real-app corpus: the TodoMVC apps of the npm
// package todomvc (the same todo list written in some sixty frameworks,
// none of them by us), served over loopback HTTP, and nine everyday flows
// of a TodoMVC user written once as .ad scripts (flows/) and once as
// Playwright Test specs (playwright/) with the same meaning.
//
// The package is fetched by scripts/setup.sh into the per-user cache,
// checked against the sha256 pinned here and never committed. The test of
// this package runs every flow on every complete framework (Discover) and
// compares the matrix with testdata/matrix.txt.
package todomvc

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"

	"github.com/adtest/adtest/internal/userdir"
)

// The pinned npm package. scripts/setup.sh reads these three lines.
const (
	NPMPackage = "todomvc"
	NPMVersion = "0.1.1"
	SHA256     = "fd6f05a878cddee9b987ee449d8defa447d087d6b6ffc1d816bbb2cd64a6705f"
)

// CacheDir is where scripts/setup.sh keeps the tarball and its extracted
// tree: the adtest cache (internal/userdir: $ADTEST_CACHE_DIR, else
// $XDG_CACHE_HOME/adtest, else ~/.cache/adtest), then todomvc/VERSION.
func CacheDir(getenv func(string) string) string {
	return filepath.Join(userdir.Dir(getenv, userdir.Cache), NPMPackage, NPMVersion)
}

// Root is the extracted package (the tarball's package/ directory), or an
// error that says how to get it.
func Root(getenv func(string) string) (string, error) {
	root := filepath.Join(CacheDir(getenv), "package")
	stamp := filepath.Join(CacheDir(getenv), "extracted.sha256")
	b, err := os.ReadFile(stamp)
	if err != nil || string(b) != SHA256+"\n" {
		return "", fmt.Errorf("the TodoMVC corpus (npm %s@%s) is not set up in %s: run `make setup` (scripts/setup.sh fetches it with npm pack and checks its sha256)", NPMPackage, NPMVersion, root)
	}
	return root, nil
}

// Handler serves the extracted package: the site root is the package's
// root, so an app is at /examples/NAME/... and its ../../ links resolve.
func Handler(root string) http.Handler {
	return http.FileServer(http.Dir(root))
}
