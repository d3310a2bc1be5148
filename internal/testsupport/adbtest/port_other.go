//go:build !linux

package adbtest

// reserve: no machine-wide reservation outside Linux; FreePort's check
// that the port is free is all there is.
func reserve(int) bool { return true }
