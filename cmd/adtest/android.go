package main

import (
	"context"
	"fmt"

	"github.com/adtest/adtest/drivers/android"
)

// runAndroid is `adtest android setup`: fetch and verify the on-device
// helper into the per-user cache.
func runAndroid(ctx context.Context, env *Env) int {
	if len(env.Args) != 1 || env.Args[0] != "setup" {
		fmt.Fprintln(env.Stderr, "usage: adtest android setup   (fetch and verify agent-device's snapshot helper APK into the user cache)")
		if len(env.Args) == 1 && (env.Args[0] == "-h" || env.Args[0] == "--help") {
			return ExitOK
		}
		return ExitUsage
	}
	dir := android.HelperDir(env.Getenv)
	err := android.Setup(ctx, dir, func(format string, a ...any) { fmt.Fprintf(env.Stderr, format+"\n", a...) })
	if err != nil {
		fmt.Fprintf(env.Stderr, "adtest android setup: %v\n", err)
		return ExitInfra
	}
	fmt.Fprintln(env.Stdout, dir)
	return ExitOK
}

// androidProvider opens the Android driver for a run.
func androidProvider(ctx context.Context, env *Env, f *runFlags) (*android.Provider, error) {
	// ADTEST_ADB names the adb binary that starts a local server (default: adb on PATH).
	opts := android.Options{Server: f.adbServer, Getenv: env.Getenv, Devices: f.devices, Snapshot: f.androidSnapshot, ADBPath: env.Getenv("ADTEST_ADB")}
	if f.debug {
		opts.Debugf = func(format string, a ...any) { fmt.Fprintf(env.Stderr, "debug: "+format+"\n", a...) }
	}
	return android.NewProvider(ctx, opts)
}
