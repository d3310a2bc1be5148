package daemon

import (
	"fmt"
	"io"
)

// The text renderings of the daemon's answers that `adtest daemon status`
// and `adtest session list` print (--json prints the answers themselves).

// WriteStatus writes the daemon's status (the "daemon" object of an
// OpStatus answer, as decoded from JSON) as `adtest daemon status` shows it.
func WriteStatus(w io.Writer, v any) {
	m, _ := v.(map[string]any)
	fmt.Fprintf(w, "adtest daemon: running, pid %v, version %v, protocol %v\n", m["pid"], m["version"], m["protocol"])
	fmt.Fprintf(w, "  socket:       %v\n", m["socket"])
	if l, ok := m["listen"].(string); ok && l != "" {
		fmt.Fprintf(w, "  listen:       %s (token required)\n", l)
	}
	fmt.Fprintf(w, "  started:      %v\n", m["startedAt"])
	fmt.Fprintf(w, "  idle timeout: %v\n", m["idleTimeout"])
	if rss, ok := m["rssBytes"].(float64); ok && rss > 0 {
		fmt.Fprintf(w, "  rss:          %.1f MiB\n", rss/(1<<20))
	}
	fmt.Fprintf(w, "  requests:     %v\n", m["requests"])
	sessions, _ := m["sessions"].([]any)
	fmt.Fprintf(w, "  sessions:     %d\n", len(sessions))
	for _, s := range sessions {
		sm, _ := s.(map[string]any)
		fmt.Fprintf(w, "    %v (%v)\n", sm["name"], sm["platform"])
	}
	if lost, ok := m["lost"].([]any); ok && len(lost) > 0 {
		fmt.Fprintf(w, "  lost:         %v\n", lost)
	}
}

// WriteSessions writes the sessions of an OpSessions answer (its
// "sessions" list, as decoded from JSON) as a table, or "no sessions".
func WriteSessions(w io.Writer, v any) {
	list, _ := v.([]any)
	if len(list) == 0 {
		fmt.Fprintln(w, "no sessions")
		return
	}
	fmt.Fprintf(w, "%-16s %-8s %-24s %-8s %s\n", "NAME", "PLATFORM", "CREATED", "COMMANDS", "RECORDING")
	for _, s := range list {
		m, _ := s.(map[string]any)
		rec := "-"
		if r, _ := m["recording"].(bool); r {
			rec = fmt.Sprint(m["scriptPath"])
		}
		fmt.Fprintf(w, "%-16v %-8v %-24v %-8v %s\n", m["name"], m["platform"], m["createdAt"], m["commands"], rec)
	}
}
