package daemon

import (
	"context"
	"errors"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/runner"
)

// ClientError turns a failure of c.Do (the daemon not reached, another
// build, ctx ended) into the error shape, with what to do next.
func ClientError(ctx context.Context, c *Client, err error) *runner.ErrorInfo {
	var ve *VersionError
	switch {
	case errors.As(err, &ve):
		return ve.Resp.Error
	case ctx.Err() != nil:
		return &runner.ErrorInfo{Code: runner.CodeCommandFailed, Reason: drivers.ReasonCancelled, Message: "Interrupted before the daemon answered",
			Hint: "The daemon cancels the command; it may have acted already: run `adtest snapshot` to see the screen before the next command."}
	}
	ei := &runner.ErrorInfo{Code: runner.CodeCommandFailed, Reason: drivers.ReasonDaemonUnavailable, Message: err.Error(),
		Hint: "Run `adtest daemon status`; the daemon's log is " + LogPath(c.Dir) + "."}
	if c.Remote() {
		ei.Hint = "Check that the remote daemon at " + c.Addr + " runs and that ADTEST_DAEMON_TOKEN is its token."
	}
	return ei
}
