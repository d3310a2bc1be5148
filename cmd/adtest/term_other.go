//go:build !unix

package main

// termWidth is unknown off Unix: the live status area assumes 80 columns.
func termWidth(fd uintptr) int { return 0 }
