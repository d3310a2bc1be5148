package runner

// STUB (owned by the runner work): the contract the suite runner builds on.
//
//   sess := runner.NewSession(driver, runner.SessionConfig{...})
//   res := sess.Replay(ctx, script, runner.ReplayOptions{Scope: scope, Observer: obs})
//   sess.Close(ctx)
