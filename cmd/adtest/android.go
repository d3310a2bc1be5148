package main

import (
	"context"
	"fmt"
	"time"

	"github.com/adtest/adtest/cmd/internal/cmdline"
	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/drivers/android"
	"github.com/adtest/adtest/drivers/android/adb"
	"github.com/adtest/adtest/runner/suite"
)

// helpOnly is the flags of a command that has none but -h.
var helpOnly = cmdline.Set{Flags: []cmdline.Flag{{Name: "help", Short: "h", Kind: cmdline.Bool}}}

// runAndroid is `adtest android setup`: fetch and verify the on-device
// helper into the per-user cache.
func runAndroid(ctx context.Context, env *Env) int {
	a, err := helpOnly.Parse(env.Args)
	if err != nil || a.Has("help") || len(a.Pos) != 1 || a.Pos[0] != "setup" {
		if err != nil {
			fmt.Fprintf(env.Stderr, "adtest android: %v\n", err)
		}
		fmt.Fprintln(env.Stderr, "usage: adtest android setup   (fetch and verify agent-device's snapshot helper APK into the user cache)")
		if err == nil && a.Has("help") {
			return ExitOK
		}
		return ExitUsage
	}
	dir := android.HelperDir(env.Getenv)
	err = android.Setup(ctx, dir, func(format string, a ...any) { fmt.Fprintf(env.Stderr, format+"\n", a...) })
	if err != nil {
		fmt.Fprintf(env.Stderr, "adtest android setup: %v\n", err)
		return ExitInfra
	}
	fmt.Fprintln(env.Stdout, dir)
	return ExitOK
}

// androidDevices returns the online devices of the adb server when the run
// has Android tests and more than one device is online, so that each gets a
// worker; nil otherwise (the provider reports a missing server or device).
func androidDevices(env *Env, f *runFlags, tests []*suite.Test) []string {
	android := false
	for _, t := range tests {
		android = android || t.Platform == drivers.PlatformAndroid && t.SkipReason == ""
	}
	if !android {
		return nil
	}
	c, err := adb.New(adb.Options{Server: f.adbServer, Getenv: env.Getenv, NoStart: true})
	if err != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	list, err := c.Devices(ctx)
	if err != nil {
		return nil
	}
	var online []string
	for _, d := range list {
		if d.State == "device" {
			online = append(online, d.Serial)
		}
	}
	if len(online) < 2 {
		return nil
	}
	return online
}
