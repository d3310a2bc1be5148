package web

// A Selenium Grid 4 as the source of browsers (--grid). Each worker gets one
// W3C WebDriver session of its own (POST /session), placed by the Grid on
// one of its nodes; adtest then drives that browser over CDP through the
// session's se:cdp endpoint, exactly as it drives a --cdp-url browser, and
// ends the session (DELETE /session/{id}) whenever the browser is let go:
// the provider's Close, a browser found dead (its node gone), a start that
// failed half-way. The Grid's URL may carry credentials (user:password@,
// or a token in the query): they go with every call, the websocket
// included, and are masked in every message (redactURL).

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/adtest/adtest/drivers"
)

// GridOptions are --grid, --grid-capabilities and --grid-timeout.
type GridOptions struct {
	// URL is the Grid's hub or router: http(s)://[user:password@]host:port[/prefix][?token=...].
	URL string
	// Capabilities is a JSON object merged over the defaults
	// (GridCapabilities); "" keeps the defaults.
	Capabilities string
	// Timeout bounds the wait for a new session, the Grid's queue included
	// (DefaultGridTimeout when 0).
	Timeout time.Duration
}

// DefaultGridTimeout is how long a new session may wait for a free slot:
// the Grid's own queue timeout (--session-request-timeout) by default.
const DefaultGridTimeout = 5 * time.Minute

// gridCallTimeout bounds every call to the Grid other than a new session:
// its status, the end of a session.
const gridCallTimeout = 15 * time.Second

// abandonGrace is how long a session request outlives the run that stopped
// waiting for it (openOnce): long enough for a node to start a browser.
const abandonGrace = 10 * time.Second

// grid is a Selenium Grid 4's client.
type grid struct {
	base    *url.URL // the Grid's URL without its credentials
	auth    string   // the Authorization header ("" without credentials)
	shown   string   // the URL as messages show it (credentials masked)
	caps    map[string]any
	timeout time.Duration
	client  *http.Client
	// mark is this provider's own value of the capability markKey: the
	// Grid keeps it in its sessions' capabilities, so that sessions asked
	// for and abandoned (an interrupt while the Grid was creating one) are
	// found and ended (sweep).
	mark      string
	abandoned atomic.Bool
	inflight  atomic.Int32                     // requests for a session not answered yet
	logf      func(format string, args ...any) // --debug's lines (never nil)
	// sweepEvery is the pause between two rounds of sweep.
	sweepEvery time.Duration
}

// markKey is the capability that marks the sessions of one provider.
const markKey = "adtest:provider"

