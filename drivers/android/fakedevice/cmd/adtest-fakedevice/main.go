// Command adtest-fakedevice runs the fake Android device that speaks the
// adbd transport, so that the Android driver can be tried without an
// emulator; `-own-server` also starts a private adb server for it. See
// adbtest.Main for the flags.
package main

import (
	"os"

	"github.com/adtest/adtest/drivers/android/adbtest"
)

func main() { os.Exit(adbtest.Main(os.Args[1:], os.Stdout, os.Stderr)) }
