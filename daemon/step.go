package daemon

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner"
)

// buildAction turns a request's command line into an action through the
// script's own flag rules; pins are kept (ADR 0014: interactive refs may
// carry them).
func buildAction(req *Request) (*lang.Action, *runner.ErrorInfo) {
	argv := make([]string, len(req.Argv))
	for i, a := range req.Argv {
		// What the caller typed is literal: ${...} in it is not a variable
		// (the script form keeps it literal with the \${ escape).
		argv[i] = strings.ReplaceAll(a, "${", `\${`)
	}
	a, err := lang.ActionFromArgv(req.Command, argv, lang.ArgvOptions{KeepPins: true})
	if err != nil {
		var le *lang.Error
		if errors.As(err, &le) {
			code := le.Code
			if code == "" {
				code = runner.CodeInvalidArgs
			}
			hint := le.Hint
			if hint == "" {
				hint = runner.DefaultHint(code)
			}
			return nil, &runner.ErrorInfo{Code: code, Reason: drivers.ReasonInvalidArgs, Message: le.Message, Hint: hint}
		}
		return nil, &runner.ErrorInfo{Code: runner.CodeInvalidArgs, Reason: drivers.ReasonInvalidArgs, Message: err.Error()}
	}
	return a, nil
}

// stepAction runs one action through the session's step pipeline, the path
// every replayed step takes.
func stepAction(ctx context.Context, e *entry, a *lang.Action, req *Request) (*runner.Output, *runner.ErrorInfo) {
	var opts runner.StepOptions
	if req.RecordAs != "" {
		if !lang.TraitsOf(a.Command).TypesText || len(a.Positionals) < 2 {
			return nil, &runner.ErrorInfo{Code: runner.CodeInvalidArgs, Reason: drivers.ReasonInvalidArgs,
				Message: "--record-as belongs to fill <target> <text>", Hint: "adtest fill @e3 TEXT --record-as NAME"}
		}
		if e.rec == nil || e.aborted != "" {
			return nil, &runner.ErrorInfo{Code: runner.CodeInvalidArgs, Reason: drivers.ReasonInvalidArgs,
				Message: "Invalid --record-as variable \"" + req.RecordAs + "\": the session is not recording",
				Hint:    "Open the session with --save-script, or drop --record-as."}
		}
		// The device gets the literal; the step as written (the journal,
		// the recording) gets ${NAME}; the literal is masked everywhere.
		last := len(a.Positionals) - 1
		literal := strings.ReplaceAll(a.Positionals[last], `\${`, "${")
		w := *a
		w.Positionals = slices.Clone(a.Positionals)
		w.Positionals[last] = "${" + req.RecordAs + "}"
		a = &w
		opts.Scope = &lang.Scope{CLI: map[string]string{req.RecordAs: literal}}
		opts.Secrets = []string{literal}
		e.rec.Mask(literal)
		if e.trace != nil {
			e.trace.Mask(literal)
		}
	}
	if e.rec != nil && e.aborted == "" {
		// The step's one binding: the step and the recording read it.
		if args, err := lang.Bind(a); err == nil {
			opts.Args = args
			if _, _, ok := lang.NamedRef(args); ok {
				// A read-only capture for the recorder; it never touches the frame.
				if snap, err := e.sess.Capture(ctx); err == nil {
					e.rec.Capture(snap)
				}
			}
		}
	}
	return e.sess.Step(ctx, a, opts)
}