// newGrid checks the options; it calls nothing.
func newGrid(o GridOptions) (*grid, error) {
	u, err := url.Parse(o.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%w: --grid %s: want the Grid's URL, http(s)://host:port (e.g. http://127.0.0.1:4444)", drivers.ErrInfrastructure, redactURL(o.URL))
	}
	g := &grid{shown: redactURL(o.URL), timeout: o.Timeout, client: &http.Client{}, mark: newMark(), logf: func(string, ...any) {}, sweepEvery: time.Second}
	if g.timeout <= 0 {
		g.timeout = DefaultGridTimeout
	}
	if u.User != nil {
		pw, _ := u.User.Password()
		g.auth = "Basic " + base64.StdEncoding.EncodeToString([]byte(u.User.Username()+":"+pw))
		u.User = nil
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawPath = ""
	g.base = u
	g.caps, err = GridCapabilities(o.Capabilities, isLoopback(u.Hostname()))
	if err != nil {
		return nil, err
	}
	return g, nil
}

// GridCapabilities returns the capabilities of a new session: user (a JSON
// object, bare or as {"capabilities":{"alwaysMatch":...}}) merged over the
// defaults. The defaults ask for Chrome, headless, without the sandbox (a
// node in a container runs as root), with the flags of a local run; on a
// Grid of this machine (loopback) whose Chromium is Debian's, its headless
// shell, which Debian's chromedriver does not find on its own. In user, an
// object is merged key by key, null removes a default, Chrome's args are
// added to the defaults' and any other value replaces the default's.
func GridCapabilities(user string, loopback bool) (map[string]any, error) {
	chrome := map[string]any{"args": []any{
		"--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,800",
		"--disable-features=" + strings.Join(disabledFeatures, ","),
	}}
	if loopback {
		if st, err := os.Stat(debianShell); err == nil && !st.IsDir() {
			chrome["binary"] = debianShell
		}
	}
	caps := map[string]any{"browserName": "chrome", "goog:chromeOptions": chrome}
	if strings.TrimSpace(user) == "" {
		return caps, nil
	}
	var u map[string]any
	if err := json.Unmarshal([]byte(user), &u); err != nil || u == nil {
		return nil, fmt.Errorf("%w: --grid-capabilities: want a JSON object such as {\"browserName\":\"chrome\"}: %v", drivers.ErrInfrastructure, jsonProblem(err))
	}
	if c, ok := u["capabilities"].(map[string]any); ok {
		u = c
	}
	if a, ok := u["alwaysMatch"].(map[string]any); ok {
		u = a
	}
	mergeCaps(caps, u)
	return caps, nil
}

func jsonProblem(err error) string {
	if err == nil {
		return "null"
	}
	return err.Error()
}

// mergeCaps merges src over dst (GridCapabilities says how).
func mergeCaps(dst, src map[string]any) {
	for k, v := range src {
		switch sv := v.(type) {
		case nil:
			delete(dst, k)
			continue
		case map[string]any:
			if dv, ok := dst[k].(map[string]any); ok {
				mergeCaps(dv, sv)
				continue
			}
		case []any:
			if dv, ok := dst[k].([]any); ok && k == "args" {
				for _, a := range sv {
					if !slices.Contains(dv, a) {
						dv = append(dv, a)
					}
				}
				dst[k] = dv
				continue
			}
		}
		dst[k] = v
	}
}

func isLoopback(host string) bool {
	return host == "localhost" || net.ParseIP(host).IsLoopback()
}

// call sends one request to the Grid and decodes the answer's "value".
func (g *grid) call(ctx context.Context, method, path string, body any) (int, json.RawMessage, error) {
	u := *g.base
	u.Path = g.base.Path + path
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, nil, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), rd)
	if err != nil {
		return 0, nil, err
	}
	if body != nil {
		// The Grid refuses JSON that does not say it is UTF-8.
		req.Header.Set("Content-Type", "application/json; charset=utf-8")
	}
	req.Header.Set("Accept", "application/json")
	if g.auth != "" {
		req.Header.Set("Authorization", g.auth)
	}
	resp, err := g.client.Do(req)
	if err != nil {
		return 0, nil, errors.New(g.scrub(err.Error()))
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return resp.StatusCode, nil, errors.New(g.scrub(err.Error()))
	}
	var env struct {
		Value json.RawMessage `json:"value"`
	}
	if json.Unmarshal(raw, &env) != nil || env.Value == nil {
		return resp.StatusCode, nil, errNotW3C
	}
	return resp.StatusCode, env.Value, nil
}

var errNotW3C = errors.New("the answer is not a WebDriver JSON object")

// scrub keeps the Grid's credentials out of a transport error.
func (g *grid) scrub(msg string) string {
	if q := g.base.RawQuery; q != "" {
		msg = strings.ReplaceAll(msg, q, drivers.Mask)
	}
	return msg
}

func (g *grid) fail(format string, a ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{drivers.ErrInfrastructure}, a...)...)
}

func (g *grid) refusedAuth(status int) error {
	return fmt.Errorf("%w: the Selenium Grid at %s refused the credentials (%d %s); check the user and password (or the token) in --grid", ErrAuth, g.shown, status, http.StatusText(status))
}

// gridStatus is the part of GET /status adtest reads.
type gridStatus struct {
	Ready   *bool  `json:"ready"`
	Message string `json:"message"`
	Nodes   []struct {
		URI          string `json:"uri"`
		Availability string `json:"availability"`
		Slots        []struct {
			Stereotype map[string]any `json:"stereotype"`
			// Session is the slot's session; its id is "reserved" while
			// the node creates it (the Grid lists it nowhere else then).
			Session *struct {
				ID string `json:"sessionId"`
			} `json:"session"`
		} `json:"slots"`
	} `json:"nodes"`
}

