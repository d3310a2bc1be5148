package web

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
)

// The scripts and data a page loads after its load event.
//
// A module loader (RequireJS and its kind) starts the app from a timer: the
// load event fires when the page's own tags are in, and the app's modules
// are requested afterwards, wave after wave (a module's dependencies once it
// ran); other apps fetch their templates or data then (Sammy). Until the
// last wave ran, the page shows its static markup (the field is there) but
// has no handlers: text typed into it is lost or cleared when the app binds.
// A person does not see the difference, but a person is slow enough never
// to meet it; a driver is not. So `open` also waits, within loadsBound,
// until the main frame has no script, XHR or fetch request in flight and
// none started while the page rendered two frames and, in its own time,
// loadsQuiet passed since its last such response ended (a module loader's
// timer of a few milliseconds runs within that). A page that has all it
// needs at load pays the two frames; one that keeps a request open (a long
// poll) pays loadsStall.
//
// The network events come from the browser, not from the page: a request
// is finished for the browser before the page has its response, let alone
// ran it, and after a busy stretch the page renders frames back to back.
// TestRealAppPages/modules.ad failed so once in twenty runs under load
// (`open` returned with the 5th of 40 modules in). So the quiet window
// counts only once the page itself lists each finished request in its
// resource timing entries (added when the renderer has the whole
// response), and it is measured from the page's clock after the frames:
// the page's timers due before the driver's run first, and a request they
// start is reported before the driver's value is. A request the page never
// lists (a worker's, or past a full timing buffer) is given up after
// loadsCatchUp frame pairs: the page's own progress bounds it, not the
// clock.
const (
	// loadsStall ends the wait when no request started or ended for that
	// long while some are in flight (a long poll, a stalled host): a slow
	// machine's steady waves are followed, a request that never ends is not.
	loadsStall = 5 * time.Second
	// loadsBound bounds the whole wait: a page that keeps loading is left
	// to the next step.
	loadsBound = 30 * time.Second
	// loadsCatchUp is how many frame pairs the page may render without
	// listing a request the browser saw finish, before it is given up.
	loadsCatchUp = 6
	// timingBufferFull is Chromium's default resource timing buffer size:
	// with that many entries the page lists no more.
	timingBufferFull = 250
)

// scriptLoads is what the session knows of the main frame's script, XHR and
// fetch requests.
type scriptLoads struct {
	// inflight maps each request in flight to its first URL (the name of
	// its resource timing entry, whatever it was redirected to).
	inflight map[network.RequestID]string
	// unlisted counts, by URL, the finished requests the page has not yet
	// listed in its resource timing entries; listed is how many of the
	// page's entries were read.
	unlisted map[string]int
	listed   int
	// started counts script requests; changed is closed and replaced
	// whenever a request starts or ends.
	started uint64
	changed chan struct{}
}

func (l *scriptLoads) notify() {
	if l.changed != nil {
		close(l.changed)
	}
	l.changed = make(chan struct{})
}

// onLoadEvent follows the main frame's script, XHR and fetch requests; it runs in the
// tab's read loop and never blocks. It does not consume the event.
func (s *Session) onLoadEvent(ev any) {
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		switch ev.Type {
		case network.ResourceTypeScript, network.ResourceTypeXHR, network.ResourceTypeFetch:
		default:
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if !s.nav.main(ev.FrameID) {
			return
		}
		l := &s.scripts
		if l.inflight == nil {
			l.inflight = map[network.RequestID]string{}
		}
		if _, ok := l.inflight[ev.RequestID]; ok {
			return // a redirect of a request in flight
		}
		url := ""
		if ev.Request != nil {
			url = ev.Request.URL
		}
		l.inflight[ev.RequestID] = url
		l.started++
		l.notify()
	case *network.EventLoadingFinished:
		s.scriptDone(ev.RequestID, true)
	case *network.EventLoadingFailed:
		s.scriptDone(ev.RequestID, false)
	case *page.EventFrameNavigated:
		// A new document: the old one's requests end with it.
		if ev.Frame != nil && ev.Frame.ParentID == "" {
			s.mu.Lock()
			if len(s.scripts.inflight) > 0 {
				clear(s.scripts.inflight)
				s.scripts.notify()
			}
			clear(s.scripts.unlisted)
			s.scripts.listed = 0
			s.mu.Unlock()
		}
	}
}

func (s *Session) scriptDone(id network.RequestID, finished bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := &s.scripts
	url, ok := l.inflight[id]
	if !ok {
		return
	}
	delete(l.inflight, id)
	if finished && (strings.HasPrefix(url, "http://") || strings.HasPrefix(url, "https://")) {
		if l.unlisted == nil {
			l.unlisted = map[string]int{}
		}
		l.unlisted[url]++
	}
	l.notify()
}

