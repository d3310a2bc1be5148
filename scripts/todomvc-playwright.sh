#!/usr/bin/env bash
# The TodoMVC yardstick: the nine flows of examples/todomvc on every complete
# framework, once as adtest's .ad scripts and once as Playwright Test specs
# with the same meaning (examples/todomvc/playwright), both on Debian's
# Chromium, then the matrix side by side (`make todomvc-compare`).
#
#   scripts/todomvc-playwright.sh [-j N] [--only a,b,c] [compare]   both, then the matrix
#   scripts/todomvc-playwright.sh [-j N] [--only a,b,c] adtest      adtest's side only
#   scripts/todomvc-playwright.sh [-j N] [--only a,b,c] playwright  Playwright's side only
#
# --flows x,y keeps only those flows (file names of examples/todomvc/flows
# without .ad) for every framework, to re-measure a few cells.
#
# @playwright/test is installed by scripts/install-playwright.sh (pinned
# version and sha256, the per-user cache, no browser download). Outputs go to
# ${TODOMVC_OUT:-.adtest/todomvc}: adtest.json, playwright.json, compare.txt,
# and bin/ + suite/ (prepared once per call of `prepare`, reused by the
# one-sided modes so a timing run times the run alone).
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
. "$repo/scripts/lib.sh"
out="${TODOMVC_OUT:-$repo/.adtest/todomvc}"
chromium="${TODOMVC_CHROMIUM:-$(command -v chromium || command -v chromium-browser || echo /usr/bin/chromium)}"
workers=2 only="" flows="" mode=compare
while [ $# -gt 0 ]; do
  case "$1" in
    -j) workers="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --flows) flows="$2"; shift 2 ;;
    compare|adtest|playwright|prepare) mode="$1"; shift ;;
    *) echo "usage: $0 [-j N] [--only a,b,c] [--flows x,y] [compare|adtest|playwright|prepare]" >&2; exit 2 ;;
  esac
done

install_playwright() { pw_dir="$(bash "$repo/scripts/install-playwright.sh")"; }

prepare() {
  bash "$repo/scripts/setup.sh"
  install_playwright
  rm -rf "$out/suite" "$out/bin"; mkdir -p "$out/bin"
  (cd "$repo" && go build -o "$out/bin/adtest" ./cmd/adtest && go build -o "$out/bin/todomvc" ./examples/todomvc/cmd/todomvc)
  "$out/bin/todomvc" suite -out "$out/suite" ${only:+-only "$only"} ${flows:+-flows "$flows"}
  cp "$repo"/examples/todomvc/playwright/*.js "$pw_dir/run/"
}

run_adtest() {
  local root; root="$("$out/bin/todomvc" root)"
  (cd "$out" && bin/adtest run -j "$workers" --serve "$root" --reporter json=adtest.json --reporter console suite >adtest.log 2>&1) || true
  tail -n 1 "$out/adtest.log"
}

run_playwright() {
  "$out/bin/todomvc" serve >"$out/serve.url" &
  local srv=$! url=""
  trap 'kill "$srv" 2>/dev/null || true' RETURN
  url="$(wait_url todomvc-playwright "$srv" "$out/serve.url")" || exit 1
  (cd "$pw_dir/run" && TODOMVC_BASE_URL="$url" TODOMVC_FRAMEWORKS="$out/suite/frameworks.json" TODOMVC_CHROMIUM="$chromium" \
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 PLAYWRIGHT_JSON_OUTPUT_NAME="$out/playwright.json" \
    ../node_modules/.bin/playwright test --workers "$workers" >"$out/playwright.log" 2>&1) || true
  tail -n 3 "$out/playwright.log"
}

case "$mode" in
  prepare) prepare ;;
  adtest) run_adtest ;;
  playwright) run_playwright ;;
  compare)
    prepare
    run_adtest
    run_playwright
    "$out/bin/todomvc" compare -adtest "$out/adtest.json" -playwright "$out/playwright.json" | tee "$out/compare.txt"
    ;;
esac
