package runner

import (
	"context"
	"fmt"

	"github.com/adtest/adtest/lang"

	"github.com/adtest/adtest/drivers"
)

// leafFunc is one command's leaf. A read returns its output; a mutating
// leaf runs its pre-action guards and returns the mutation dispatch performs
// past the seam (or an output alone when there is nothing to do).
// args are the action's bound arguments (lang.Bind), of the type the
// command's binder gives.
type leafFunc func(s *Session, ctx context.Context, a *lang.Action, args lang.Args) (*Output, mutation, *ErrorInfo)

// leaves is the dispatch table: one row per command of lang.Commands, a leaf
// or nil for a command this runner answers with UNSUPPORTED_OPERATION.
var leaves = map[string]leafFunc{}

// add registers the leaf of a command; it panics at start-up on a command
// the registry does not know or on a second row for one command.
func add(command string, leaf leafFunc) {
	if _, ok := lang.LookupCommand(command); !ok {
		panic(fmt.Sprintf("runner: leaf for %q, which lang.Commands does not know", command))
	}
	if _, dup := leaves[command]; dup {
		panic(fmt.Sprintf("runner: two leaves for %q", command))
	}
	leaves[command] = leaf
}

// unsupportedHere registers commands a script can reach that this runner
// deliberately answers with UNSUPPORTED_OPERATION (command and platform named).
func unsupportedHere(commands ...string) {
	for _, c := range commands {
		add(c, nil)
	}
}

func init() {
	add("open", (*Session).leafOpen)
	add("close", (*Session).leafClose)
	add("snapshot", (*Session).leafSnapshot)
	add("diff", (*Session).leafDiff)
	add("click", (*Session).leafClick)
	add("press", (*Session).leafClick)
	add("longpress", (*Session).leafLongPress)
	add("fill", (*Session).leafFill)
	add("type", (*Session).leafType)
	add("focus", (*Session).leafFocus)
	add("hover", (*Session).leafHover)
	add("get", (*Session).leafGet)
	add("is", (*Session).leafIs)
	add("find", (*Session).leafFind)
	add("wait", (*Session).leafWait)
	add("scroll", (*Session).leafScroll)
	add("swipe", (*Session).leafSwipe)
	add("gesture", (*Session).leafGesture)
	add("back", (*Session).leafBack)
	add("home", (*Session).leafHome)
	add("app-switcher", (*Session).leafAppSwitcher)
	add("settings", (*Session).leafSettings)
	add("keyboard", (*Session).leafKeyboard)
	add("alert", (*Session).leafAlert)
	add("screenshot", (*Session).leafScreenshot)
	add("viewport", (*Session).leafViewport)
	add("appstate", (*Session).leafAppState)
	add("runtime", (*Session).leafNoop)
	add("replay", (*Session).leafNoop)
	unsupportedHere("orientation", "record", "trace", "clipboard",
		"push", "trigger-app-event", "install", "reinstall", "install-from-source", "react-native",
		"tv-remote", "fold", "perf", "logs", "network", "audio", "events", "devices", "apps",
		"capabilities", "doctor", "boot", "shutdown", "prepare", "artifacts", "test", "batch")
	for _, c := range lang.Commands {
		if _, ok := leaves[c.Name]; !ok {
			panic(fmt.Sprintf("runner: command %q has no dispatch decision: add a leaf or unsupportedHere", c.Name))
		}
	}
}

// Dispatch executes one action against the session: the single leaf path
// used by replay and by interactive commands. Variables must already be
// resolved. It admits refs against the ref frame, runs pre-action guards,
// crosses the side-effect seam for mutating commands, then calls the driver.
//
// Calls are serialised per session (the per-session request lock of ADR 0014).
func (s *Session) Dispatch(ctx context.Context, a *lang.Action) (*Output, *ErrorInfo) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dispatch(ctx, a)
}

func (s *Session) dispatch(ctx context.Context, a *lang.Action) (*Output, *ErrorInfo) {
	args, err := lang.Bind(a)
	return s.dispatchBound(ctx, a, args, err)
}

// dispatchBound is dispatch with the arguments bound (berr: binding failed;
// it is reported after the session checks, where a leaf would have).
func (s *Session) dispatchBound(ctx context.Context, a *lang.Action, args lang.Args, berr error) (*Output, *ErrorInfo) {
	leaf, known := leaves[a.Command]
	if !known {
		return nil, newErr(CodeInvalidArgs, drivers.ReasonUnknownCommand, "Unknown command %q", a.Command)
	}
	if err := ctx.Err(); err != nil {
		return nil, ctxError(ctx, err)
	}
	if t := lang.TraitsOf(a.Command); s.closed && !t.OpensSession && !t.Nests {
		return nil, newErr(CodeSessionNotFound, drivers.ReasonSessionClosed, "The session was closed; run open first")
	}
	if leaf == nil {
		return nil, unsupported(a.Command, s.cfg.Platform)
	}
	if berr != nil {
		return nil, fromError(ctx, a.Command, s.cfg.Platform, berr)
	}
	out, m, e := leaf(s, ctx, a, args)
	if e == nil && !m.none() {
		out, e = s.mutate(ctx, a, &m)
	}
	if e != nil && ctx.Err() != nil && e.Reason != drivers.ReasonTimeout && e.Reason != drivers.ReasonCancelled {
		if ce := ctxError(ctx, ctx.Err()); ce != nil {
			return nil, ce
		}
	}
	if e != nil {
		return nil, e
	}
	return out, nil
}
