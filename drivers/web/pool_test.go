package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers"
)

// TestFullPoolIsWaitedFor: a pool that answers 429 (every browser taken) is
// asked again within the bound, for the http and the websocket form of
// --cdp-url, then the run is told what to do; the token never shows.
func TestFullPoolIsWaitedFor(t *testing.T) {
	t.Parallel()
	var asked atomic.Int32
	pool := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	defer pool.Close()
	host := strings.TrimPrefix(pool.URL, "http://")
	for _, u := range []string{"http://" + host + "/?token=s3cret", "ws://" + host + "/chromium?token=s3cret"} {
		asked.Store(0)
		p, err := NewRemote(u, Options{PoolWait: 1500 * time.Millisecond, Logf: t.Logf})
		if err != nil {
			t.Fatal(err)
		}
		_, err = p.NewSession(context.Background(), drivers.SessionOptions{})
		p.Close()
		want := "stayed full (429 Too Many Requests) for 1.5s; raise its concurrency or run fewer workers (-j)"
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "s3cret") {
			t.Errorf("%s: %v, want %q without the token", u, err, want)
		}
		if n := asked.Load(); n < 2 {
			t.Errorf("%s: the pool was asked %d time(s), want it asked again", u, n)
		}
	}
}
