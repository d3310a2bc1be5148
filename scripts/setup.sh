#!/usr/bin/env bash
# Installs what adtest's demo and tests need and this machine lacks: Debian's
# chromium-headless-shell (the web driver's browser: the same engine as
# chromium without its windows, at a third of the CPU), chromium (where the
# shell is not packaged, and Playwright's side of the TodoMVC comparison),
# adb (the Android driver's server), and git and patch (the repair tests
# apply their patches with both).
# Idempotent: it does nothing when all are already there. With --demo it
# skips the test subjects (TodoMVC, the component libraries, Selenium Grid).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

need=()
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 \
  || command -v google-chrome >/dev/null 2>&1 || need+=(chromium)
if command -v apt-get >/dev/null 2>&1 && ! command -v chromium-headless-shell >/dev/null 2>&1 \
  && [ ! -x /usr/lib/chromium/chromium-headless-shell ]; then
  need+=(chromium-headless-shell)
fi
command -v adb >/dev/null 2>&1 || need+=(adb)
command -v git >/dev/null 2>&1 || need+=(git)
command -v patch >/dev/null 2>&1 || need+=(patch)

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
helper_sha="$(pin "$helper_go" HelperSHA256)"; helper_ver="$(pin "$helper_go" HelperNPMVersion)"
helper_dir="$(adtest_cache)/android-helper/$helper_ver"
helper_apk="$helper_dir/agent-device-android-snapshot-helper-$helper_ver.apk"
if [ -z "$helper_sha" ] || ! echo "$helper_sha  $helper_apk" | sha256sum -c --status 2>/dev/null; then
  ensure_npm setup "the Android helper"
  (cd "$(dirname "$0")/.." && go run ./cmd/adtest android setup >/dev/null)
fi
# --demo (make demo) stops here: the demo needs the browser, adb and the
# Android helper, not the test subjects below.
if [ "${1:-}" != "--demo" ]; then
# The real-app corpus of examples/todomvc: npm's todomvc package, fetched
# with npm pack into the per-user cache, checked against the sha256 pinned
# in examples/todomvc/todomvc.go and extracted there (never committed).
# Skipped when the extracted tree's stamp carries that sha256.
todomvc_go="$(dirname "$0")/../examples/todomvc/todomvc.go"
todo_pkg="$(pin "$todomvc_go" NPMPackage)"; todo_ver="$(pin "$todomvc_go" NPMVersion)"; todo_sha="$(pin "$todomvc_go" SHA256)"
todo_dir="$(adtest_cache)/$todo_pkg/$todo_ver"
if ! fetched "$todo_sha" "$todo_dir"; then
  ensure_npm setup "the TodoMVC corpus"
  npm_fetch setup "$todo_pkg" "$todo_ver" "$todo_sha" "$todo_dir" examples/todomvc/todomvc.go keep
fi

bash "$(dirname "$0")/setup-components.sh" # examples/components: pinned npm packages, user cache
# Selenium Grid 4 for the tests of --grid (scripts/setup-grid.sh).
bash "$(dirname "$0")/setup-grid.sh"
fi

shell=/usr/lib/chromium/chromium-headless-shell
[ -x "$shell" ] || shell="$(command -v chromium-headless-shell || true)"
echo "setup: chromium ${shell:+$shell and }$(command -v chromium || command -v chromium-browser || command -v google-chrome), adb $(command -v adb), android helper $helper_apk${todo_dir:+, todomvc $todo_dir/package}" >&2
