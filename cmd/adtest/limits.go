package main

import (
	"context"
	"fmt"
	"io"

	"github.com/adtest/adtest/runner/suite"
)

// readStdinScript reads a script from r (fmt's standard input) as
// env.FS.ReadScript reads a file: at most suite.MaxScriptBytes, and it gives
// up when ctx ends (Ctrl-C, SIGTERM) instead of waiting for a writer that
// never comes. The reading goroutine is left to the process's exit then.
func readStdinScript(ctx context.Context, r io.Reader) ([]byte, error) {
	type read struct {
		b   []byte
		err error
	}
	done := make(chan read, 1)
	go func() {
		b, err := io.ReadAll(io.LimitReader(r, suite.MaxScriptBytes+1))
		done <- read{b, err}
	}()
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case rd := <-done:
		if rd.err == nil && len(rd.b) > suite.MaxScriptBytes {
			return nil, fmt.Errorf("larger than %d MiB, the limit of a script", suite.MaxScriptBytes>>20)
		}
		return rd.b, rd.err
	}
}
