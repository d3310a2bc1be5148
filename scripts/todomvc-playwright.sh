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
# @playwright/test is installed from npm at the pinned version, every tarball
# checked against its pinned sha256, into the per-user cache (never into the
# repository); Playwright's own browser download is skipped. Outputs go to
# ${TODOMVC_OUT:-.adtest/todomvc}: adtest.json, playwright.json, compare.txt,
# and bin/ + suite/ (prepared once per call of `prepare`, reused by the
# one-sided modes so a timing run times the run alone).
set -euo pipefail

pw_version=1.65.1
pw_sha256=(
  "playwright-core-$pw_version.tgz 6f5a60be62a4fddfbe7d10c448d8fbd54547da3358f2f8a04211440471ee863e"
  "playwright-$pw_version.tgz e2ebec5abb40f511c7a4442e83042fd8a4e654c3367e120b76e94a61a8f91e01"
  "playwright-test-$pw_version.tgz 025a0b1ab36fd4e5f4ede6c9397020b9c3805d8f19c75a16989a02d70a88f37b"
)

repo="$(cd "$(dirname "$0")/.." && pwd)"
cache="${ADTEST_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/adtest}"
pw_dir="$cache/playwright-test/$pw_version"
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

install_playwright() {
  [ -f "$pw_dir/installed" ] && return 0
  command -v npm >/dev/null 2>&1 || { echo "todomvc-playwright: npm is needed (apt-get install npm)" >&2; exit 1; }
  echo "todomvc-playwright: installing @playwright/test@$pw_version into $pw_dir" >&2
  local tmp; tmp="$(mktemp -d)"
  (cd "$tmp" && npm pack --silent "playwright-core@$pw_version" "playwright@$pw_version" "@playwright/test@$pw_version" >/dev/null)
  local line f sum
  for line in "${pw_sha256[@]}"; do
    f="${line% *}"; sum="${line#* }"
    if ! echo "$sum  $tmp/$f" | sha256sum -c --status; then
      echo "todomvc-playwright: $f has sha256 $(sha256sum <"$tmp/$f" | cut -d' ' -f1), want $sum" >&2
      rm -rf "$tmp"; exit 1
    fi
  done
  rm -rf "$pw_dir"; mkdir -p "$pw_dir/tarballs" "$pw_dir/run"
  mv "$tmp"/*.tgz "$pw_dir/tarballs/"; rm -rf "$tmp"
  echo '{"private":true}' >"$pw_dir/package.json"
  (cd "$pw_dir" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --silent --offline --no-audit --no-fund \
    "./tarballs/playwright-core-$pw_version.tgz" "./tarballs/playwright-$pw_version.tgz" \
    "./tarballs/playwright-test-$pw_version.tgz" >/dev/null)
  touch "$pw_dir/installed"
}

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
  for _ in $(seq 200); do # the server prints its URL once it listens
    url="$(head -n 1 "$out/serve.url" 2>/dev/null || true)"
    [ -n "$url" ] && break
    kill -0 "$srv" 2>/dev/null || { echo "todomvc-playwright: the server did not start" >&2; exit 1; }
    sleep 0.05
  done
  [ -n "$url" ] || { echo "todomvc-playwright: the server printed no URL" >&2; exit 1; }
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