// check asks the Grid for its status: it answers, it is a Grid, it takes
// the credentials, and (when it lists its nodes) one of them offers the
// browser asked for. A Grid without any node yet (one that starts nodes on
// demand) is waited for by the first session.
func (g *grid) check(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, gridCallTimeout)
	defer cancel()
	status, v, err := g.call(ctx, http.MethodGet, "/status", nil)
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return g.refusedAuth(status)
	case err != nil && status == 0:
		if ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return g.fail("the Selenium Grid at %s did not answer GET /status within %s; check --grid and that the hub runs", g.shown, gridCallTimeout)
		}
		return g.fail("could not reach the Selenium Grid at %s (%v); check --grid and that the hub runs", g.shown, lastPart(err))
	}
	var st gridStatus
	if err != nil || json.Unmarshal(v, &st) != nil || st.Ready == nil || status != http.StatusOK {
		answered := fmt.Sprintf("%d %s", status, http.StatusText(status))
		if status == http.StatusOK {
			answered = "200 OK, not a Grid's status"
		}
		return g.fail("%s is not a Selenium Grid (GET /status answered %s); give the URL of the Grid's hub or router, e.g. http://host:4444", g.shown, answered)
	}
	want, _ := g.caps["browserName"].(string)
	if len(st.Nodes) == 0 || want == "" {
		return nil
	}
	var offered []string
	for _, n := range st.Nodes {
		for _, s := range n.Slots {
			b, _ := s.Stereotype["browserName"].(string)
			if strings.EqualFold(b, want) {
				return nil
			}
			if b != "" && !slices.Contains(offered, b) {
				offered = append(offered, b)
			}
		}
	}
	sort.Strings(offered)
	return g.fail("the Selenium Grid at %s has no node offering browserName %q (its %d node(s) offer: %s); add a Chrome node to the Grid, or set browserName in --grid-capabilities", g.shown, want, len(st.Nodes), strings.Join(offered, ", "))
}

// lastPart is the end of a transport error ("dial tcp ...: connect:
// connection refused" -> "connection refused").
func lastPart(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		return msg[i+2:]
	}
	return msg
}

// gridSession is one WebDriver session of the Grid.
type gridSession struct {
	id     string
	ws     string      // the websocket to dial for CDP
	header http.Header // sent with the websocket's handshake
}

// open creates a session (waiting in the Grid's queue up to the timeout)
// and returns where its CDP endpoint is. A session the Grid created but
// adtest cannot use (no se:cdp: a Grid 3) is ended before the error
// returns.
func (g *grid) open(ctx context.Context) (*gridSession, error) {
	ctx, cancel := context.WithTimeout(ctx, g.timeout)
	defer cancel()
	g.inflight.Add(1)
	defer g.inflight.Add(-1)
	// A node the Grid has not yet noticed is gone fails the request it was
	// given: asked again, the Grid places it on another node (or, once it
	// has dropped the dead one, queues it).
	retry := time.NewTicker(time.Second)
	defer retry.Stop()
	for {
		s, err := g.openOnce(ctx)
		var nerr *nodeError
		if !errors.As(err, &nerr) {
			return s, err
		}
		select {
		case <-ctx.Done():
			return nil, err
		case <-retry.C:
		}
	}
}

// nodeError is a refusal that names a node the Grid could not reach.
type nodeError struct{ error }

func (e *nodeError) Unwrap() error { return e.error }

func (g *grid) openOnce(ctx context.Context) (*gridSession, error) {
	caps := maps.Clone(g.caps)
	caps[markKey] = g.mark
	body := map[string]any{"capabilities": map[string]any{"alwaysMatch": caps}}
	// A request the caller stops waiting for (an interrupted run) may still
	// be answered: a Grid that has placed it creates the session on a node
	// whatever adtest does next, and a session created after adtest exited
	// holds its slot until the Grid's own timeout. So the request outlives a
	// cancelled context by up to abandonGrace, and a session answered then
	// is ended below; one still unanswered is left to sweep. A deadline
	// (--grid-timeout) ends the request at once.
	pctx, pcancel := context.WithCancel(context.WithoutCancel(ctx))
	defer pcancel()
	if dl, ok := ctx.Deadline(); ok {
		var dcancel context.CancelFunc
		pctx, dcancel = context.WithDeadline(pctx, dl)
		defer dcancel()
	}
	grace := time.AfterFunc(time.Duration(1<<62), pcancel)
	defer grace.Stop()
	stop := context.AfterFunc(ctx, func() { grace.Reset(abandonGrace) })
	defer stop()
	status, v, err := g.call(pctx, http.MethodPost, "/session", body)
	if err != nil && status == 0 {
		// The Grid may still create it: sweep finds it.
		g.abandoned.Store(true)
		g.logf("web: Grid: a request for a session got no answer (%v); left to the sweep", err)
	}
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return nil, g.refusedAuth(status)
	case err != nil && status == 0:
		// pctx has ctx's deadline on a timer of its own, which may fire first.
		if errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(pctx.Err(), context.DeadlineExceeded) {
			return nil, g.fail("the Selenium Grid at %s gave no session within --grid-timeout %s (every slot busy, or no node matches the capabilities); raise --grid-timeout, add nodes, or check --grid-capabilities", g.shown, g.timeout)
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, g.fail("could not reach the Selenium Grid at %s (%v); check --grid and that the hub runs", g.shown, lastPart(err))
	case err != nil:
		return nil, g.fail("the Selenium Grid at %s answered POST /session with %d %s and no WebDriver JSON; check --grid", g.shown, status, http.StatusText(status))
	}
	var ok struct {
		SessionID    string         `json:"sessionId"`
		Capabilities map[string]any `json:"capabilities"`
		Error        string         `json:"error"`
		Message      string         `json:"message"`
	}
	if err := json.Unmarshal(v, &ok); err != nil {
		return nil, g.fail("the Selenium Grid at %s answered POST /session with %d and an unreadable value: %v", g.shown, status, err)
	}
	if status != http.StatusOK || ok.SessionID == "" {
		return nil, g.refusal(status, ok.Error, ok.Message)
	}
	if ctx.Err() != nil {
		// Answered after the caller stopped waiting: nobody will use it.
		g.logf("web: Grid session %s came after the run stopped waiting: ending it", ok.SessionID)
		g.end(ok.SessionID)
		return nil, ctx.Err()
	}
	cdp, _ := ok.Capabilities["se:cdp"].(string)
	if cdp == "" {
		g.end(ok.SessionID)
		return nil, g.fail("the Selenium Grid at %s gave a session without se:cdp (a Grid 3, or a node without CDP): adtest drives Chromium over CDP; use a Selenium Grid 4 with Chrome or Chromium nodes", g.shown)
	}
	ws, err := g.dialURL(cdp)
	if err != nil {
		g.end(ok.SessionID)
		return nil, err
	}
	s := &gridSession{id: ok.SessionID, ws: ws, header: http.Header{}}
	if g.auth != "" {
		s.header.Set("Authorization", g.auth)
	}
	return s, nil
}

