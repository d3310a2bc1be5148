// Package runctx is the context of one run of a script, built the same way
// for an attempt of the suite (runner/suite) and a replay of the daemon
// (daemon): the variable scope, the secret values (the one secret picker)
// and the masker they give, and the trace as the policy says (started with
// the run, kept or removed when it finishes).
package runctx

import (
	"os"
	"sort"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/lang"
	"github.com/adtest/adtest/runner"
	"github.com/adtest/adtest/runner/trace"
)

// Vars are the variables of a run by where they come from, and what else
// is secret.
type Vars struct {
	// CLI are the -e KEY=VALUE values, Process the AD_VAR_* ones.
	CLI, Process map[string]string
	// Script is the script's env block (nil: none).
	Script *lang.Script
	// MaskNames are further names whose values are secret (--mask NAME).
	MaskNames []string
	// BlankPictures paints every picture over whole (drivers.BlankPictures).
	BlankPictures bool
}

// scriptEnv is the script's env block as a map.
func (v Vars) scriptEnv() map[string]string {
	env := map[string]string{}
	if v.Script != nil {
		for _, e := range v.Script.Env {
			env[e.Key] = e.Value
		}
	}
	return env
}

// SecretValues is the one secret picker: the values of the variables
// whose names look secret (lang.IsSecretName) or are named in MaskNames,
// from the command line, the process and the script, in a stable order;
// then drivers.BlankPictures when every picture is painted over.
func (v Vars) SecretValues() []string {
	extra := map[string]bool{}
	for _, n := range v.MaskNames {
		extra[n] = true
	}
	var out []string
	for _, vars := range []map[string]string{v.CLI, v.Process, v.scriptEnv()} {
		for k, val := range vars {
			if val != "" && (lang.IsSecretName(k) || extra[k]) {
				out = append(out, val)
			}
		}
	}
	sort.Strings(out)
	if v.BlankPictures {
		out = append(out, drivers.BlankPictures)
	}
	return out
}

// Run is the context of one run.
type Run struct {
	// Scope holds the run's variables; its BuiltIns (AD_*) are the caller's
	// to fill before the run starts.
	Scope *lang.Scope
	// Secrets are the secret values (Vars.SecretValues) and Mask their
	// masker: every text the run writes passes it.
	Secrets []string
	Mask    *drivers.Masker
	// Trace records the run's steps (nil: not traced); Hooks hands it to
	// the session.
	Trace *trace.Trace

	mode    trace.Mode
	attempt int
}

// New is the context of a run of vars: its scope, secret values and masker.
func New(v Vars) *Run {
	secrets := v.SecretValues()
	return &Run{
		Scope:   &lang.Scope{CLI: v.CLI, Process: v.Process, Script: v.scriptEnv()},
		Secrets: secrets,
		Mask:    drivers.NewMasker(secrets),
	}
}

// StartTrace starts the run's trace in dir when the policy records the
// attempt (1-based) on platform; info names the run in trace.json. A dir
// of "" traces nothing. A trace that cannot be created is an error, and
// the run goes on untraced.
func (r *Run) StartTrace(p trace.Policy, platform string, attempt int, dir string, info trace.Info) error {
	r.mode, r.attempt = p.ModeOn(platform), attempt
	if dir == "" || !r.mode.Records(attempt) {
		return nil
	}
	info.Platform, info.Attempt = platform, attempt
	tr, err := trace.New(dir, r.Mask, info)
	if err != nil {
		return err
	}
	r.Trace = tr
	return nil
}

// Records reports whether the policy StartTrace was given records the
// attempt.
func (r *Run) Records() bool { return r.mode.Records(r.attempt) }

// Hooks are the step hooks of the run's session (its trace).
func (r *Run) Hooks() []runner.StepHook {
	if r.Trace == nil {
		return nil
	}
	return []runner.StepHook{r.Trace}
}

// FinishTrace ends the run's trace: kept (trace.json written; its
// directory returned) when the policy keeps the attempt as it ended, else
// removed (""). A trace.json that cannot be written is the error, its
// directory left as it is.
func (r *Run) FinishTrace(passed bool) (string, error) {
	tr := r.Trace
	if tr == nil {
		return "", nil
	}
	r.Trace = nil
	if !r.mode.Keeps(r.attempt, passed) {
		os.RemoveAll(tr.Dir())
		return "", nil
	}
	if err := tr.Close(); err != nil {
		return tr.Dir(), err
	}
	return tr.Dir(), nil
}
