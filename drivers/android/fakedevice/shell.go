package fakedevice

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/adtest/adtest/drivers"
)

const (
	helperRunner   = HelperPackage + "/.SnapshotInstrumentation"
	helperProtocol = "android-snapshot-helper-v1"
	launcherPkg    = "com.android.launcher3"
)

// appOpTimeout bounds a call into the app state.
const appOpTimeout = 5 * time.Second

func appCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), appOpTimeout)
}

// splitWords splits a shell command line: single quotes are literal,
// double quotes and backslashes escape.
func splitWords(s string) []string {
	var out []string
	var cur strings.Builder
	in := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				j = len(s) - i - 1
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			in = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				cur.WriteByte(s[i])
			}
			in = true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			in = true
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}

// run executes one command line and returns its exit code. done is closed
// when the client hung up.
func (d *Device) run(stdin io.Reader, line string, stdout, stderr io.Writer, done <-chan struct{}) int {
	d.mu.Lock()
	d.commands = append(d.commands, line)
	d.log("shell: %s", line)
	d.mu.Unlock()
	args := splitWords(line)
	if len(args) == 0 {
		return 0
	}
	switch args[0] {
	case "getprop":
		props := map[string]string{"sys.boot_completed": "1", "ro.build.version.sdk": "34", "ro.build.version.release": "14",
			"ro.product.model": d.opts.Model, "ro.build.characteristics": "emulator", "ro.kernel.qemu": "1"}
		if len(args) > 1 {
			fmt.Fprintln(stdout, props[args[1]])
			return 0
		}
		keys := make([]string, 0, len(props))
		for k := range props {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(stdout, "[%s]: [%s]\n", k, props[k])
		}
		return 0
	case "exit":
		if len(args) > 1 {
			n, _ := strconv.Atoi(args[1])
			return n
		}
		return 0
	case "echo":
		fmt.Fprintln(stdout, strings.Join(args[1:], " "))
		return 0
	case "input":
		return d.input(args[1:], stderr)
	case "am":
		return d.am(args[1:], stdout, stderr, done)
	case "cmd":
		if len(args) > 1 && args[1] == "package" {
			return d.pm(stdin, args[2:], stdout, stderr)
		}
		if len(args) > 2 && args[1] == "wifi" && args[2] == "set-wifi-enabled" && len(args) > 3 {
			d.set("wifi", map[string]string{"enabled": "on", "disabled": "off"}[args[3]])
			return 0
		}
		if len(args) > 3 && args[1] == "connectivity" && args[2] == "airplane-mode" {
			d.set("airplane", map[string]string{"enable": "on", "disable": "off"}[args[3]])
			return 0
		}
		fmt.Fprintf(stderr, "cmd: Can't find service: %s\n", strings.Join(args[1:], " "))
		return 20
	case "pm":
		return d.pm(stdin, args[1:], stdout, stderr)
	case "settings":
		if len(args) >= 5 && args[1] == "put" {
			d.set(args[3], args[4])
			return 0
		}
		if len(args) >= 4 && args[1] == "get" {
			fmt.Fprintln(stdout, d.Setting(args[3]))
			return 0
		}
		return 1
	case "svc":
		if len(args) >= 3 && args[1] == "wifi" {
			d.set("wifi", map[string]string{"enable": "on", "disable": "off"}[args[2]])
			return 0
		}
		return 1
	case "dumpsys":
		return d.dumpsys(args[1:], stdout)
	case "screencap":
		d.mu.Lock()
		d.count("screencap")
		d.mu.Unlock()
		stdout.Write(screenPNG())
		return 0
	case "logcat":
		n, since := 200, ""
		for i, a := range args {
			if a == "-t" && i+1 < len(args) {
				n, _ = strconv.Atoi(args[i+1])
			}
			if a == "-T" && i+1 < len(args) {
				since, n = args[i+1], 1<<30
			}
		}
		d.mu.Lock()
		var lines []string
		for _, l := range d.logcat {
			if since == "" || len(l) >= len(logTime) && l[:len(logTime)] >= since {
				lines = append(lines, l)
			}
		}
		lines = lines[max(0, len(lines)-n):]
		out := strings.Join(lines, "\n") + "\n"
		d.mu.Unlock()
		io.WriteString(stdout, out)
		return 0
	case "pidof":
		if len(args) > 1 && args[1] == d.Foreground() {
			fmt.Fprintln(stdout, "4242")
			return 0
		}
		return 1
	case "uiautomator":
		if len(args) > 1 && args[1] == "dump" {
			d.mu.Lock()
			d.count("uiautomator-dump")
			d.mu.Unlock()
			xml, _, err := d.hierarchy(true)
			if err != nil {
				fmt.Fprintln(stderr, "ERROR: null root node returned by UiTestAutomationBridge.")
				return 1
			}
			path := "/sdcard/window_dump.xml"
			if len(args) > 2 {
				path = args[2]
			}
			if path == "/dev/tty" {
				io.WriteString(stdout, xml)
			}
			fmt.Fprintf(stdout, "UI hierchary dumped to: %s\n", path)
			return 0
		}
	}
	fmt.Fprintf(stderr, "/system/bin/sh: %s: inaccessible or not found\n", args[0])
	return 127
}

