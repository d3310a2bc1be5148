#!/usr/bin/env bash
# Installs what adtest's demo and tests need and this machine lacks: Debian's
# chromium (the web driver's browser) and adb (the Android driver's server).
# Idempotent: it does nothing when both are already there.
set -euo pipefail

need=()
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 \
  || command -v google-chrome >/dev/null 2>&1 || need+=(chromium)
command -v adb >/dev/null 2>&1 || need+=(adb)

if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}" >&2
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi

command -v go >/dev/null 2>&1 || { echo "setup: Go 1.26 is required (https://go.dev/doc/install)" >&2; exit 1; }

# The Android driver's on-device helper: agent-device's snapshot helper APK,
# fetched from its pinned npm package into the per-user cache and checked
# against the sha256 pinned in drivers/android/helper.go (never committed).
# Skipped when the cached APK already has that sha256.
helper_go="$(dirname "$0")/../drivers/android/helper.go"
pin() { sed -n "s/^[[:space:]]*$1[[:space:]]*= \"\(.*\)\"$/\1/p" "$helper_go"; }
helper_sha="$(pin HelperSHA256)"; helper_ver="$(pin HelperNPMVersion)"
helper_dir="${ADTEST_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/adtest}/android-helper/$helper_ver"
helper_apk="$helper_dir/agent-device-android-snapshot-helper-$helper_ver.apk"
if [ -z "$helper_sha" ] || ! echo "$helper_sha  $helper_apk" | sha256sum -c --status 2>/dev/null; then
  if ! command -v npm >/dev/null 2>&1; then
    echo "setup: installing npm (to fetch the Android helper)" >&2
    sudo=""; if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq npm >/dev/null
  fi
  (cd "$(dirname "$0")/.." && go run ./cmd/adtest android setup >/dev/null)
fi
echo "setup: chromium $(command -v chromium || command -v chromium-browser || command -v google-chrome), adb $(command -v adb), android helper $helper_apk" >&2
