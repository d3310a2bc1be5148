package android

import (
	"context"
	"strings"
	"time"

	"github.com/adtest/adtest/drivers"
)

// traceLogLines bounds the logcat lines one step of a trace keeps (the
// last ones).
const traceLogLines = 200

// traceLogBound bounds each logcat read of a trace.
const traceLogBound = 3 * time.Second

// StartEvents implements drivers.EventSource: from now on each DrainEvents
// returns the logcat lines written since the one before.
func (s *Session) StartEvents() {
	ctx, cancel := context.WithTimeout(context.Background(), traceLogBound)
	defer cancel()
	mark := ""
	if out, err := s.sh(ctx, "logcat -d -t 1"); err == nil {
		mark = strings.TrimRight(out, "\r\n")
	}
	s.mu.Lock()
	s.traceMark, s.tracing = mark, true
	s.mu.Unlock()
}

// logEvents are the logcat lines since the last call, as log events with
// logcat's level (nil before StartEvents).
func (s *Session) logEvents() []drivers.Event {
	s.mu.Lock()
	mark, on := s.traceMark, s.tracing
	s.mu.Unlock()
	if !on {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), traceLogBound)
	defer cancel()
	now := time.Now()
	lines, err := s.logSince(ctx, mark, traceLogLines)
	if err != nil {
		return []drivers.Event{{Time: now, Source: drivers.FromDevice, Kind: drivers.EventLog, Level: "error", Text: "logcat: " + err.Error()}}
	}
	if len(lines) == 0 {
		return nil
	}
	s.mu.Lock()
	s.traceMark = strings.TrimRight(lines[len(lines)-1], "\r")
	s.mu.Unlock()
	evs := make([]drivers.Event, 0, len(lines))
	for _, l := range lines {
		l = strings.TrimRight(l, "\r")
		if l == "" || strings.HasPrefix(l, "--------- ") {
			continue
		}
		evs = append(evs, drivers.Event{Time: now, Source: drivers.FromDevice, Kind: drivers.EventLog, Level: logLevel(l), Text: l})
	}
	return evs
}

// logLevel is the level of a logcat threadtime line ("MM-DD hh:mm:ss.mmm
// PID TID L TAG: message"), named as a console's: error, warning, info,
// debug, verbose; "" when the line has none.
func logLevel(line string) string {
	f := strings.Fields(line)
	if len(f) < 5 || len(f[4]) != 1 {
		return ""
	}
	switch f[4] {
	case "F", "E":
		return "error"
	case "W":
		return "warning"
	case "I":
		return "info"
	case "D":
		return "debug"
	case "V":
		return "verbose"
	}
	return ""
}
