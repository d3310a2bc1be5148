#!/usr/bin/env bash
# The corpus of real component libraries of examples/components: each npm
# package pinned in examples/components/components.go (key, name, version,
# sha256), fetched with npm pack into the per-user cache, checked against its
# sha256 and extracted there (never committed). A package whose extracted
# tree's stamp carries its sha256 is skipped, so a second run does nothing.
set -euo pipefail

pins="$(dirname "$0")/../examples/components/components.go"
cache="${ADTEST_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/adtest}/components"
lines="$(sed -n 's/^[[:space:]]*{"\([^"]*\)", "\([^"]*\)", "\([^"]*\)", "\([0-9a-f]\{64\}\)"},$/\1 \2 \3 \4/p' "$pins")"
[ -n "$lines" ] || { echo "setup-components: no pinned package in $pins" >&2; exit 1; }

while read -r key name ver sha; do
  dir="$cache/$key/$ver"
  [ "$(cat "$dir/extracted.sha256" 2>/dev/null)" = "$sha" ] && continue
  if ! command -v npm >/dev/null 2>&1; then
    echo "setup-components: installing npm (to fetch the component corpus)" >&2
    sudo=""; if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq npm >/dev/null
  fi
  echo "setup-components: fetching $name@$ver into $dir" >&2
  tmp="$(mktemp -d)"
  tgz="$(cd "$tmp" && npm pack --silent "$name@$ver" | tail -n 1)"
  if ! echo "$sha  $tmp/$tgz" | sha256sum -c --status; then
    echo "setup-components: $name@$ver has sha256 $(sha256sum <"$tmp/$tgz" | cut -d' ' -f1), want $sha (pinned in examples/components/components.go)" >&2
    rm -rf "$tmp"; exit 1
  fi
  rm -rf "$dir"; mkdir -p "$dir"
  tar -xzf "$tmp/$tgz" -C "$dir"
  mv "$tmp/$tgz" "$dir/"; rm -rf "$tmp"
  echo "$sha" >"$dir/extracted.sha256"
done <<<"$lines"
