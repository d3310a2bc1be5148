package daemon

import (
	"bytes"
	"encoding/json"
	"testing"
)

// decoded is v as a client sees it: through JSON.
func decoded(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestWriteStatusAndSessions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		write func(*bytes.Buffer, any)
		v     any
		want  string
	}{
		{"status", func(b *bytes.Buffer, v any) { WriteStatus(b, v) }, map[string]any{
			"pid": 42, "version": "v1", "protocol": 3, "socket": "/run/adtest/sock", "listen": "127.0.0.1:9",
			"startedAt": "2026-12-06T01:00:00Z", "idleTimeout": "15m0s", "rssBytes": 3 << 20, "requests": 7,
			"sessions": []any{map[string]any{"name": "default", "platform": "web"}}, "lost": []any{"old"},
		}, "adtest daemon: running, pid 42, version v1, protocol 3\n" +
			"  socket:       /run/adtest/sock\n" +
			"  listen:       127.0.0.1:9 (token required)\n" +
			"  started:      2026-12-06T01:00:00Z\n" +
			"  idle timeout: 15m0s\n" +
			"  rss:          3.0 MiB\n" +
			"  requests:     7\n" +
			"  sessions:     1\n" +
			"    default (web)\n" +
			"  lost:         [old]\n"},
		{"sessions", func(b *bytes.Buffer, v any) { WriteSessions(b, v) }, []any{
			map[string]any{"name": "a", "platform": "web", "createdAt": "2026-12-06T01:00:00Z", "commands": 3, "recording": true, "scriptPath": "/w/a.ad"},
			map[string]any{"name": "b", "platform": "android", "createdAt": "2026-12-06T01:01:00Z", "commands": 0},
		}, "NAME             PLATFORM CREATED                  COMMANDS RECORDING\n" +
			"a                web      2026-12-06T01:00:00Z     3        /w/a.ad\n" +
			"b                android  2026-12-06T01:01:00Z     0        -\n"},
		{"no sessions", func(b *bytes.Buffer, v any) { WriteSessions(b, v) }, []any{}, "no sessions\n"},
	} {
		var b bytes.Buffer
		tc.write(&b, decoded(t, tc.v))
		if b.String() != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, b.String(), tc.want)
		}
	}
}
