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
echo "setup: chromium $(command -v chromium || command -v chromium-browser || command -v google-chrome), adb $(command -v adb)" >&2
