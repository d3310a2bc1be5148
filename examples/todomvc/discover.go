package todomvc

import (
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Framework is one complete TodoMVC app of the package.
type Framework struct {
	Name string `json:"name"` // the directory under examples/
	// Entry is the URL path of its page from the site root,
	// /examples/NAME/index.html or a publish directory's index.html.
	Entry string `json:"entry"`
}

// Excluded is an app of the package that is not complete, and why.
type Excluded struct {
	Name, Reason string
}

// entryDirs are where an app's page may be, in order: the app's own
// directory, else the directory its build tool publishes (brunch and
// lumbar: public/, duel: www/, a Dart build: build/web/, Dart sources: web/).
var entryDirs = []string{"", "public", "www", "build/web", "web"}

var (
	htmlComment = regexp.MustCompile(`(?s)<!--.*?-->`)
	tagRe       = regexp.MustCompile(`(?is)<(script|link)\b([^>]*)>`)
	attrRe      = regexp.MustCompile(`(?is)([a-z-]+)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)`)
)

// Discover lists the complete frameworks of the package at root (sorted by
// name) and the others with the reason they are left out.
//
// An app is complete when a browser can run it from the package alone,
// served as static files over loopback:
//   - it has a static page: index.html in its directory or in the
//     directory its build publishes (public/, www/, build/web/, web/) — apps
//     whose page a Node server renders (derby, meteor, socketstream) have
//     none;
//   - every script, stylesheet and HTML import the page names (outside
//     HTML comments) is a file of the package — nothing from the network,
//     nor from a build server on localhost (the Closure compiler's);
//   - a Dart script has its compiled .js next to it (browsers run no Dart);
//   - a require.js data-main names a file of the package.
//
// Completeness is a property of the files; whether the app then behaves
// as TodoMVC's spec says is what the flows measure.
func Discover(root string) ([]Framework, []Excluded, error) {
	dirs, err := os.ReadDir(filepath.Join(root, "examples"))
	if err != nil {
		return nil, nil, fmt.Errorf("the TodoMVC package at %s has no examples/ directory: %w", root, err)
	}
	var fws []Framework
	var out []Excluded
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		fw, reason := inspect(root, d.Name())
		if reason != "" {
			out = append(out, Excluded{Name: d.Name(), Reason: reason})
			continue
		}
		fws = append(fws, fw)
	}
	sort.Slice(fws, func(i, j int) bool { return fws[i].Name < fws[j].Name })
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return fws, out, nil
}

func inspect(root, name string) (Framework, string) {
	appDir := path.Join("examples", name)
	for _, sub := range entryDirs {
		page := path.Join(appDir, sub, "index.html")
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(page)))
		if err != nil {
			continue
		}
		if reason := checkPage(root, path.Dir(page), string(src)); reason != "" {
			return Framework{}, page + ": " + reason
		}
		return Framework{Name: name, Entry: "/" + page}, ""
	}
	return Framework{}, "no static page (index.html in the app, public/, www/, build/web/ or web/): a server renders it"
}

// checkPage returns why the page at dir (slash path from root) cannot run
// from the package alone, or "".
func checkPage(root, dir, src string) string {
	src = htmlComment.ReplaceAllString(src, "")
	for _, m := range tagRe.FindAllStringSubmatch(src, -1) {
		tag, attrs := strings.ToLower(m[1]), attributes(m[2])
		var ref string
		switch tag {
		case "script":
			ref = attrs["src"]
			if main := attrs["data-main"]; main != "" {
				if r := localFile(root, dir, main, ".js"); r != "" {
					return "require.js data-main " + r
				}
			}
		case "link":
			if rel := strings.ToLower(attrs["rel"]); rel != "stylesheet" && rel != "import" {
				continue
			}
			ref = attrs["href"]
		}
		if ref == "" {
			continue
		}
		if strings.EqualFold(attrs["type"], "application/dart") {
			if r := localFile(root, dir, ref+".js", ""); r != "" {
				return "Dart script " + ref + " is not compiled (" + r + ")"
			}
			continue
		}
		if r := localFile(root, dir, ref, ""); r != "" {
			return tag + " " + r
		}
	}
	return ""
}

// localFile returns "" when ref (relative to dir) is a file of the package,
// trying ref+ext too when ext is set, else why not.
func localFile(root, dir, ref, ext string) string {
	u, err := url.Parse(strings.TrimSpace(ref))
	if err != nil {
		return ref + " is not a URL"
	}
	if u.Scheme != "" || u.Host != "" {
		return ref + " is fetched from the network"
	}
	p := u.Path
	if !strings.HasPrefix(p, "/") {
		p = path.Join("/", dir, p)
	}
	p = path.Clean(p)
	for _, cand := range []string{p, p + ext} {
		if st, err := os.Stat(filepath.Join(root, filepath.FromSlash(cand))); err == nil && !st.IsDir() {
			return ""
		}
		if ext == "" {
			break
		}
	}
	return ref + " is missing from the package"
}

func attributes(s string) map[string]string {
	m := map[string]string{}
	for _, a := range attrRe.FindAllStringSubmatch(s, -1) {
		v := a[2]
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') {
			v = v[1 : len(v)-1]
		}
		m[strings.ToLower(a[1])] = v
	}
	return m
}