func (d *Device) set(k, v string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.settings[k] = v
	d.log("settings %s=%s", k, v)
}

// Android key codes the fake understands.
var keyNames = map[string]int{"KEYCODE_BACK": 4, "BACK": 4, "KEYCODE_HOME": 3, "HOME": 3, "KEYCODE_ENTER": 66, "ENTER": 66,
	"KEYCODE_DEL": 67, "DEL": 67, "KEYCODE_MOVE_END": 123, "MOVE_END": 123, "KEYCODE_ESCAPE": 111, "ESCAPE": 111,
	"KEYCODE_APP_SWITCH": 187, "APP_SWITCH": 187, "KEYCODE_TAB": 61, "TAB": 61}

func (d *Device) input(args []string, stderr io.Writer) int {
	if len(args) == 0 {
		return 1
	}
	ctx, cancel := appCtx()
	defer cancel()
	num := func(s string) float64 { f, _ := strconv.ParseFloat(s, 64); return f }
	d.mu.Lock()
	d.count(args[0])
	d.mu.Unlock()
	switch args[0] {
	case "tap":
		if len(args) != 3 {
			fmt.Fprintln(stderr, "usage: input tap <x> <y>")
			return 1
		}
		d.tap(ctx, drivers.Point{X: num(args[1]), Y: num(args[2])})
		return 0
	case "text":
		if len(args) < 2 {
			return 1
		}
		text := strings.ReplaceAll(strings.Join(args[1:], " "), "%s", " ")
		if d.Foreground() != "" {
			d.app.Act(ctx, drivers.Action{Kind: drivers.ActType, Text: text})
		}
		return 0
	case "keyevent":
		for _, k := range args[1:] {
			if k == "--longpress" {
				continue
			}
			code, ok := keyNames[k]
			if !ok {
				code, _ = strconv.Atoi(k)
			}
			d.key(ctx, code)
		}
		return 0
	case "swipe":
		if len(args) < 5 {
			return 1
		}
		ms := 300.0
		if len(args) > 5 {
			ms = num(args[5])
		}
		d.drag(ctx, drivers.Point{X: num(args[1]), Y: num(args[2])}, drivers.Point{X: num(args[3]), Y: num(args[4])}, time.Duration(ms)*time.Millisecond)
		return 0
	}
	fmt.Fprintf(stderr, "Unknown command: %s\n", args[0])
	return 1
}

