// Command serve serves the bundled example app (Acme Shop) on a loopback
// port until interrupted, for trying interactive sessions by hand:
//
//	go build -o bin/acme-shop ./examples/web/serve
//	bin/acme-shop -addr 127.0.0.1:8080 &
//	bin/acme-shop -await 127.0.0.1:8080   # returns once the app answers
//
// `adtest run --serve-example` serves the same files on a free port by itself.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	exampleweb "github.com/adtest/adtest/examples/web"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "listen on `HOST:PORT`")
	await := flag.String("await", "", "do not serve: wait until the app at `HOST:PORT` answers (10 s at most), for scripts")
	flag.Parse()
	if *await != "" {
		if err := awaitApp(*await, 10*time.Second); err != nil {
			fmt.Fprintf(os.Stderr, "serve: %v\n", err)
			os.Exit(1)
		}
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "serve: %v\n", err)
		os.Exit(1)
	}
	srv := &http.Server{Handler: exampleweb.Handler(), ReadHeaderTimeout: 10 * time.Second}
	fmt.Printf("Acme Shop on http://%s/ (Ctrl-C stops it)\n", ln.Addr())
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(os.Stderr, "serve: %v\n", err)
		os.Exit(1)
	}
}

// awaitApp polls http://addr/ until it answers or the bound passes.
func awaitApp(addr string, bound time.Duration) error {
	client := &http.Client{Timeout: time.Second}
	deadline := time.NewTimer(bound)
	defer deadline.Stop()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		resp, err := client.Get("http://" + addr + "/")
		if err == nil {
			resp.Body.Close()
			return nil
		}
		select {
		case <-deadline.C:
			return fmt.Errorf("http://%s/ did not answer within %s: %v", addr, bound, err)
		case <-tick.C:
		}
	}
}
