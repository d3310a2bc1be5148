package android_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/adtest/adtest/drivers/android"
	"github.com/adtest/adtest/drivers/android/adb"
	"github.com/adtest/adtest/internal/testsupport/adbtest"
)

// TestFailedProviderKillsTheServerItStarted: no adb server on a private
// port, so NewProvider starts one (real adb); no device is online there, so
// the provider fails, and the server it started is gone again (a failed
// attempt leaves no adb server behind).
func TestFailedProviderKillsTheServerItStarted(t *testing.T) {
	port, err := adbtest.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	addr := "127.0.0.1:" + strconv.Itoa(port)
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	c, err := adb.New(adb.Options{Server: addr, NoStart: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.KillServer(context.Background()) }) // should the test fail
	_, err = android.NewProvider(ctx, android.Options{Server: addr, Getenv: func(string) string { return "" }})
	if err == nil || !strings.Contains(err.Error(), "no Android device is online at the adb server "+addr) {
		t.Fatalf("NewProvider = %v, want no device online", err)
	}
	// KillServer returns once the server got host:kill; adb closes its port
	// just after: poll until it no longer answers.
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		if _, err := c.Version(ctx); adb.ReasonOf(err) == adb.ReasonServerUnavailable {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the adb server NewProvider started still answers on %s", addr)
		case <-tick.C:
		}
	}
}