// timingEntries is what loadsFrameExpr reports of the page's resource
// timing entries: how many there are and the names of those from index
// From on (all of them when there are fewer than From: the page cleared
// them).
type timingEntries struct {
	N     int      `json:"n"`
	Names []string `json:"names"`
}

// loadsFrameExpr is scrollFrameExpr that then lets loadsQuiet of the
// page's own time pass since its last script, XHR or fetch response ended,
// and resolves to the page's resource timing entries (timingEntries; the
// %d are From). Frames alone do not bound the page's next request: after a
// busy stretch the page renders frames back to back (two in 4 ms were seen)
// while the module that just arrived has not run yet, nor its timer. A
// timer of the page due before the driver's runs first (one timer queue,
// ordered by due time), and the request it starts is reported before the
// driver's value is.
const loadsFrameExpr = `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => setTimeout(() => {
const types = {script: 1, xmlhttprequest: 1, fetch: 1, other: 1};
let last = 0;
for (const x of performance.getEntriesByType("resource")) if (types[x.initiatorType] && x.responseEnd > last) last = x.responseEnd;
const done = () => {
  const e = performance.getEntriesByType("resource"), from = e.length < %d ? 0 : %d;
  r({n: e.length, names: e.slice(from).map(x => x.name)});
};
const left = last + %d - performance.now();
left > 0 ? setTimeout(done, left) : done();
}, 0), 0))))`

// loadsQuiet is how long after the page's last script, XHR or fetch
// response ended the wait for more lasts at least, in the page's time: a
// module loader's timer (RequireJS: 4 ms) and the run of the module before it.
const loadsQuiet = 50 * time.Millisecond

// listEntries marks the requests the page lists in seen as listed and
// reports how many finished requests it has not listed yet.
func (s *Session) listEntries(seen timingEntries) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := &s.scripts
	if seen.N < l.listed {
		l.listed = 0 // cleared: the names are all of them
	}
	for _, name := range seen.Names {
		if l.unlisted[name] > 1 {
			l.unlisted[name]--
		} else {
			delete(l.unlisted, name)
		}
	}
	l.listed = seen.N
	if seen.N >= timingBufferFull {
		clear(l.unlisted) // the page lists no more
	}
	return len(l.unlisted)
}

// forgetUnlisted gives up the finished requests the page has not listed.
func (s *Session) forgetUnlisted() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.scripts.unlisted)
}

func (s *Session) listedFrom() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.scripts.listed
}

// scriptState is the number of script requests in flight and started, and
// the channel closed at the next change.
func (s *Session) scriptState() (int, uint64, chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.scripts.changed == nil {
		s.scripts.notify()
	}
	return len(s.scripts.inflight), s.scripts.started, s.scripts.changed
}

// awaitScripts waits until the page has loaded the scripts and data it
// requests after its load event: none in flight, every finished one listed
// by the page, and none started during two rendered frames; until no
// request moved for loadsStall, within loadsBound. Nothing sleeps: it waits
// on the page's network events and frames.
func (s *Session) awaitScripts(ctx context.Context) error {
	bound := time.NewTimer(loadsBound)
	defer bound.Stop()
	stall := time.NewTimer(loadsStall)
	defer stall.Stop()
	behind := 0 // frame pairs the page rendered with a finished request unlisted
	for {
		if s.dialogOpen() {
			return nil // the page is blocked until the script answers it
		}
		n, started, ch := s.scriptState()
		if n > 0 {
			select {
			case <-ch:
				stall.Reset(loadsStall) // a request started or ended
				continue
			case <-stall.C:
				return nil
			case <-s.dialogCh:
				s.requeueDialog()
				return nil
			case <-ctx.Done():
				return ctx.Err()
			case <-bound.C:
				return nil
			}
		}
		from := s.listedFrom()
		seen := timingEntries{N: from}
		if err := s.awaitFrameValue(ctx, fmt.Sprintf(loadsFrameExpr, from, from, loadsQuiet.Milliseconds()), &seen); err != nil {
			return err
		}
		unlisted := s.listEntries(seen)
		n, now, _ := s.scriptState()
		if n == 0 && now == started {
			if unlisted == 0 {
				return nil
			}
			// The page has not run what the browser finished loading.
			if behind++; behind >= loadsCatchUp {
				s.forgetUnlisted()
				return nil
			}
		} else {
			behind = 0
			stall.Reset(loadsStall) // requests started during the frames
		}
		select {
		case <-bound.C:
			return nil
		default:
		}
	}
}
