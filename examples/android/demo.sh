#!/usr/bin/env bash
# Runs the Android example suite the way a user runs one on a device: the
# fake device (no emulator needed) behind a private adb server, then
# `adtest run --adb-server` with console, JUnit and JSON reports. The fake
# device command owns that server and stops it when it exits.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=.adtest/demo-android
mkdir -p "$out" bin
go build -o bin/adtest-fakedevice ./cmd/adtest-fakedevice
bin/adtest-fakedevice -own-server >"$out/fakedevice.txt" &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true' EXIT
server=""
for _ in $(seq 1 300); do
  server=$(sed -n 's/^adb-server //p' "$out/fakedevice.txt")
  [ -n "$server" ] && break
  kill -0 "$pid" 2>/dev/null || { echo "demo: the fake device did not start" >&2; exit 3; }
  sleep 0.1
done
[ -n "$server" ] || { echo "demo: no adb server after 30s" >&2; exit 3; }
bin/adtest run --adb-server "$server" \
  --reporter console --reporter junit="$out/junit.xml" --reporter json="$out/result.json" \
  examples/android/suite