// tap hits the alert buttons first, then the app.
func (d *Device) tap(ctx context.Context, p drivers.Point) {
	if d.Foreground() == "" {
		return
	}
	if text, open, _ := d.app.AlertText(ctx); open {
		_ = text
		for _, b := range alertButtons(d.opts.Screens.Viewport) {
			if p.X >= b.rect.X && p.X < b.rect.X+b.rect.Width && p.Y >= b.rect.Y && p.Y < b.rect.Y+b.rect.Height {
				d.app.AlertRespond(ctx, b.accept)
				return
			}
		}
		return // a modal dialog swallows taps outside its buttons
	}
	d.app.Act(ctx, drivers.Action{Kind: drivers.ActTap, Target: &drivers.Target{Point: p}})
	if id := d.opts.UnplugOnTap; id != "" {
		if ops := d.app.Ops(); len(ops) > 0 && ops[len(ops)-1].Element == id {
			d.Unplug()
		}
	}
}

func (d *Device) key(ctx context.Context, code int) {
	switch code {
	case 4:
		if _, open, _ := d.app.AlertText(ctx); open {
			d.app.AlertRespond(ctx, false)
			return
		}
		d.app.Act(ctx, drivers.Action{Kind: drivers.ActBack})
	case 3:
		d.mu.Lock()
		d.foreground = ""
		d.mu.Unlock()
	case 66:
		d.app.Act(ctx, drivers.Action{Kind: drivers.ActKey, Key: "enter"})
	case 111:
		d.app.Act(ctx, drivers.Action{Kind: drivers.ActKey, Key: "dismiss"})
	case 67:
		snap, err := d.app.Snapshot(ctx, drivers.SnapshotOptions{})
		if err != nil {
			return
		}
		for i := range snap.Nodes {
			n := &snap.Nodes[i]
			if n.Focused && n.Editable {
				v := []rune(n.Value)
				if len(v) > 0 {
					d.app.Act(ctx, drivers.Action{Kind: drivers.ActFill, Text: string(v[:len(v)-1]), Target: &drivers.Target{Node: n, Point: n.Rect.Center()}})
				}
				return
			}
		}
	}
}

