package main

import (
	"flag"
	"fmt"
	"github.com/adtest/adtest/cmd/internal/agentdevice"
	"path/filepath"
	"strings"
	"time"

	"github.com/adtest/adtest/drivers/web"
)

// gridFlags are --grid, --grid-capabilities and --grid-timeout: browsers
// from a Selenium Grid 4, one WebDriver session per worker
// (drivers/web/grid.go). Each comes from its flag, else the environment
// (ADTEST_GRID, ADTEST_GRID_CAPABILITIES, ADTEST_GRID_TIMEOUT), else the
// agent-device configuration (keys grid, gridCapabilities, gridTimeout;
// AGENT_DEVICE_GRID...).
type gridFlags struct {
	url, capabilities, timeout string
}

const gridUsage = "take each worker's browser from the Selenium Grid 4 at `URL` (one WebDriver session per worker; else ADTEST_GRID)"

func (g *gridFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&g.url, "grid", "", gridUsage)
	fs.StringVar(&g.capabilities, "grid-capabilities", "", "capabilities of the Grid's sessions, a `JSON` object or @FILE, merged over browserName chrome, headless, --no-sandbox (else ADTEST_GRID_CAPABILITIES)")
	fs.StringVar(&g.timeout, "grid-timeout", "", "how long a new Grid session may wait for a free slot, a `DURATION` such as 5m (default 5m; else ADTEST_GRID_TIMEOUT)")
}

// fill takes what the command line left unset from the environment, then
// from the configuration c (nil: none).
func (g *gridFlags) fill(env *Env, c *agentdevice.Config) {
	from := func(v *string, envName, key string) {
		if *v != "" {
			return
		}
		if e := getenv(env, envName); e != "" {
			*v = e
			return
		}
		if c != nil {
			*v = c.Str(key)
		}
	}
	from(&g.url, "ADTEST_GRID", "grid")
	from(&g.capabilities, "ADTEST_GRID_CAPABILITIES", "gridCapabilities")
	from(&g.timeout, "ADTEST_GRID_TIMEOUT", "gridTimeout")
}

// options are the web driver's Grid options (nil without a Grid): the
// capabilities read from @FILE, the timeout parsed.
func (g *gridFlags) options(env *Env) (*web.GridOptions, error) {
	if g.url == "" {
		if g.capabilities != "" || g.timeout != "" {
			return nil, fmt.Errorf("--grid-capabilities and --grid-timeout go with --grid (or ADTEST_GRID)")
		}
		return nil, nil
	}
	o := &web.GridOptions{URL: g.url, Capabilities: g.capabilities}
	if name, ok := strings.CutPrefix(g.capabilities, "@"); ok {
		b, err := env.FS.ReadFile(abs(env.Cwd, name))
		if err != nil {
			return nil, fmt.Errorf("--grid-capabilities @%s: %v", filepath.ToSlash(name), err)
		}
		o.Capabilities = string(b)
	}
	if _, err := web.GridCapabilities(o.Capabilities, false); err != nil {
		return nil, fmt.Errorf("%s", strings.TrimPrefix(err.Error(), "infrastructure failure: "))
	}
	if g.timeout != "" {
		d, err := time.ParseDuration(g.timeout)
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("--grid-timeout %q: want a duration such as 5m or 90s", g.timeout)
		}
		o.Timeout = d
	}
	return o, nil
}
