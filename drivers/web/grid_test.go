package web

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers"
)

// fakeGrid answers as a Selenium Grid 4 does, as far as adtest asks it:
// /status, POST /session and DELETE /session/{id}. Its answers are the
// test's; it records what it was sent.
type fakeGrid struct {
	status  func(w http.ResponseWriter)
	session func(w http.ResponseWriter, r *http.Request)

	mu      sync.Mutex
	posts   []string // Content-Type of every POST /session
	deleted []string
}

func (f *fakeGrid) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/status" && r.Method == http.MethodGet:
		if f.status == nil {
			w.Write([]byte(`{"value":{"ready":true,"message":"Selenium Grid ready.","nodes":[{"uri":"http://10.0.0.5:5555","slots":[{"stereotype":{"browserName":"chrome"}}]}]}}`))
			return
		}
		f.status(w)
	case r.URL.Path == "/session" && r.Method == http.MethodPost:
		f.mu.Lock()
		f.posts = append(f.posts, r.Header.Get("Content-Type"))
		f.mu.Unlock()
		if r.Header.Get("Content-Type") != "application/json; charset=utf-8" {
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"value":{"error":"unknown error","message":"Content-Type header does not indicate utf-8 encoded json"}}`))
			return
		}
		f.session(w, r)
	case strings.HasPrefix(r.URL.Path, "/session/") && r.Method == http.MethodDelete:
		f.mu.Lock()
		f.deleted = append(f.deleted, strings.TrimPrefix(r.URL.Path, "/session/"))
		f.mu.Unlock()
		w.Write([]byte(`{"value":null}`))
	default:
		http.NotFound(w, r)
	}
}

func (f *fakeGrid) ended() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.deleted...)
}

func startFakeGrid(t *testing.T, f *fakeGrid) string {
	t.Helper()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestGridRefusals: what is wrong with the Grid is said in one line that
// names the cause and the fix, as infrastructure, before any test runs;
// the credentials never show; a session adtest cannot use is ended.
func TestGridRefusals(t *testing.T) {
	t.Parallel()
	closed := func() string { // a loopback port nobody listens on
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := l.Addr().String()
		l.Close()
		return "http://" + addr
	}()
	grid3 := &fakeGrid{session: func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"value":{"sessionId":"g3","capabilities":{"browserName":"chrome"}}}`))
	}}
	tests := []struct {
		name  string
		grid  *fakeGrid // nil: the closed port
		user  string    // credentials put in the URL
		want  string
		ended []string // sessions the Grid must have been asked to end
	}{
		{name: "unreachable", want: "could not reach the Selenium Grid at GRID (connection refused); check --grid and that the hub runs"},
		{name: "not a grid", grid: &fakeGrid{status: func(w http.ResponseWriter) { http.NotFound(w, nil) }},
			want: "GRID is not a Selenium Grid (GET /status answered 404 Not Found); give the URL of the Grid's hub or router, e.g. http://host:4444"},
		{name: "json but not a grid", grid: &fakeGrid{status: func(w http.ResponseWriter) { w.Write([]byte(`{"value":{"version":"1"}}`)) }},
			want: "GRID is not a Selenium Grid (GET /status answered 200 OK, not a Grid's status); give the URL of the Grid's hub or router, e.g. http://host:4444"},
		{name: "no chrome node", grid: &fakeGrid{status: func(w http.ResponseWriter) {
			w.Write([]byte(`{"value":{"ready":true,"nodes":[{"slots":[{"stereotype":{"browserName":"firefox"}},{"stereotype":{"browserName":"MicrosoftEdge"}}]}]}}`))
		}}, want: `the Selenium Grid at GRID has no node offering browserName "chrome" (its 1 node(s) offer: MicrosoftEdge, firefox); add a Chrome node to the Grid, or set browserName in --grid-capabilities`},
		{name: "wrong credentials", user: "ci:s3cret-pw@", grid: &fakeGrid{status: func(w http.ResponseWriter) {
			w.WriteHeader(http.StatusUnauthorized)
		}}, want: "the Selenium Grid at GRID refused the credentials (401 Unauthorized); check the user and password (or the token) in --grid"},
		{name: "grid 3: no se:cdp", grid: grid3, ended: []string{"g3"},
			want: "the Selenium Grid at GRID gave a session without se:cdp (a Grid 3, or a node without CDP): adtest drives Chromium over CDP; use a Selenium Grid 4 with Chrome or Chromium nodes"},
		{name: "no matching node", grid: &fakeGrid{session: func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusInternalServerError)
			w.Write([]byte(`{"value":{"error":"session not created","message":"Could not start a new session. No nodes support the capabilities in the request\nHost info: ...","stacktrace":"..."}}`))
		}}, want: "the Selenium Grid at GRID created no session (500 session not created: Could not start a new session. No nodes support the capabilities in the request); no node of the Grid matches the capabilities: add a Chrome node, or change --grid-capabilities"},
		{name: "queue timeout", grid: &fakeGrid{session: func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusInternalServerError)
			w.Write([]byte(`{"value":{"error":"session not created","message":"New session request timed out"}}`))
		}}, want: "the Selenium Grid at GRID created no session (500 session not created: New session request timed out); the Grid's queue timed out before a slot was free: add nodes, run fewer workers (-j), or raise the Grid's --session-request-timeout"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			base := closed
			if tc.grid != nil {
				base = startFakeGrid(t, tc.grid)
			}
			u := strings.Replace(base, "http://", "http://"+tc.user, 1)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			p, err := NewGrid(ctx, GridOptions{URL: u}, Options{})
			if err == nil {
				p.Close()
				t.Fatalf("NewGrid succeeded, want %q", tc.want)
			}
			shown := strings.Replace(base, "http://", "http://"+strings.SplitN(tc.user, ":", 2)[0], 1)
			if tc.user != "" {
				shown = strings.Replace(base, "http://", "http://ci@", 1)
			}
			want := strings.ReplaceAll(tc.want, "GRID", shown)
			got := strings.TrimPrefix(err.Error(), drivers.ErrInfrastructure.Error()+": ")
			got = strings.TrimPrefix(got, "authentication failed: ")
			if got != want || !errors.Is(err, drivers.ErrInfrastructure) {
				t.Errorf("error\n got %q\nwant %q (wrapping ErrInfrastructure)", err, want)
			}
			if strings.Contains(err.Error(), "s3cret-pw") {
				t.Errorf("the password shows: %q", err)
			}
			if tc.grid != nil && !reflect.DeepEqual(tc.grid.ended(), tc.ended) {
				t.Errorf("sessions ended %v, want %v", tc.grid.ended(), tc.ended)
			}
		})
	}
}

