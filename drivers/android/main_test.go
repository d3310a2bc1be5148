package android_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/adtest/adtest/internal/testsupport/adbtest"
)

// server is the package's one real adb server on a private port.
var server *adbtest.Server

func TestMain(m *testing.M) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	s, err := adbtest.StartServer(ctx)
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, "android tests:", err)
		os.Exit(1)
	}
	server = s
	code := m.Run()
	if err := s.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "android tests:", err)
		code = 1
	}
	if s.Alive() {
		fmt.Fprintln(os.Stderr, "android tests: the adb server is still running after teardown")
		code = 1
	}
	os.Exit(code)
}
