package adbtest_test

import (
	"context"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers/android/adbtest"
)

// TestStartServerOnTakenPort: a second server asked for a port the first
// holds is refused. (Accepted, its adb could not bind, host:version was
// answered by the first server, and the second's Close killed the first.)
func TestStartServerOnTakenPort(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	a, err := adbtest.StartServer(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if b, err := adbtest.StartServerOn(ctx, a.Port); err == nil {
		b.Close()
		t.Fatalf("a second server on port %d was accepted; the first is alive after its Close: %v", a.Port, a.Alive())
	}
	if !a.Alive() {
		t.Fatal("the first server died")
	}
}
