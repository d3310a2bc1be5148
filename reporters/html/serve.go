package html

import (
	"io"
	"io/fs"
	"net"
	"net/http"
	"path"
	"strconv"
	"strings"
)

// Handler serves the report tree fsys (rooted at the report directory)
// to a browser on this machine and nothing else:
//   - a request whose Host is not this server by a loopback name
//     (127.0.0.1, localhost, [::1] with the port) is refused, so a web page
//     that rebinds its own DNS name to 127.0.0.1 cannot read the report;
//   - no symlink is followed, at any level of the path: a downloaded CI
//     artifact may carry one pointing anywhere (data/x -> /etc/passwd);
//   - only regular files are served (a named pipe would hang the request),
//     and a directory is never listed: / is index.html.
func Handler(fsys fs.FS, port int) http.Handler {
	p := strconv.Itoa(port)
	allowed := map[string]bool{
		net.JoinHostPort("127.0.0.1", p): true,
		net.JoinHostPort("localhost", p): true,
		net.JoinHostPort("::1", p):       true,
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !allowed[strings.ToLower(r.Host)] {
			http.Error(w, "adtest show-report answers only to 127.0.0.1, localhost or [::1] with its port", http.StatusMisdirectedRequest)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
		if name == "" {
			name = "index.html"
		}
		if !fs.ValidPath(name) {
			http.NotFound(w, r)
			return
		}
		// Every component, the file included, must be a real directory or
		// file of the tree, not a link.
		parts := strings.Split(name, "/")
		for i := range parts {
			st, err := fs.Lstat(fsys, strings.Join(parts[:i+1], "/"))
			if err != nil {
				http.NotFound(w, r)
				return
			}
			last := i == len(parts)-1
			switch {
			case st.Mode()&fs.ModeSymlink != 0:
				http.Error(w, "symlinks are not served", http.StatusForbidden)
				return
			case !last && !st.IsDir(), last && !st.Mode().IsRegular():
				http.NotFound(w, r) // no directory listings, no devices or pipes
				return
			}
		}
		f, err := fsys.Open(name)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil || !st.Mode().IsRegular() {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("X-Content-Type-Options", "nosniff")
		if rs, ok := f.(io.ReadSeeker); ok {
			http.ServeContent(w, r, name, st.ModTime(), rs)
			return
		}
		http.Error(w, "cannot serve "+name, http.StatusInternalServerError)
	})
}
