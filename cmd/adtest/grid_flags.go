package main

import (
	"flag"
	"github.com/adtest/adtest/cmd/internal/agentdevice"
	"github.com/adtest/adtest/internal/scriptpath"

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
// capabilities read from @FILE (relative to cwd), the timeout parsed.
func (g *gridFlags) options(env *Env) (*web.GridOptions, error) {
	return web.ParseGridOptions(g.url, g.capabilities, g.timeout, func(name string) ([]byte, error) {
		return env.FS.ReadFile(scriptpath.Abs(env.Cwd, name))
	})
}
