package main

import (
	"flag"
	"strings"

	"github.com/adtest/adtest/cmd/internal/agentdevice"
)

// adEnv is what agent-device's configuration reads of the process.
func adEnv(env *Env) agentdevice.Env {
	return agentdevice.Env{Cwd: env.Cwd, Getenv: env.Getenv, ReadFile: env.FS.ReadFile}
}

// applyAgentDeviceConfig gives `adtest run` the configuration's values for
// the flags the command line left unset (platform, retries, timeoutMs,
// failFast, device).
func applyAgentDeviceConfig(env *Env, f *runFlags, set *flag.FlagSet) error {
	c, err := agentdevice.Load(adEnv(env), nil)
	if err != nil {
		return err
	}
	given := map[string]bool{}
	set.Visit(func(fl *flag.Flag) { given[fl.Name] = true })
	if v := c.Str("platform"); v != "" && !given["platform"] {
		f.platform = v
	}
	if v, ok := c.Int("retries"); ok && !given["retries"] {
		f.retries.v = &v
	}
	if v, ok := c.Int("timeoutMs"); ok && !given["timeout"] {
		f.timeout.v = &v
	}
	if c.Bool("failFast") && !given["fail-fast"] {
		f.failFast = true
	}
	if v := c.Str("device"); v != "" && !given["device"] {
		f.devices = strings.Split(v, ",")
	}
	f.grid.fill(env, c)
	return nil
}
