package suite

import (
	"context"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner"
)

// RunnerReplayer is the production Replayer: a runner.Session over the
// attempt's driver, replaying through the same leaf dispatch as interactive
// commands.
func RunnerReplayer(d drivers.Driver, a AttemptContext) Replayer {
	var hooks []runner.StepHook
	if a.Timing != nil {
		hooks = append(hooks, a.Timing)
	}
	if a.Trace != nil {
		hooks = append(hooks, a.Trace)
	}
	if a.Journal != nil {
		hooks = append(hooks, runner.JournalHook(a.Journal))
	}
	return &sessionReplayer{s: runner.NewSession(d, runner.SessionConfig{
		Platform:     a.Platform,
		File:         a.File,
		ArtifactsDir: a.ArtifactsDir,
		Hooks:        hooks,
	})}
}

type sessionReplayer struct {
	s *runner.Session
}

func (r *sessionReplayer) Replay(ctx context.Context, s *lang.Script, p ReplayParams) runner.AttemptResult {
	return r.s.Replay(ctx, s, runner.ReplayOptions{Scope: p.Scope, Secrets: p.Secrets, Observer: p.Steps, StepTimeout: p.StepTimeout})
}

func (r *sessionReplayer) Evidence(ctx context.Context, mask []string) runner.Evidence {
	return r.s.Evidence(ctx, mask)
}

func (r *sessionReplayer) Close(ctx context.Context) error { return r.s.Close(ctx) }

// FormatSnapshot renders a snapshot for snapshot.txt as `snapshot` prints it.
func FormatSnapshot(s *drivers.Snapshot) string {
	return runner.FormatSnapshotText(s, drivers.SnapshotOptions{})
}
