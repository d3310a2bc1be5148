package main

import (
	"context"
	"fmt"
	"github.com/adtest/adtest/internal/scriptpath"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/drivers/android"
	"github.com/adtest/adtest/drivers/fake"
	"github.com/adtest/adtest/drivers/web"
)

// providerOptions is what a command's flags say about opening the drivers:
// `adtest run` fills all of it, the daemon (interactive sessions) the
// browser and adb server flags.
type providerOptions struct {
	// fakeDevice, a screens file, runs every platform on the in-memory fake
	// device (test only).
	fakeDevice string
	// browser is the Chromium binary; cdpURL attaches to a remote one.
	browser, cdpURL  string
	browserPerWorker bool
	// adbServer is --adb-server; devices the serials that get a worker each.
	adbServer string
	devices   []string
	// androidSnapshot is "helper" or "dump" ("": the driver's default).
	androidSnapshot string
	debugf          func(format string, a ...any)
	// frameControl has the browser's frames drawn by the sessions: a run
	// that records traces (web.Options.FrameControl).
	frameControl bool
	// grid takes the browsers from a Selenium Grid (--grid).
	grid *web.GridOptions
	// isolation is --isolation (web.Options.Isolation; "": fresh).
	isolation string
}

// openProvider is cmd's one switch from a platform to its driver's
// provider, for runs and for the daemon alike.
func openProvider(ctx context.Context, env *Env, o providerOptions, platform string) (drivers.Provider, error) {
	if o.fakeDevice != "" {
		return fake.LoadProvider(scriptpath.Abs(env.Cwd, o.fakeDevice))
	}
	switch platform {
	case drivers.PlatformWeb:
		opts := web.Options{BrowserPath: o.browser, BrowserPerWorker: o.browserPerWorker, Getenv: env.Getenv, FrameControl: o.frameControl, Isolation: o.isolation}
		if o.debugf != nil {
			opts.Logf = o.debugf
		}
		if o.grid != nil {
			return web.NewGrid(ctx, *o.grid, opts)
		}
		if o.cdpURL != "" {
			return web.NewRemote(o.cdpURL, opts)
		}
		return web.NewLocal(opts)
	case drivers.PlatformAndroid:
		// The adb server from --adb-server, else ADB_SERVER_SOCKET /
		// ANDROID_ADB_SERVER_PORT, else 127.0.0.1:5037; ADTEST_ADB names
		// the adb binary that starts a local one (default: adb on PATH).
		return android.NewProvider(ctx, android.Options{
			Server: o.adbServer, Getenv: env.Getenv, ADBPath: getenv(env, "ADTEST_ADB"),
			Devices: o.devices, Snapshot: o.androidSnapshot, Debugf: o.debugf,
		})
	}
	return nil, fmt.Errorf("%w: no driver for platform %q (adtest runs web and android)", drivers.ErrInfrastructure, platform)
}
