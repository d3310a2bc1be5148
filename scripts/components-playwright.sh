#!/usr/bin/env bash
# The component corpus side by side: every flow of examples/components,
# once as adtest's .ad script and once as its Playwright Test twin
# (examples/components/playwright), both on Debian's Chromium, against the
# same loopback server of the host pages and the pinned packages; then the
# table, flow by flow (`make components-compare`).
#
#   scripts/components-playwright.sh [-j N] [--flows lib/a,lib/b] [compare]   both, then the table
#   scripts/components-playwright.sh [-j N] [--flows ...] adtest               adtest's side only
#   scripts/components-playwright.sh [-j N] [--flows ...] playwright           Playwright's side only
#
# @playwright/test comes from scripts/install-playwright.sh (pinned version
# and sha256, the per-user cache, no browser download). Outputs go to
# ${COMPONENTS_OUT:-.adtest/components}: adtest.json, adtest.log,
# playwright.json, playwright.log and compare.txt.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
. "$repo/scripts/lib.sh"
out="${COMPONENTS_OUT:-$repo/.adtest/components}"
chromium="${COMPONENTS_CHROMIUM:-$(command -v chromium || command -v chromium-browser || echo /usr/bin/chromium)}"
workers=2 flows="" mode=compare
while [ $# -gt 0 ]; do
  case "$1" in
    -j) workers="$2"; shift 2 ;;
    --flows) flows="$2"; shift 2 ;;
    compare|adtest|playwright) mode="$1"; shift ;;
    *) echo "usage: $0 [-j N] [--flows lib/a,lib/b] [compare|adtest|playwright]" >&2; exit 2 ;;
  esac
done

bash "$repo/scripts/setup-components.sh"
pw_dir="$(bash "$repo/scripts/install-playwright.sh")"
mkdir -p "$out/bin" "$pw_dir/run-components"
(cd "$repo" && go build -o "$out/bin/adtest" ./cmd/adtest && go build -o "$out/bin/components" ./examples/components/cmd/components)
cp "$repo"/examples/components/playwright/*.js "$pw_dir/run-components/"

# One server for both sides; it prints its URL once it listens.
"$out/bin/components" serve >"$out/serve.url" &
srv=$!
trap 'kill "$srv" 2>/dev/null || true' EXIT
url="$(wait_url components-playwright "$srv" "$out/serve.url")"

run_adtest() {
  local paths=()
  if [ -n "$flows" ]; then
    IFS=, read -r -a names <<<"$flows"
    for n in "${names[@]}"; do paths+=("$repo/examples/components/flows/$n.ad"); done
  else
    paths=("$repo/examples/components/flows")
  fi
  # --reuse-web-server: the server above answers, so the command is not started.
  (cd "$out" && bin/adtest run -j "$workers" --web-server "bin/components serve" --reuse-web-server --web-server-url "$url/" \
    --reporter json=adtest.json --reporter console "${paths[@]}" >adtest.log 2>&1) || true
  tail -n 1 "$out/adtest.log"
}

run_playwright() {
  (cd "$pw_dir/run-components" && COMPONENTS_BASE_URL="$url" COMPONENTS_CHROMIUM="$chromium" COMPONENTS_FLOWS="$flows" \
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 PLAYWRIGHT_JSON_OUTPUT_NAME="$out/playwright.json" \
    ../node_modules/.bin/playwright test --workers "$workers" >"$out/playwright.log" 2>&1) || true
  tail -n 3 "$out/playwright.log"
}

case "$mode" in
  adtest) run_adtest ;;
  playwright) run_playwright ;;
  compare)
    run_adtest
    run_playwright
    "$out/bin/components" compare -adtest "$out/adtest.json" -playwright "$out/playwright.json" | tee "$out/compare.txt"
    ;;
esac
