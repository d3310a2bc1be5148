package web

import (
	"context"
	"fmt"
	"strconv"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// A page that floods its console (thousands of lines a task) must not
// starve the session: every console call becomes a Runtime event that the
// browser serialises and the session reads and decodes in the same queue as
// the answers to its own commands, so a click waited behind megabytes of
// console lines and the process grew by hundreds of MB. The cut is made at
// the source, in the page: each document's console methods pass on at most
// consoleBudget calls a second, count the rest, and report the count once
// a window (one console event), which the session turns into "N console
// lines dropped" in its log and trace.

// consoleBudget is how many console calls a second a document passes on.
const consoleBudget = 200

// consoleDroppedMarker is the first argument of the page's report of the
// console calls it dropped; the second is their number.
const consoleDroppedMarker = "adtest:console-dropped"

// consoleBudgetJS wraps the console methods that print a line. It keeps
// the native methods it found (so does the report), and the timers, before
// the page's own scripts run. The report of a window's drops is a timer at
// the window's end (or the page going away): one console event for any
// number of dropped calls.
var consoleBudgetJS = fmt.Sprintf(`(() => {
  const c = globalThis.console, budget = %d, windowMs = 1000, marker = %q;
  if (!c || typeof c.warn !== "function") return;
  const warn = c.warn, setT = globalThis.setTimeout, now = () => performance.now();
  let start = -windowMs, used = 0, dropped = 0, timer = 0;
  const report = () => {
    timer = 0;
    if (dropped > 0) { const n = dropped; dropped = 0; warn.call(c, marker, n); }
  };
  for (const m of ["log", "info", "warn", "error", "debug", "trace", "dir", "dirxml", "table", "count", "timeLog", "group", "groupCollapsed"]) {
    const orig = c[m];
    if (typeof orig !== "function") continue;
    c[m] = {[m](...args) {
      const t = now();
      if (t - start >= windowMs) { start = t; used = 0; }
      if (used < budget) { used++; return orig.apply(c, args); }
      dropped++;
      if (!timer) timer = setT(report, Math.max(windowMs - (t - start), 0) + 1);
    }}[m];
  }
  globalThis.addEventListener("pagehide", report);
})();`, consoleBudget, consoleDroppedMarker)

// installConsoleBudget has every later document of the page run
// consoleBudgetJS first.
func installConsoleBudget(ctx context.Context, t *chromedp.Target) error {
	_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: consoleBudgetJS})
	return err
}

// consoleDropped reads the page's report of dropped console calls: their
// number, and whether ev is such a report.
func consoleDropped(ev *runtime.EventConsoleAPICalled) (int, bool) {
	if ev.Type != runtime.ConsoleAPICalledTypeWarning || len(ev.Args) != 2 || remoteText(ev.Args[0]) != consoleDroppedMarker {
		return 0, false
	}
	n, err := strconv.Atoi(remoteText(ev.Args[1]))
	if err != nil || n <= 0 {
		return 0, false
	}
	return n, true
}

// droppedText says how many console lines a page dropped.
func droppedText(n int) string {
	return fmt.Sprintf("%s console lines dropped (the page logged more than %d a second)", thousands(n), consoleBudget)
}

// thousands writes n with thousands separators: 1,234.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
