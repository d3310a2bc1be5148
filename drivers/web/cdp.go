package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/adtest/adtest/drivers"
)

// Remote browsers (--cdp-url) are addressed as their pools hand them out:
//
//	ws://host:port/chromium?token=T            browserless (as given)
//	wss://grid.example/session/ID/se/cdp       Selenium Grid's se:cdp (as given)
//	http://host:9222                           a Chromium's debugging port
//	https://pool.example/?token=T              resolved through /json/version
//
// A ws:// or wss:// URL is dialled exactly as given, path and query
// included. An http(s):// URL is resolved to the browser's websocket URL
// with GET <path>/json/version?<query>; the query (a token) is carried over
// to the websocket URL, and a loopback host in the answer (Chromium reports
// its own 127.0.0.1) is replaced by the host the user gave.

// ErrAuth marks a remote browser that refused the credentials in the URL.
var ErrAuth = fmt.Errorf("%w: authentication failed", drivers.ErrInfrastructure)

// authStatus matches the refusal of a websocket handshake.
var authStatus = regexp.MustCompile(`unexpected status "(401|403)`)

// authError reports whether err is a refused websocket handshake and
// returns the error to show.
func authError(cdpURL string, err error) (error, bool) {
	if err == nil || !authStatus.MatchString(err.Error()) {
		return nil, false
	}
	return fmt.Errorf("%w: the browser at %s refused the connection (%s); check the token or credentials in --cdp-url", ErrAuth, redactURL(cdpURL), authStatus.FindString(err.Error())[len(`unexpected status "`):]), true
}

// redactURL hides the query values and password of u (tokens) in messages.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "the --cdp-url"
	}
	if u.User != nil {
		u.User = url.User(u.User.Username())
	}
	if u.RawQuery != "" {
		q := u.Query()
		for k := range q {
			q[k] = []string{drivers.Mask}
		}
		u.RawQuery = strings.ReplaceAll(q.Encode(), "%2A", "*")
	}
	return u.String()
}

// resolveCDP returns the websocket URL to dial for cdpURL.
func resolveCDP(ctx context.Context, cdpURL string) (string, error) {
	u, err := url.Parse(cdpURL)
	if err != nil {
		return "", fmt.Errorf("%w: --cdp-url %q: %v", drivers.ErrInfrastructure, cdpURL, err)
	}
	switch u.Scheme {
	case "ws", "wss":
		return cdpURL, nil
	case "http", "https":
	default:
		return "", fmt.Errorf("%w: --cdp-url %q must start with ws://, wss://, http:// or https://", drivers.ErrInfrastructure, cdpURL)
	}
	ver := *u
	ver.Path = strings.TrimSuffix(u.Path, "/") + "/json/version"
	ver.RawPath = ""
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, ver.String(), nil)
	if err != nil {
		return "", fmt.Errorf("%w: --cdp-url: %v", drivers.ErrInfrastructure, err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", fmt.Errorf("%w: web: could not reach the browser at %s: %v", drivers.ErrInfrastructure, redactURL(cdpURL), scrubQuery(err, u.RawQuery))
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		full := &poolFullError{}
		if secs, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && secs > 0 {
			full.retryAfter = time.Duration(secs) * time.Second
		}
		return "", full
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return "", fmt.Errorf("%w: the browser at %s refused the connection (%s); check the token or credentials in --cdp-url", ErrAuth, redactURL(cdpURL), resp.Status)
	case resp.StatusCode != http.StatusOK:
		return "", fmt.Errorf("%w: web: %s answered %s to /json/version; give the websocket URL (ws://...) instead", drivers.ErrInfrastructure, redactURL(cdpURL), resp.Status)
	}
	var v struct {
		WS string `json:"webSocketDebuggerUrl"`
	}
	if err := json.Unmarshal(body, &v); err != nil || v.WS == "" {
		return "", fmt.Errorf("%w: web: %s/json/version has no webSocketDebuggerUrl; give the websocket URL (ws://...) instead", drivers.ErrInfrastructure, redactURL(cdpURL))
	}
	ws, err := url.Parse(v.WS)
	if err != nil {
		return "", fmt.Errorf("%w: web: %s/json/version: bad webSocketDebuggerUrl: %v", drivers.ErrInfrastructure, redactURL(cdpURL), err)
	}
	if h := ws.Hostname(); (h == "localhost" || h == "0.0.0.0" || net.ParseIP(h).IsLoopback()) && ws.Host != u.Host {
		ws.Host = u.Host
		if u.Scheme == "https" {
			ws.Scheme = "wss"
		}
	}
	// Carry the query over: keys the answer lacks are added.
	if u.RawQuery != "" {
		q := ws.Query()
		for k, vs := range u.Query() {
			if _, ok := q[k]; !ok {
				q[k] = vs
			}
		}
		ws.RawQuery = q.Encode()
	}
	return ws.String(), nil
}

// scrubQuery keeps a token out of an error message.
func scrubQuery(err error, rawQuery string) string {
	msg := err.Error()
	if rawQuery != "" {
		msg = strings.ReplaceAll(msg, rawQuery, drivers.Mask)
	}
	return msg
}

// queryOf is the raw query of a URL ("" when it has none or does not parse).
func queryOf(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		return u.RawQuery
	}
	return ""
}
