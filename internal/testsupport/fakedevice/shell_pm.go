package fakedevice

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/adtest/adtest/drivers"
)

// `pm`, `am` and `dumpsys`: packages, activities and the screen.

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
