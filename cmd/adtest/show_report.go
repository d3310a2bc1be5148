package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/adtest/adtest/internal/scriptpath"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"time"

	"github.com/adtest/adtest/cmd/internal/cmdline"
	"github.com/adtest/adtest/reporters/html"
)

// runShowReport serves an HTML report directory on 127.0.0.1 until ctx ends
// (Ctrl-C), printing its URL first.
func runShowReport(ctx context.Context, env *Env) int {
	fs := flag.NewFlagSet("adtest show-report", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	port := fs.Int("port", 0, "listen on `PORT` (default: a free port)")
	args, err := readFlags(fs, env.Args)
	if errors.Is(err, cmdline.ErrHelp) {
		fmt.Fprintf(env.Stdout, "usage: adtest show-report [--port PORT] [DIR]   (DIR defaults to %s)\n", html.DefaultDir)
		return ExitOK
	}
	if err == nil && len(args) > 1 {
		err = fmt.Errorf("give one report directory, got %d", len(args))
	}
	if err == nil && (*port < 0 || *port > 65535) {
		err = fmt.Errorf("--port must be between 0 and 65535, got %d", *port)
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "adtest show-report: %v\n", err)
		return ExitUsage
	}
	dir := html.DefaultDir
	if len(args) == 1 {
		dir = args[0]
	}
	root := scriptpath.Abs(env.Cwd, dir)
	if st, err := env.FS.Stat(filepath.Join(root, "index.html")); err != nil || st.IsDir() {
		fmt.Fprintf(env.Stderr, "adtest show-report: no report in %s (no index.html)\n", dir)
		fmt.Fprintln(env.Stderr, "hint: write one with `adtest run --reporter html[=DIR] ...` or `adtest merge-reports --reporter html[=DIR] ...`")
		return ExitUsage
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(*port)))
	if err != nil {
		fmt.Fprintf(env.Stderr, "adtest show-report: %v\n", err)
		return ExitUsage
	}
	srv := &http.Server{
		Handler:           html.Handler(env.FS.Sub(root), ln.Addr().(*net.TCPAddr).Port),
		ReadHeaderTimeout: 10 * time.Second,
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintf(env.Stdout, "Serving the HTML report %s at http://%s/\nPress Ctrl-C to stop.\n", dir, ln.Addr())
	select {
	case <-ctx.Done():
	case err := <-served:
		fmt.Fprintf(env.Stderr, "adtest show-report: %v\n", err)
		return ExitInfra
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	srv.Shutdown(sctx)
	return ExitOK
}