// drag is a one-pointer move: a long press when it stays put, else a
// scroll of the content by the distance moved.
func (d *Device) drag(ctx context.Context, from, to drivers.Point, dur time.Duration) {
	if d.Foreground() == "" {
		return
	}
	dx, dy := to.X-from.X, to.Y-from.Y
	if dx*dx+dy*dy < 100 {
		if dur >= 400*time.Millisecond {
			d.app.Act(ctx, drivers.Action{Kind: drivers.ActLongPress, Target: &drivers.Target{Point: from}, Duration: dur})
		} else {
			d.tap(ctx, from)
		}
		return
	}
	h := d.opts.Screens.Viewport.Height
	if abs(dy) >= abs(dx) {
		dir := "down" // the finger moves up, the content scrolls down
		if dy > 0 {
			dir = "up"
		}
		d.app.Act(ctx, drivers.Action{Kind: drivers.ActScroll, Direction: dir, Amount: abs(dy) / h})
		return
	}
	d.app.Act(ctx, drivers.Action{Kind: drivers.ActSwipe, From: from, To: to})
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

func (d *Device) packages() []string {
	set := map[string]bool{}
	for k := range d.opts.Screens.Opens {
		if k != "*" && !strings.Contains(k, ":") && strings.Contains(k, ".") {
			set[k] = true
		}
	}
	var out []string
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func (d *Device) installed(pkg string) bool {
	if pkg == HelperPackage {
		return d.HelperVersion() > 0
	}
	for _, p := range d.packages() {
		if p == pkg {
			return true
		}
	}
	return false
}

func (d *Device) pm(stdin io.Reader, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return 1
	}
	switch args[0] {
	case "list":
		if len(args) < 2 || args[1] != "packages" {
			return 1
		}
		showVersion := false
		filter := ""
		for _, a := range args[2:] {
			switch {
			case a == "--show-versioncode":
				showVersion = true
			case strings.HasPrefix(a, "-"):
			default:
				filter = a
			}
		}
		pkgs := d.packages()
		if v := d.HelperVersion(); v > 0 {
			pkgs = append(pkgs, HelperPackage)
		}
		for _, p := range pkgs {
			if filter != "" && !strings.Contains(p, filter) {
				continue
			}
			v := 1
			if p == HelperPackage {
				v = d.HelperVersion()
			}
			if showVersion {
				fmt.Fprintf(stdout, "package:%s versionCode:%d\n", p, v)
			} else {
				fmt.Fprintf(stdout, "package:%s\n", p)
			}
		}
		return 0
	case "path":
		if len(args) > 1 && d.installed(args[1]) {
			fmt.Fprintf(stdout, "package:/data/app/%s/base.apk\n", args[1])
			return 0
		}
		return 1
	case "resolve-activity":
		pkg := args[len(args)-1]
		if !d.installed(pkg) || pkg == HelperPackage {
			fmt.Fprintln(stdout, "No activity found")
			return 0
		}
		fmt.Fprintf(stdout, "priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true\n%s/.MainActivity\n", pkg)
		return 0
	case "install":
		size := -1
		for i, a := range args {
			if a == "-S" && i+1 < len(args) {
				size, _ = strconv.Atoi(args[i+1])
			}
		}
		if size < 0 {
			fmt.Fprintln(stdout, "Error: only streamed installs (-S) are supported")
			return 1
		}
		apk := make([]byte, size)
		if _, err := io.ReadFull(stdin, apk); err != nil {
			fmt.Fprintf(stdout, "Failure [INSTALL_FAILED_INVALID_APK: short read: %v]\n", err)
			return 1
		}
		d.mu.Lock()
		d.count("install")
		d.helper = d.opts.HelperVersion
		d.apkSHA = sha(apk)
		d.log("installed %s (%d bytes, sha256 %s)", HelperPackage, size, d.apkSHA)
		// An install stops the running instrumentation of that package.
		for _, s := range d.sessions {
			s.stop()
		}
		d.mu.Unlock()
		fmt.Fprintln(stdout, "Success")
		return 0
	case "uninstall":
		if len(args) > 1 && args[len(args)-1] == HelperPackage {
			d.SetHelperVersion(0)
			fmt.Fprintln(stdout, "Success")
			return 0
		}
		fmt.Fprintln(stdout, "Failure [DELETE_FAILED_INTERNAL_ERROR]")
		return 1
	case "has-feature":
		fmt.Fprintln(stdout, "false")
		return 1
	}
	fmt.Fprintf(stderr, "Unknown command: %s\n", args[0])
	return 1
}

// InstalledAPKSHA256 returns the sha256 of the last APK installed.
func (d *Device) InstalledAPKSHA256() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.apkSHA
}

