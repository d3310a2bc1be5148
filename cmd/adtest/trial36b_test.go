package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	_ "image/jpeg"
	_ "image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestIssue36B runs the probes of issue 36's items 2, 3, 4, 6 and 7, each
// a script under testdata/issue36b, end to end against the real adtest:
//
//	go test -count=1 -run TestIssue36B ./cmd/adtest/
//
// repair_quote (2): every command printed for a person to paste is quoted.
// secret_encoded (3): a secret's URL, JSON, HTML and base64 forms are masked.
// repair_outside (6): a repair of a script outside the working directory
// applies with the printed command, git apply and patch alike.
// screenshot_split (4): a secret split across elements, in an iframe, in
// ::after content is painted over in the failure screenshot.
// repair_trace (7): the failed attempt's trace is the failure's, the
// repair's replays have their own, "after" is the screen before close.
func TestIssue36B(t *testing.T) {
	p := scriptParams("testdata/issue36b")
	p.Cmds["pngblank"] = cmdPNGBlank
	p.Cmds["traceunref"] = cmdTraceUnref
	p.Cmds["pngpainted"] = cmdPNGPainted
	p.Cmds["jpgblank"] = cmdPNGBlank
	testscript.Run(t, p)
}

// pngblank FILE (and jpgblank): FILE (a glob of one), a PNG or a JPEG, is
// of one colour (! pngblank: it shows something).
func cmdPNGBlank(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: pngblank FILE")
	}
	data, err := os.ReadFile(globOne(ts, args[0]))
	ts.Check(err)
	img, _, err := image.Decode(bytes.NewReader(data))
	ts.Check(err)
	b := img.Bounds()
	first := img.At(b.Min.X, b.Min.Y)
	blank := true
	for y := b.Min.Y; y < b.Max.Y && blank; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r1, g1, b1, _ := img.At(x, y).RGBA()
			r0, g0, b0, _ := first.RGBA()
			if r1 != r0 || g1 != g0 || b1 != b0 {
				blank = false
				break
			}
		}
	}
	if blank != !neg {
		ts.Fatalf("%s: blank=%v", args[0], blank)
	}
}

// pngpainted FILE: FILE (a glob of one) holds only white and the paint of
// a masked secret (#333333), and some of the paint: every text on the page
// was a secret, painted over.
func cmdPNGPainted(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: pngpainted FILE")
	}
	data, err := os.ReadFile(globOne(ts, args[0]))
	ts.Check(err)
	img, _, err := image.Decode(bytes.NewReader(data))
	ts.Check(err)
	b := img.Bounds()
	other, paint := 0, 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			switch {
			case r>>8 == 0xff && g>>8 == 0xff && bl>>8 == 0xff:
			case r>>8 == 0x33 && g>>8 == 0x33 && bl>>8 == 0x33:
				paint++
			default:
				other++
			}
		}
	}
	if other > 0 || paint == 0 {
		ts.Fatalf("%s: %d pixels neither white nor paint, %d painted", args[0], other, paint)
	}
}

// traceunref DIR: every picture in the trace directory DIR (a glob of
// one) is named by its trace.json (a picture nothing names was written by
// someone else); prints each step's status.
func cmdTraceUnref(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: traceunref DIR")
	}
	dir := globOne(ts, args[0])
	index, err := os.ReadFile(filepath.Join(dir, "trace.json"))
	ts.Check(err)
	var data struct {
		Steps []struct{ Status string } `json:"steps"`
	}
	ts.Check(json.Unmarshal(index, &data))
	ents, err := os.ReadDir(dir)
	ts.Check(err)
	for _, e := range ents {
		if n := e.Name(); strings.HasSuffix(n, ".jpg") && !bytes.Contains(index, []byte(`"`+n+`"`)) {
			ts.Fatalf("%s: picture %s is named by no step of trace.json", args[0], n)
		}
	}
	for _, st := range data.Steps {
		fmt.Fprintln(ts.Stdout(), st.Status)
	}
}

// globOne is the one path the glob pattern (relative to $WORK) matches.
func globOne(ts *testscript.TestScript, pattern string) string {
	m, _ := filepath.Glob(ts.MkAbs(pattern))
	if len(m) != 1 {
		ts.Fatalf("%s matches %d paths, want 1", pattern, len(m))
	}
	return m[0]
}
