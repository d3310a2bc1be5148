package adbtest

import "sync"

// tailBuffer keeps the last max bytes written to it: a server's log, small
// enough to hold for a whole test run and print when the server dies.
type tailBuffer struct {
	mu      sync.Mutex
	max     int
	b       []byte
	dropped bool
}

func newTailBuffer(max int) *tailBuffer { return &tailBuffer{max: max} }

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if over := len(t.b) - t.max; over > 0 {
		t.b = append(t.b[:0], t.b[over:]...)
		t.dropped = true
	}
	return len(p), nil
}

// String is what was kept, marked when older output was dropped.
func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.dropped {
		return "[...]" + string(t.b)
	}
	return string(t.b)
}
