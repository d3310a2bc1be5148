// Package android is the example Android app of adtest: a screens file the
// fake device (internal/testsupport/fakedevice) runs as package com.adtest.demo,
// and the .ad suite in suite/ that exercises it through the real adb server.
// suite-emulator/ holds a script for agent-device's own example app on a
// real emulator.
package android

import _ "embed"

// Screens is the app, in the drivers/fake screens format.
//
//go:embed app.screens
var Screens string

// Package is the app's package name.
const Package = "com.adtest.demo"