// TestGridQueueBound: a Grid that keeps the request in its queue is waited
// for up to the timeout, then the run is told what to do.
func TestGridQueueBound(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	defer close(release)
	g := &fakeGrid{session: func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}}
	u := startFakeGrid(t, g)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := NewGrid(ctx, GridOptions{URL: u, Timeout: 300 * time.Millisecond}, Options{})
	want := "the Selenium Grid at " + u + " gave no session within --grid-timeout 300ms (every slot busy, or no node matches the capabilities); raise --grid-timeout, add nodes, or check --grid-capabilities"
	if err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Fatalf("error %v, want %q", err, want)
	}
}

// TestGridSessionRequest: the new session is asked for with the charset the
// Grid insists on and the merged capabilities, and its se:cdp is dialled
// through the Grid's own host, credentials carried.
func TestGridSessionRequest(t *testing.T) {
	t.Parallel()
	var body map[string]any
	g := &fakeGrid{session: func(w http.ResponseWriter, r *http.Request) {
		json.NewDecoder(r.Body).Decode(&body)
		w.Write([]byte(`{"value":{"sessionId":"s1","capabilities":{"se:cdp":"ws://172.17.0.3:4444/session/s1/se/cdp"}}}`))
	}}
	base := startFakeGrid(t, g)
	host := strings.TrimPrefix(base, "http://")
	gr, err := newGrid(GridOptions{URL: "http://ci:pw@" + host + "/grid/?token=T0K", Capabilities: `{"goog:chromeOptions":{"args":["--lang=fr"]},"se:name":"adtest"}`})
	if err != nil {
		t.Fatal(err)
	}
	// The fake answers at /session, not /grid/session: point the base there.
	gr.base.Path = ""
	s, err := gr.open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want := "ws://" + host + "/session/s1/se/cdp?token=T0K"; s.ws != want {
		t.Errorf("dial %q, want %q", s.ws, want)
	}
	if got := s.header.Get("Authorization"); got != "Basic Y2k6cHc=" {
		t.Errorf("websocket Authorization %q", got)
	}
	caps := body["capabilities"].(map[string]any)["alwaysMatch"].(map[string]any)
	args := caps["goog:chromeOptions"].(map[string]any)["args"].([]any)
	if caps["browserName"] != "chrome" || caps["se:name"] != "adtest" || args[len(args)-1] != "--lang=fr" || args[1] != "--no-sandbox" {
		t.Errorf("capabilities sent: %v", caps)
	}
	if g.posts[0] != "application/json; charset=utf-8" {
		t.Errorf("Content-Type %q", g.posts[0])
	}
}

