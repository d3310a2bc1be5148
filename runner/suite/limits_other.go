//go:build !unix

package suite

const openNonBlock = 0