// refusal names what the Grid said when it created no session.
func (g *grid) refusal(status int, code, message string) error {
	first := strings.TrimSpace(message)
	if i := strings.IndexAny(first, "\n"); i >= 0 {
		first = strings.TrimSpace(first[:i])
	}
	if len(first) > 300 {
		first = first[:300] + "..."
	}
	if code == "" {
		code = http.StatusText(status)
	}
	low := strings.ToLower(message)
	hint := "check --grid-capabilities and the Grid's nodes"
	switch {
	case strings.Contains(low, "failed to execute request") || strings.Contains(low, "connection error") ||
		strings.Contains(low, "connection refused") || strings.Contains(low, "unable to connect"):
		return &nodeError{g.fail("the Selenium Grid at %s created no session (%d %s: %s); a node of the Grid did not answer: check its nodes", g.shown, status, code, g.scrub(first))}
	case strings.Contains(low, "no nodes support the capabilities") || strings.Contains(low, "unable to find provider"):
		hint = "no node of the Grid matches the capabilities: add a Chrome node, or change --grid-capabilities"
	case strings.Contains(low, "timed out") || strings.Contains(low, "timeout"):
		hint = "the Grid's queue timed out before a slot was free: add nodes, run fewer workers (-j), or raise the Grid's --session-request-timeout"
	case strings.Contains(low, "binary") || strings.Contains(low, "cannot find chrome"):
		hint = "the node did not find its browser: set goog:chromeOptions.binary in --grid-capabilities to the node's Chromium"
	}
	return g.fail("the Selenium Grid at %s created no session (%d %s: %s); %s", g.shown, status, code, g.scrub(first), hint)
}

// dialURL is the websocket to dial for a session's se:cdp: as given when it
// names the Grid's own host, else the same path through the Grid's URL (a
// Grid reports its nodes' or its machine's own address, which the client
// may not reach; the router proxies /session/{id}/se/cdp). The Grid URL's
// query (a token) is carried over.
func (g *grid) dialURL(cdp string) (string, error) {
	u, err := url.Parse(cdp)
	if err != nil || (u.Scheme != "ws" && u.Scheme != "wss") {
		return "", g.fail("the Selenium Grid at %s gave a session whose se:cdp is not a websocket URL", g.shown)
	}
	if u.Host != g.base.Host {
		path := u.Path
		if i := strings.Index(path, "/session/"); i >= 0 {
			path = path[i:]
		}
		u.Host = g.base.Host
		u.Path = g.base.Path + path
		u.RawPath = ""
		u.Scheme = "ws"
		if g.base.Scheme == "https" {
			u.Scheme = "wss"
		}
	}
	u.User = nil
	if g.base.RawQuery != "" {
		q := u.Query()
		for k, vs := range g.base.Query() {
			if _, ok := q[k]; !ok {
				q[k] = vs
			}
		}
		u.RawQuery = q.Encode()
	}
	return u.String(), nil
}