func TestGridDialURL(t *testing.T) {
	t.Parallel()
	tests := []struct{ grid, cdp, want string }{
		{"http://127.0.0.1:4444", "ws://127.0.0.1:4444/session/a/se/cdp", "ws://127.0.0.1:4444/session/a/se/cdp"},
		{"http://127.0.0.1:4444", "ws://10.1.2.3:4444/session/a/se/cdp", "ws://127.0.0.1:4444/session/a/se/cdp"},
		{"https://u:p@grid.example/selenium?token=x", "ws://10.1.2.3:4444/session/a/se/cdp", "wss://grid.example/selenium/session/a/se/cdp?token=x"},
	}
	for _, tc := range tests {
		g, err := newGrid(GridOptions{URL: tc.grid})
		if err != nil {
			t.Fatal(err)
		}
		if got, err := g.dialURL(tc.cdp); err != nil || got != tc.want {
			t.Errorf("%s + %s: %q, %v; want %q", tc.grid, tc.cdp, got, err, tc.want)
		}
	}
}

func TestGridCapabilities(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, user string
		check      func(map[string]any) bool
	}{
		{"defaults", "", func(c map[string]any) bool { return c["browserName"] == "chrome" }},
		{"browser replaced", `{"browserName":"MicrosoftEdge"}`, func(c map[string]any) bool { return c["browserName"] == "MicrosoftEdge" }},
		{"w3c form", `{"capabilities":{"alwaysMatch":{"platformName":"linux"}}}`, func(c map[string]any) bool {
			return c["platformName"] == "linux" && c["browserName"] == "chrome"
		}},
		{"binary set", `{"goog:chromeOptions":{"binary":"/opt/chrome"}}`, func(c map[string]any) bool {
			o := c["goog:chromeOptions"].(map[string]any)
			return o["binary"] == "/opt/chrome" && len(o["args"].([]any)) == 5
		}},
		{"null removes", `{"goog:chromeOptions":{"binary":null,"args":null}}`, func(c map[string]any) bool {
			o := c["goog:chromeOptions"].(map[string]any)
			return o["binary"] == nil && o["args"] == nil
		}},
	}
	for _, tc := range tests {
		c, err := GridCapabilities(tc.user, true)
		if err != nil || !tc.check(c) {
			t.Errorf("%s: %v %v", tc.name, c, err)
		}
	}
	if _, err := GridCapabilities(`["chrome"]`, false); err == nil || !strings.Contains(err.Error(), "--grid-capabilities: want a JSON object") {
		t.Errorf("a JSON array: %v", err)
	}
}

// TestGridSweepWaitsForReservedSlot: a request abandoned by an interrupted
// run that the Grid has taken from its queue is, while its node starts the
// browser, neither queued nor a session: only its slot is reserved. The
// sweep keeps going through more quiet rounds than it needs otherwise and
// ends the session once it shows (it used to stop after five rounds and
// leave it holding its slot).
func TestGridSweepWaitsForReservedSlot(t *testing.T) {
	t.Parallel()
	const reservedRounds = 8 // more than the five quiet rounds that end a sweep
	var (
		mu      sync.Mutex
		rounds  int // GraphQL questions so far
		deleted bool
	)
	var gr *grid
	mux := http.NewServeMux()
	mux.HandleFunc("POST /graphql", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		rounds++
		sessions := `[]`
		if rounds > reservedRounds && !deleted {
			sessions = `[{"id":"late","capabilities":"{\"` + markKey + `\":\"` + gr.mark + `\"}"}]`
		}
		w.Write([]byte(`{"data":{"sessionsInfo":{"sessions":` + sessions + `,"sessionQueueRequests":[]}}}`))
	})
	mux.HandleFunc("GET /status", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		slot := `{"stereotype":{"browserName":"chrome"},"session":null}`
		switch {
		case rounds <= reservedRounds:
			slot = `{"stereotype":{"browserName":"chrome"},"session":{"sessionId":"reserved"}}`
		case !deleted:
			slot = `{"stereotype":{"browserName":"chrome"},"session":{"sessionId":"late"}}`
		}
		w.Write([]byte(`{"value":{"ready":true,"nodes":[{"uri":"http://127.0.0.1:5555","slots":[` + slot + `]}]}}`))
	})
	mux.HandleFunc("DELETE /session/{id}", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.PathValue("id") == "late" {
			deleted = true
		}
		w.Write([]byte(`{"value":null}`))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	var err error
	gr, err = newGrid(GridOptions{URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	gr.sweepEvery = 5 * time.Millisecond
	gr.abandoned.Store(true)
	gr.sweep()
	mu.Lock()
	defer mu.Unlock()
	if !deleted {
		t.Fatalf("the sweep stopped after %d rounds without ending the session that was being created", rounds)
	}
}
