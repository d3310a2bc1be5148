package adbtest_test

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/adtest/adtest/internal/testsupport/adbtest"
)

// TestServerOutlivesStartingThread: Linux sends the parent-death signal
// when the thread that forked the server exits. A caller whose goroutine
// locked its thread and then ends takes that thread down; the server must
// not die with it.
func TestServerOutlivesStartingThread(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	type started struct {
		s   *adbtest.Server
		err error
		tid int
	}
	var r started
	for r.s == nil && r.err == nil {
		ch := make(chan started, 1)
		go func() {
			runtime.LockOSThread() // never unlocked: the thread ends with this goroutine
			if syscall.Gettid() == syscall.Getpid() {
				// The process's main thread never exits (Go parks it
				// instead): once this goroutine ends, no other one runs on
				// it, so the next round gets another thread.
				ch <- started{}
				return
			}
			s, err := adbtest.StartServer(ctx)
			ch <- started{s, err, syscall.Gettid()}
		}()
		r = <-ch
	}
	if r.err != nil {
		t.Fatal(r.err)
	}
	defer r.s.Close()
	// Wait until the caller's thread is gone: the kernel has sent any
	// parent-death signal by then.
	task := "/proc/self/task/" + strconv.Itoa(r.tid)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		if _, err := os.Stat(task); os.IsNotExist(err) {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("thread %d did not exit: %v", r.tid, ctx.Err())
		case <-tick.C:
		}
	}
	if _, err := r.s.Client.Version(ctx); err != nil {
		t.Fatalf("the server died with the thread that started it: %v (%s)", err, r.s.Output())
	}
	if err := r.s.Close(); err != nil {
		t.Fatal(err)
	}
}
