package webtest_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner"
	"github.com/adtest/adtest/runner/trace"
)

// tracePage types a value into a field; its button logs the value to the
// console, fetches a URL holding it, and says "sent".
const tracePage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Trace</title></head>
<body><main>
<label>Token <input id="tok" type="text"></label>
<button type="button" id="send">Send</button>
<p id="out"></p>
</main>
<script>
document.getElementById('send').addEventListener('click', function () {
  var v = document.getElementById('tok').value;
  console.log('sending ' + v);
  fetch('/trace/api?token=' + v).then(function (r) { document.getElementById('out').textContent = 'sent ' + r.status; });
});
</script>
</body></html>`

// colourPage turns red and white in turn on each click of its button.
const colourPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Colour</title>
<style>html, body { margin: 0; height: 100%; background: #fff; } body.red { background: #f00; }
#paint { position: absolute; left: 600px; top: 600px; }</style></head>
<body><main><p id="out">white</p>
<button type="button" id="paint" onclick="document.body.classList.toggle('red'); document.getElementById('out').textContent = document.body.className || 'white'">Paint</button>
</main></body></html>`

// heavyColourPage is colourPage with costly pixels: thousands of blurred
// shadows that change colour with the page, so a frame takes long to raster.
const heavyColourPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Colour</title>
<style>html, body { margin: 0; height: 100%; background: #fff; } body.red { background: #f00; }
.c { display: inline-block; width: 18px; height: 18px; margin: 2px; border-radius: 5px; box-shadow: 0 0 9px 3px rgba(250,250,250,0.9); background: #fff; }
body.red .c { background: #f00; box-shadow: 0 0 9px 3px rgba(250,0,0,0.9); }
#paint { position: absolute; left: 600px; top: 600px; }</style></head>
<body><main><p id="out">white</p><div id="cells"></div>
<button type="button" id="paint" onclick="document.body.classList.toggle('red'); document.getElementById('out').textContent = document.body.className || 'white'">Paint</button>
<script>document.getElementById('cells').innerHTML = '<span class="c"></span>'.repeat(2400);</script>
</main></body></html>`

func traceHandlers(mux *http.ServeMux) {
	mux.HandleFunc("/trace/heavy.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(heavyColourPage))
	})
	mux.HandleFunc("/trace/colour.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(colourPage))
	})
	mux.HandleFunc("/trace/secret.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(tracePage))
	})
	mux.HandleFunc("/trace/api", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte("ok"))
	})
}

// TestTraceWebMasksSecrets: a secret typed by fill, logged to the console
// and sent in a request URL is recorded (the console line, the request with
// its status) but appears in no file of the trace directory.
func TestTraceWebMasksSecrets(t *testing.T) {
	webBrowser.once.Do(startWebBrowser)
	if webBrowser.err != nil {
		t.Fatalf("the trace test needs Chromium: %v", webBrowser.err)
	}
	const secret = "s3cr3tTOKEN42"
	mask := drivers.NewMasker([]string{secret})
	tr, err := trace.New(filepath.Join(t.TempDir(), "trace"), mask, trace.Info{File: "secret.ad", Platform: "web"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	d, err := webBrowser.prov.NewSession(ctx, drivers.SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sess := runner.NewSession(d, runner.SessionConfig{ArtifactsDir: t.TempDir(), Hooks: []runner.StepHook{tr}})
	defer sess.Close(context.Background())
	script, err := lang.Parse("secret.ad", []byte("open "+webBrowser.srv.URL+"/trace/secret.html\nfill id=tok ${API_TOKEN}\nclick id=send\nwait \"sent 200\" 10000\n"))
	if err != nil {
		t.Fatal(err)
	}
	res := sess.Replay(ctx, script, runner.ReplayOptions{Scope: &lang.Scope{Process: map[string]string{"API_TOKEN": secret}},
		Secrets: []string{secret}, StepTimeout: 20 * time.Second})
	if res.Status != runner.StatusPassed {
		t.Fatalf("replay: %s %+v", res.Status, res.Error)
	}
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(tr.Dir(), trace.File))
	if err != nil {
		t.Fatal(err)
	}
	var data trace.Data
	if err := json.Unmarshal(b, &data); err != nil {
		t.Fatal(err)
	}
	var console, request bool
	for _, st := range data.Steps {
		if st.After == "" {
			t.Errorf("step %d has no picture after it (warnings %v)", st.Step, data.Warnings)
		}
		for _, ev := range st.Events {
			console = console || ev.Kind == drivers.EventConsole && ev.Text == "sending ***"
			request = request || ev.Kind == drivers.EventRequest && strings.HasSuffix(ev.URL, "/trace/api?token=***") && ev.Status == 200
		}
	}
	if !console || !request {
		t.Errorf("console line seen %v, request seen %v; want both, masked:\n%s", console, request, b)
	}
	n := 0
	filepath.WalkDir(tr.Dir(), func(p string, de os.DirEntry, err error) error {
		if err != nil || de.IsDir() {
			return err
		}
		n++
		if b, _ := os.ReadFile(p); strings.Contains(string(b), secret) {
			t.Errorf("%s holds the secret", p)
		}
		return nil
	})
	pictures := map[string]bool{}
	for _, st := range data.Steps {
		pictures[st.After] = true
	}
	if n != len(pictures)+1 || data.Start != "" {
		t.Errorf("%d files in the trace (start %q), want trace.json and the %d pictures the steps name (none before the open)", n, data.Start, len(pictures))
	}
}
