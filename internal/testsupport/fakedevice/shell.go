package fakedevice

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"
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

// logged is a command line as the fake's log shows it: the text an
// `input text` types is left out, as a device's logcat never shows what was
// typed (a secret is typed in pieces no masker can match whole).
func logged(line string) string {
	if rest, ok := strings.CutPrefix(line, "input text "); ok {
		return fmt.Sprintf("input text (%d bytes)", len(rest))
	}
	return line
}

// run executes one command line and returns its exit code. done is closed
// when the client hung up.
func (d *Device) run(stdin io.Reader, line string, stdout, stderr io.Writer, done <-chan struct{}) int {
	d.mu.Lock()
	d.commands = append(d.commands, line)
	d.log("shell: %s", logged(line))
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
