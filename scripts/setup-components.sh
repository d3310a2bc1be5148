#!/usr/bin/env bash
# The corpus of real component libraries of examples/components: each npm
# package pinned in examples/components/components.go (key, name, version,
# sha256), fetched with npm pack into the per-user cache, checked against its
# sha256 and extracted there (never committed). A package whose extracted
# tree's stamp carries its sha256 is skipped, so a second run does nothing.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

pins="$(dirname "$0")/../examples/components/components.go"
cache="$(adtest_cache)/components"
lines="$(sed -n 's/^[[:space:]]*{"\([^"]*\)", "\([^"]*\)", "\([^"]*\)", "\([0-9a-f]\{64\}\)"},$/\1 \2 \3 \4/p' "$pins")"
[ -n "$lines" ] || { echo "setup-components: no pinned package in $pins" >&2; exit 1; }

while read -r key name ver sha; do
  dir="$cache/$key/$ver"
  fetched "$sha" "$dir" && continue
  ensure_npm setup-components "the component corpus"
  npm_fetch setup-components "$name" "$ver" "$sha" "$dir" examples/components/components.go keep
done <<<"$lines"
