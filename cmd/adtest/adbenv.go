package main

import (
	"github.com/adtest/adtest/drivers/android/adb"
)

// adbServerFromEnv is the adb server HOST:PORT the environment names
// (ADB_SERVER_SOCKET, else ANDROID_ADB_SERVER_PORT) with its source, or ""
// when it names none or names it wrongly (the daemon's own error says so).
func adbServerFromEnv(env *Env) (addr, from string) {
	for _, k := range []string{"ADB_SERVER_SOCKET", "ANDROID_ADB_SERVER_PORT"} {
		if v := getenv(env, k); v != "" {
			c, err := adb.New(adb.Options{Getenv: func(key string) string { return getenv(env, key) }, NoStart: true})
			if err != nil {
				return "", ""
			}
			return c.Addr(), k + "=" + v
		}
	}
	return "", ""
}

// daemonADBServer is the adb server a daemon's Android sessions use: its
// --adb-server, else the environment it was started with, else adb's
// default; with where that came from.
func daemonADBServer(env *Env, flag string) (addr, from string) {
	if flag != "" {
		if c, err := adb.New(adb.Options{Server: flag, NoStart: true}); err == nil {
			return c.Addr(), "--adb-server " + flag
		}
		return "", ""
	}
	if addr, from := adbServerFromEnv(env); addr != "" {
		return addr, from
	}
	c, err := adb.New(adb.Options{Getenv: func(string) string { return "" }, NoStart: true})
	if err != nil {
		return "", ""
	}
	return c.Addr(), "the default"
}
