// Command adtest-fakedevice runs the fake Android device that speaks the
// adbd transport, so that the Android driver can be tried without an
// emulator; `-own-server` also starts a private adb server for it. See
// fakedevicecmd.Main (cmd/internal/fakedevicecmd) for the flags.
package main

import (
	"os"

	"github.com/adtest/adtest/cmd/internal/fakedevicecmd"
)

func main() { os.Exit(fakedevicecmd.Main(os.Args[1:], os.Stdout, os.Stderr)) }