// end ends a session, bounded, whatever the caller's context: it runs on
// every way out (a run interrupted included).
func (g *grid) end(id string) error {
	ctx, cancel := context.WithTimeout(context.Background(), gridCallTimeout)
	defer cancel()
	status, _, err := g.call(ctx, http.MethodDelete, "/session/"+url.PathEscape(id), nil)
	g.logf("web: Grid session %s ended (DELETE answered %d, %v)", id, status, err)
	if err != nil && status == 0 {
		return fmt.Errorf("ending session %s on the Selenium Grid at %s: %v", id, g.shown, lastPart(err))
	}
	if status >= 300 && status != http.StatusNotFound {
		return fmt.Errorf("ending session %s on the Selenium Grid at %s: %d %s", id, g.shown, status, http.StatusText(status))
	}
	return nil
}

// newMark is a random value for markKey.
func newMark() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// sweepBound bounds the search for abandoned sessions.
const sweepBound = 30 * time.Second

// sweep ends the sessions of this provider the Grid created after adtest
// stopped waiting for them (only when a request was abandoned): it asks the
// Grid's GraphQL for the sessions and queued requests carrying the mark,
// ends the sessions, and stops once five rounds a second apart find neither
// and no slot of any node reserved, or at sweepBound. A request the Grid
// has taken from its queue is neither queued nor a session while its node
// starts the browser (seconds on a loaded machine): its slot is reserved
// (GET /status), and whose request that is the Grid does not say, so any
// reservation keeps the sweep going.
func (g *grid) sweep() {
	if !g.abandoned.Load() && g.inflight.Load() == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), sweepBound)
	defer cancel()
	tick := time.NewTicker(g.sweepEvery)
	defer tick.Stop()
	for quiet := 0; quiet < 5; {
		ids, queued, err := g.marked(ctx)
		if err != nil {
			g.logf("web: Grid: sweep stopped: %v", err)
			return // a Grid without GraphQL: nothing more to find
		}
		reserved := g.reserved(ctx)
		g.logf("web: Grid: sweep found %d session(s) of this run, queued %v, %d slot(s) reserved", len(ids), queued, reserved)
		for _, id := range ids {
			g.end(id)
		}
		if len(ids) == 0 && !queued && reserved == 0 {
			quiet++
		} else {
			quiet = 0
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// reserved counts the slots of the Grid's nodes whose session is being
// created (0 when the Grid does not say).
func (g *grid) reserved(ctx context.Context) int {
	cctx, cancel := context.WithTimeout(ctx, gridCallTimeout)
	defer cancel()
	status, v, err := g.call(cctx, http.MethodGet, "/status", nil)
	var st gridStatus
	if err != nil || status != http.StatusOK || json.Unmarshal(v, &st) != nil {
		return 0
	}
	n := 0
	for _, node := range st.Nodes {
		for _, s := range node.Slots {
			if s.Session != nil && s.Session.ID == reservedID {
				n++
			}
		}
	}
	return n
}

// reservedID is the session id of a Grid 4 slot whose session is being
// created.
const reservedID = "reserved"

// marked lists the Grid's sessions carrying this provider's mark and says
// whether a request carrying it is queued.
func (g *grid) marked(ctx context.Context) (ids []string, queued bool, err error) {
	q := map[string]string{"query": "{ sessionsInfo { sessions { id capabilities } sessionQueueRequests } }"}
	cctx, cancel := context.WithTimeout(ctx, gridCallTimeout)
	defer cancel()
	u := *g.base
	u.Path = g.base.Path + "/graphql"
	b, _ := json.Marshal(q)
	req, err := http.NewRequestWithContext(cctx, http.MethodPost, u.String(), bytes.NewReader(b))
	if err != nil {
		return nil, false, err
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	if g.auth != "" {
		req.Header.Set("Authorization", g.auth)
	}
	resp, err := g.client.Do(req)
	if err != nil {
		return nil, false, err
	}
	defer resp.Body.Close()
	var out struct {
		Data struct {
			SessionsInfo struct {
				Sessions []struct {
					ID           string `json:"id"`
					Capabilities string `json:"capabilities"`
				} `json:"sessions"`
				Queue []string `json:"sessionQueueRequests"`
			} `json:"sessionsInfo"`
		} `json:"data"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 8<<20)).Decode(&out); err != nil || resp.StatusCode != http.StatusOK {
		return nil, false, fmt.Errorf("graphql: %d %v", resp.StatusCode, err)
	}
	for _, s := range out.Data.SessionsInfo.Sessions {
		if strings.Contains(s.Capabilities, g.mark) {
			ids = append(ids, s.ID)
		}
	}
	for _, r := range out.Data.SessionsInfo.Queue {
		if strings.Contains(r, g.mark) {
			queued = true
		}
	}
	return ids, queued, nil
}