func (d *Device) am(args []string, stdout, stderr io.Writer, done <-chan struct{}) int {
	if len(args) == 0 {
		return 1
	}
	ctx, cancel := appCtx()
	defer cancel()
	switch args[0] {
	case "start", "start-activity":
		pkg, url, comp := "", "", ""
		for i := 1; i < len(args); i++ {
			switch args[i] {
			case "-p":
				i++
				pkg = args[min(i, len(args)-1)]
			case "-d":
				i++
				url = args[min(i, len(args)-1)]
			case "-n":
				i++
				comp = args[min(i, len(args)-1)]
			case "-a", "-c":
				i++
			}
		}
		if comp != "" {
			pkg, _, _ = strings.Cut(comp, "/")
		}
		d.mu.Lock()
		d.count("am-start")
		d.mu.Unlock()
		if pkg == "" && url == "" {
			fmt.Fprintln(stderr, "Error: no package or data given")
			return 1
		}
		if pkg != "" && !d.installed(pkg) {
			fmt.Fprintf(stdout, "Starting: Intent { pkg=%s }\nError: Activity not started, unable to resolve Intent { pkg=%s }\n", pkg, pkg)
			return 1
		}
		target := pkg
		if target == "" {
			target = url
		}
		if err := d.app.Open(ctx, drivers.OpenRequest{Target: target, URL: url}); err != nil {
			fmt.Fprintf(stdout, "Starting: Intent { dat=%s }\nError: Activity not started, unable to resolve Intent { dat=%s }\n", url, url)
			return 1
		}
		if pkg == "" {
			pkg = d.packageFor(url)
		}
		d.mu.Lock()
		d.foreground = pkg
		d.mu.Unlock()
		fmt.Fprintf(stdout, "Starting: Intent { act=android.intent.action.MAIN pkg=%s }\nStatus: ok\nLaunchState: COLD\nActivity: %s/.MainActivity\nTotalTime: 12\nWaitTime: 14\nComplete\n", pkg, pkg)
		return 0
	case "force-stop":
		if len(args) > 1 {
			d.mu.Lock()
			d.count("force-stop")
			stopHelper := args[1] == HelperPackage
			if stopHelper {
				for _, s := range d.sessions {
					s.stop()
				}
			}
			front := d.foreground == args[1]
			if front {
				d.foreground = ""
			}
			d.mu.Unlock()
			if front {
				d.app.CloseApp(ctx) // the app stops; the fake device stays usable
			}
		}
		return 0
	case "instrument":
		return d.instrument(args[1:], stdout, done)
	}
	fmt.Fprintf(stderr, "Unknown command: %s\n", args[0])
	return 1
}

// packageFor returns the package whose open line shows the same screen as url.
func (d *Device) packageFor(url string) string {
	screen := d.opts.Screens.Opens[url]
	for _, p := range d.packages() {
		if d.opts.Screens.Opens[p] == screen {
			return p
		}
	}
	if ps := d.packages(); len(ps) > 0 {
		return ps[0]
	}
	return "com.android.browser"
}

func (d *Device) dumpsys(args []string, stdout io.Writer) int {
	if len(args) == 0 {
		return 0
	}
	ctx, cancel := appCtx()
	defer cancel()
	switch args[0] {
	case "input_method":
		shown := false
		inputType := "0x0"
		owner := ""
		if d.Foreground() != "" {
			if snap, err := d.app.Snapshot(ctx, drivers.SnapshotOptions{}); err == nil {
				for _, n := range snap.Nodes {
					if n.Focused && n.Editable {
						shown = true
						inputType = "0x1"
						owner = n.ID
						if strings.Contains(strings.ToLower(n.Label+n.ID), "password") {
							inputType = "0x81"
						}
					}
				}
			}
		}
		fmt.Fprintf(stdout, "Current method:\n  mCurMethodId=com.android.inputmethod.latin/.LatinIME\n  mCurFocusedWindowClient packageName=%s resourceId=%s\n  mInputShown=%v\n  mIsInputViewShown=%v\n  inputType=%s imeOptions=0x6\n  mWindowVisible=%v\n",
			d.Foreground(), owner, shown, shown, inputType, shown)
		return 0
	case "window":
		pkg := d.Foreground()
		if pkg == "" {
			pkg = launcherPkg
		}
		fmt.Fprintf(stdout, "WINDOW MANAGER WINDOWS (dumpsys window windows)\n  mCurrentFocus=Window{1a2b3c u0 %s/%s.MainActivity}\n  mFocusedApp=ActivityRecord{4d5e u0 %s/.MainActivity t12}\n", pkg, pkg, pkg)
		return 0
	}
	return 0
}

// screenPNG is a small grey PNG standing in for the screen.
func screenPNG() []byte {
	img := image.NewGray(image.Rect(0, 0, 8, 16))
	for i := range img.Pix {
		img.Pix[i] = 0x80
	}
	img.Set(0, 0, color.White)
	var b bytes.Buffer
	png.Encode(&b, img)
	return b.Bytes()
}

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
