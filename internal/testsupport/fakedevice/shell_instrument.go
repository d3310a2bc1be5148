package fakedevice

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/adtest/adtest/drivers"
)

// `am instrument`: the persistent snapshot helper and its session requests.

// helperSession is one running persistent helper: the device port it
// listens on and its stop signal.
type helperSession struct {
	port int
	once sync.Once
	quit chan struct{}
}

func (s *helperSession) stop() { s.once.Do(func() { close(s.quit) }) }

func (s *helperSession) stopped() bool {
	select {
	case <-s.quit:
		return true
	default:
		return false
	}
}

func statusBlock(w io.Writer, prefix string, kv map[string]string, codeLine string) {
	keys := make([]string, 0, len(kv))
	for k := range kv {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s: %s=%s\n", prefix, k, kv[k])
	}
	b.WriteString(codeLine + "\n")
	io.WriteString(w, b.String())
}

// instrument emulates `am instrument -w [-e k v]... RUNNER`.
func (d *Device) instrument(args []string, stdout io.Writer, done <-chan struct{}) int {
	extras := map[string]string{}
	runner := ""
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "-w", "-r", "-m":
		case "-e":
			if i+2 < len(args) {
				extras[args[i+1]] = args[i+2]
				i += 2
			}
		default:
			runner = args[i]
		}
	}
	if runner != helperRunner || d.HelperVersion() == 0 {
		io.WriteString(stdout, "INSTRUMENTATION_STATUS: Error=Unable to find instrumentation info for: ComponentInfo{"+runner+"}\nINSTRUMENTATION_STATUS: id=ActivityManagerService\nINSTRUMENTATION_STATUS_CODE: -1\nandroid.util.AndroidException: INSTRUMENTATION_FAILED: "+runner+"\n")
		return 1
	}
	// One UiAutomation per device: a new instrumentation ends the old one.
	d.mu.Lock()
	for _, s := range d.sessions {
		s.stop()
	}
	d.mu.Unlock()
	api := "2"
	if p, ok := extras["sessionPort"]; ok {
		port, err := strconv.Atoi(p)
		if err != nil || port <= 0 {
			statusBlock(stdout, "INSTRUMENTATION_RESULT", map[string]string{"ok": "false", "errorType": "java.lang.IllegalArgumentException", "message": "bad sessionPort"}, "INSTRUMENTATION_CODE: 0")
			return 1
		}
		sess := &helperSession{port: port, quit: make(chan struct{})}
		d.mu.Lock()
		d.count("instrument-session")
		d.sessions[port] = sess
		d.mu.Unlock()
		defer func() {
			d.mu.Lock()
			if d.sessions[port] == sess {
				delete(d.sessions, port)
			}
			d.mu.Unlock()
		}()
		statusBlock(stdout, "INSTRUMENTATION_STATUS", map[string]string{"agentDeviceProtocol": helperProtocol, "helperApiVersion": api,
			"sessionPort": p, "sessionReady": "true"}, "INSTRUMENTATION_STATUS_CODE: 2")
		select {
		case <-sess.quit:
		case <-done:
			return 0
		}
		statusBlock(stdout, "INSTRUMENTATION_RESULT", map[string]string{"ok": "true", "sessionClosed": "true"}, "INSTRUMENTATION_CODE: -1")
		return 0
	}
	d.mu.Lock()
	d.count("instrument-oneshot")
	d.mu.Unlock()
	switch extras["mode"] {
	case "", "snapshot":
		xml, meta, err := d.hierarchy(false)
		if err != nil {
			statusBlock(stdout, "INSTRUMENTATION_RESULT", map[string]string{"ok": "false", "errorType": "java.lang.IllegalStateException", "message": err.Error()}, "INSTRUMENTATION_CODE: 0")
			return 0
		}
		chunks := chunk([]byte(xml), 2048)
		for i, c := range chunks {
			statusBlock(stdout, "INSTRUMENTATION_STATUS", map[string]string{"agentDeviceProtocol": helperProtocol, "helperApiVersion": api,
				"outputFormat": "uiautomator-xml", "chunkIndex": strconv.Itoa(i), "chunkCount": strconv.Itoa(len(chunks)),
				"payloadBase64": base64.StdEncoding.EncodeToString(c)}, "INSTRUMENTATION_STATUS_CODE: 1")
		}
		res := map[string]string{"agentDeviceProtocol": helperProtocol, "helperApiVersion": api, "outputFormat": "uiautomator-xml", "ok": "true"}
		for k, v := range meta {
			res[k] = v
		}
		statusBlock(stdout, "INSTRUMENTATION_RESULT", res, "INSTRUMENTATION_CODE: -1")
	case "viewport":
		vp := d.opts.Screens.Viewport
		statusBlock(stdout, "INSTRUMENTATION_RESULT", map[string]string{"agentDeviceProtocol": helperProtocol, "ok": "true",
			"x": "0", "y": "0", "width": fmt.Sprint(vp.Width), "height": fmt.Sprint(vp.Height)}, "INSTRUMENTATION_CODE: -1")
	case "gesture":
		res := d.gesture(extras["payloadBase64"])
		res["agentDeviceProtocol"] = helperProtocol
		statusBlock(stdout, "INSTRUMENTATION_RESULT", res, "INSTRUMENTATION_CODE: -1")
	}
	return 0
}

