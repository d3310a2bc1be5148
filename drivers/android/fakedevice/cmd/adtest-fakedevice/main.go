// Command adtest-fakedevice runs the fake Android device that speaks the
// adbd transport, so that the Android driver can be tried without an
// emulator:
//
//	adtest-fakedevice [-screens FILE] [-connect] [-adb-server HOST:PORT] [-own-server]
//
// It prints the device address; with -connect it asks the adb server to
// connect to it (`adb connect ADDR` does the same). With -own-server it
// starts a private adb server on a free loopback port first, connects the
// device to it and prints "adb-server HOST:PORT"; that server stops with
// the command. It runs until interrupted (SIGINT or SIGTERM). Without -screens it serves the example app
// (examples/android, package com.adtest.demo).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/adtest/adtest/drivers/android/adb"
	"github.com/adtest/adtest/drivers/android/adbtest"
	"github.com/adtest/adtest/drivers/android/fakedevice"
	"github.com/adtest/adtest/drivers/fake"
	exandroid "github.com/adtest/adtest/examples/android"
)

func main() {
	screens := flag.String("screens", "", "screens `FILE` (drivers/fake format); default: the example app")
	connect := flag.Bool("connect", false, "ask the adb server to connect to the device")
	server := flag.String("adb-server", "", "adb server `HOST:PORT` (else ADB_SERVER_SOCKET, ANDROID_ADB_SERVER_PORT, 127.0.0.1:5037)")
	own := flag.Bool("own-server", false, "start a private adb server on a free port, connect the device to it, stop it on exit")
	flag.Parse()
	if *own {
		if err := runOwn(*screens); err != nil {
			fmt.Fprintln(os.Stderr, "adtest-fakedevice:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*screens, *connect, *server); err != nil {
		fmt.Fprintln(os.Stderr, "adtest-fakedevice:", err)
		os.Exit(1)
	}
}

func loadScreens(path string) (*fake.Screens, error) {
	if path != "" {
		return fake.LoadScreens(path)
	}
	return fake.ParseScreens("examples/android/app.screens", exandroid.Screens)
}

func runOwn(screensPath string) error {
	s, err := loadScreens(screensPath)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	sctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	srv, err := adbtest.StartServer(sctx)
	if err != nil {
		return err
	}
	defer srv.Close()
	dev, err := srv.Connect(sctx, fakedevice.Options{Screens: s})
	if err != nil {
		return err
	}
	defer srv.Disconnect(dev)
	fmt.Printf("device %s\nadb-server %s\n", dev.Addr(), srv.Addr())
	<-ctx.Done()
	return nil
}

func run(screensPath string, connect bool, server string) error {
	s, err := loadScreens(screensPath)
	if err != nil {
		return err
	}
	dev, err := fakedevice.Start(fakedevice.Options{Screens: s})
	if err != nil {
		return err
	}
	defer dev.Close()
	fmt.Println(dev.Addr())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if connect {
		c, err := adb.New(adb.Options{Server: server})
		if err != nil {
			return err
		}
		cctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		if err := c.EnsureServer(cctx); err != nil {
			return err
		}
		if _, err := c.Connect(cctx, dev.Addr()); err != nil {
			return err
		}
		if err := c.WaitDevice(cctx, dev.Addr()); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "adtest-fakedevice: %s is online at the adb server %s\n", dev.Addr(), c.Addr())
		defer func() {
			dctx, dcancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer dcancel()
			c.Disconnect(dctx, dev.Addr())
		}()
	}
	<-ctx.Done()
	return nil
}