func chunk(b []byte, n int) [][]byte {
	var out [][]byte
	for len(b) > n {
		out = append(out, b[:n])
		b = b[n:]
	}
	return append(out, b)
}

// touchPlan is agent-device's android-touch-plan-v1.
type touchPlan struct {
	Protocol   string `json:"protocol"`
	Kind       string `json:"kind"`
	DurationMs int    `json:"durationMs"`
	Pointers   []struct {
		PointerID int `json:"pointerId"`
		Samples   []struct {
			OffsetMs int     `json:"offsetMs"`
			X        float64 `json:"x"`
			Y        float64 `json:"y"`
		} `json:"samples"`
	} `json:"pointers"`
}

// gesture applies a touch plan and returns the answer's fields.
func (d *Device) gesture(payload string) map[string]string {
	fail := func(msg string) map[string]string {
		return map[string]string{"ok": "false", "errorType": "java.lang.IllegalArgumentException", "message": msg}
	}
	raw, err := base64.StdEncoding.DecodeString(payload)
	if err != nil {
		return fail("payload is not base64")
	}
	var p touchPlan
	if err := json.Unmarshal(raw, &p); err != nil || p.Protocol != "android-touch-plan-v1" || len(p.Pointers) == 0 {
		return fail("bad touch plan")
	}
	if p.Kind == "swipe" && len(p.Pointers) != 1 || p.Kind == "transform" && len(p.Pointers) != 2 {
		return fail("pointer count does not match kind")
	}
	samples := 0
	for _, ptr := range p.Pointers {
		last := -1
		for _, s := range ptr.Samples {
			if s.OffsetMs <= last {
				return fail("offsetMs must rise strictly")
			}
			last = s.OffsetMs
		}
		if len(ptr.Samples) < 2 || ptr.Samples[0].OffsetMs != 0 || last != p.DurationMs {
			return fail("samples must run from 0 to durationMs")
		}
		samples += len(ptr.Samples)
	}
	d.mu.Lock()
	d.count("gesture-" + p.Kind)
	d.mu.Unlock()
	if p.Kind == "swipe" {
		s := p.Pointers[0].Samples
		ctx, cancel := appCtx()
		d.drag(ctx, drivers.Point{X: s[0].X, Y: s[0].Y}, drivers.Point{X: s[len(s)-1].X, Y: s[len(s)-1].Y}, time.Duration(p.DurationMs)*time.Millisecond)
		cancel()
	}
	return map[string]string{"ok": "true", "kind": p.Kind, "injectedEvents": strconv.Itoa(samples + len(p.Pointers)), "elapsedMs": strconv.Itoa(p.DurationMs)}
}

// sessionRequest serves one request on a connection to the helper's port.
func (d *Device) sessionRequest(sess *helperSession, s *stream) {
	line, err := bufio.NewReader(s).ReadString('\n')
	if err != nil {
		return
	}
	f := strings.Fields(line)
	d.mu.Lock()
	d.count("session-request")
	broken := d.breakNext > 0
	if broken {
		d.breakNext--
	} else if len(f) > 0 && f[0] == "gesture" && d.breakGest > 0 {
		d.breakGest--
		broken = true
	}
	d.mu.Unlock()
	if broken {
		io.WriteString(s, "garbage without headers")
		return
	}
	if len(f) < 2 {
		writeSession(s, map[string]string{"ok": "false", "errorType": "java.lang.IllegalArgumentException", "message": "unknown session command"}, nil)
		return
	}
	h := map[string]string{"agentDeviceProtocol": helperProtocol, "helperApiVersion": "2", "requestId": f[1]}
	switch f[0] {
	case "snapshot":
		xml, meta, err := d.hierarchy(false)
		if err != nil {
			h["ok"], h["errorType"], h["message"] = "false", "java.lang.IllegalStateException", err.Error()
			writeSession(s, h, nil)
			return
		}
		h["ok"], h["outputFormat"] = "true", "uiautomator-xml"
		for k, v := range meta {
			h[k] = v
		}
		h["byteLength"] = strconv.Itoa(len(xml))
		writeSession(s, h, []byte(xml))
	case "viewport":
		vp := d.opts.Screens.Viewport
		h["ok"], h["x"], h["y"], h["width"], h["height"] = "true", "0", "0", fmt.Sprint(vp.Width), fmt.Sprint(vp.Height)
		writeSession(s, h, nil)
	case "gesture":
		payload := ""
		if len(f) > 2 {
			payload = f[2]
		}
		for k, v := range d.gesture(payload) {
			h[k] = v
		}
		writeSession(s, h, nil)
	case "quit":
		h["ok"] = "true"
		writeSession(s, h, nil)
		sess.stop()
	default:
		h["ok"], h["errorType"], h["message"] = "false", "java.lang.IllegalArgumentException", "unknown session command"
		writeSession(s, h, nil)
	}
}

var headerClean = strings.NewReplacer("\r", " ", "\n", " ")

func writeSession(w io.Writer, h map[string]string, body []byte) {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b bytes.Buffer
	for _, k := range keys {
		v := headerClean.Replace(h[k])
		fmt.Fprintf(&b, "%s=%s\n", k, v)
	}
	b.WriteByte('\n')
	b.Write(body)
	w.Write(b.Bytes())
}
