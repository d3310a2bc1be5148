#!/usr/bin/env bash
# adtest against Playwright Test on the same browser (`make bench-compare`):
# the TodoMVC flows of examples/todomvc on the gate's three apps, both tools
# on Debian's chromium-headless-shell (Playwright's executablePath pointed at
# the binary adtest starts), alternating adtest, Playwright, adtest, ... and
# timing each whole process (wall, and user + system CPU of it and every
# process it waited for, the browser included). Prints each pair and its
# ratio, the medians, and where adtest's step time went (todomvc timing of
# its last run). A pair counts only when every test passed on both sides.
#
#   scripts/bench-compare.sh [-n PAIRS] [-j N] [--only a,b,c] [--floor] [-- ADTEST_FLAGS...]
#
# --floor runs adtest on the floor of each flow instead (todomvc suite
# -floor): its page loads and written pauses, no other step, against
# Playwright's whole flows: the least any runner with a fresh browser
# context per test can take on this machine.
#
# ADTEST_FLAGS go to `adtest run` (e.g. -- --trace retain-on-failure).
# Playwright Test is the pinned one scripts/todomvc-playwright.sh installs
# into the user cache; outputs go to ${TODOMVC_OUT:-.adtest/todomvc}.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
. "$repo/scripts/lib.sh"
pairs=5 workers=2 only="backbone,knockoutjs,ractive" suite=suite
while [ $# -gt 0 ]; do
  case "$1" in
    -n) pairs="$2"; shift 2 ;;
    -j) workers="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --floor) suite=floor; shift ;;
    --) shift; break ;;
    *) echo "usage: $0 [-n PAIRS] [-j N] [--only a,b,c] [--floor] [-- ADTEST_FLAGS...]" >&2; exit 2 ;;
  esac
done
shell="${TODOMVC_CHROMIUM:-/usr/lib/chromium/chromium-headless-shell}"
[ -x "$shell" ] || { echo "bench-compare: no headless shell at $shell (apt-get install chromium-headless-shell, or set TODOMVC_CHROMIUM)" >&2; exit 1; }
export TODOMVC_CHROMIUM="$shell"
out="${TODOMVC_OUT:-$repo/.adtest/todomvc}"
export TODOMVC_OUT="$out"
bash "$repo/scripts/todomvc-playwright.sh" -j "$workers" --only "$only" prepare >/dev/null
# Where the pinned Playwright Test is (installed by prepare): asked of the
# script that installs it, never worked out again here.
pw_dir="$(bash "$repo/scripts/install-playwright.sh")"
pw_version="$(basename "$pw_dir")"
[ -x "$pw_dir/node_modules/.bin/playwright" ] && [ -f "$pw_dir/run/todomvc.spec.js" ] ||
  { echo "bench-compare: Playwright Test is not prepared in $pw_dir (scripts/todomvc-playwright.sh prepare)" >&2; exit 1; }
root="$("$out/bin/todomvc" root)"
if [ "$suite" = floor ]; then
  rm -rf "$out/floor"
  "$out/bin/todomvc" suite -out "$out/floor" -only "$only" -floor
fi

# timed LABEL CMD...: runs CMD, prints "wall cpu" in seconds.
timed() {
  local t0 t1 r
  TIMEFORMAT='%U %S'
  t0="$(date +%s.%N)"
  r="$( { time "$@" >"$out/last-$1.log" 2>&1 || true; } 2>&1 )" # a failed run is timed too
  t1="$(date +%s.%N)"
  awk -v a="$t0" -v b="$t1" -v r="$r" 'BEGIN { split(r, c, " "); printf "%.2f %.2f\n", b - a, c[1] + c[2] }'
}

adtest_run() {
  (cd "$out" && bin/adtest run -j "$workers" --browser "$shell" --serve "$root" "$@" --reporter json=adtest.json "$suite")
}

playwright_run() {
  "$out/bin/todomvc" serve >"$out/serve.url" &
  local srv=$! url=""
  # A server that does not start fails the Playwright side, which is shown.
  url="$(wait_url bench-compare "$srv" "$out/serve.url")" || true
  (cd "$pw_dir/run" && TODOMVC_BASE_URL="$url" TODOMVC_FRAMEWORKS="$out/suite/frameworks.json" \
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 PLAYWRIGHT_JSON_OUTPUT_NAME="$out/playwright.json" \
    ../node_modules/.bin/playwright test --workers "$workers") || true
  kill "$srv" 2>/dev/null || true
  wait "$srv" 2>/dev/null || true
}

# Whether the run's JSON result says every test passed (its stats).
adtest_green() {
  local s; s="$(grep -A8 '"stats"' "$out/adtest.json" 2>/dev/null)" || return 1
  grep -q '"failed": 0' <<<"$s" && grep -q '"timedOut": 0' <<<"$s" && grep -q '"flaky": 0' <<<"$s"
}
playwright_green() {
  local s; s="$(grep -A8 '"stats"' "$out/playwright.json" 2>/dev/null)" || return 1
  grep -q '"unexpected": 0' <<<"$s" && grep -q '"flaky": 0' <<<"$s"
}

echo "adtest run -j $workers ${*:-} ($suite) vs Playwright Test $pw_version --workers $workers, both on $shell, apps $only"
echo "pair  adtest wall/cpu s   playwright wall/cpu s   ratio wall  ratio cpu"
rows=()
for i in $(seq "$pairs"); do
  read -r aw ac < <(timed adtest_run "$@")
  ag=ok; adtest_green || ag=FAILED
  read -r pw pc < <(timed playwright_run)
  pg=ok; playwright_green || pg=FAILED
  rw="$(awk -v a="$aw" -v b="$pw" 'BEGIN { printf "%.3f", a / b }')"
  rc="$(awk -v a="$ac" -v b="$pc" 'BEGIN { printf "%.3f", a / b }')"
  printf "%4d  %7s / %-7s %s  %7s / %-7s %s  %9s  %9s\n" "$i" "$aw" "$ac" "$ag" "$pw" "$pc" "$pg" "$rw" "$rc"
  [ "$ag" = ok ] && [ "$pg" = ok ] && rows+=("$aw $ac $pw $pc $rw $rc")
  # A side that failed says why (the end of its output), the first time.
  for side in "adtest_run $ag" "playwright_run $pg"; do
    read -r name st <<<"$side"
    if [ "$st" = FAILED ] && [[ " ${told:-} " != *" $name "* ]]; then
      echo "  $name failed; the end of its output ($out/last-$name.log):" >&2
      tail -n 15 "$out/last-$name.log" | sed 's/^/    /' >&2
      told="${told:-} $name"
    fi
  done
done
[ ${#rows[@]} -gt 0 ] || { echo "bench-compare: no pair where both sides passed" >&2; exit 1; }
printf '%s\n' "${rows[@]}" | awk '
  function med(col,   i, n, v, j, t) {
    n = 0
    for (i = 1; i <= NR; i++) v[++n] = x[i, col]
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
  }
  { for (c = 1; c <= 6; c++) x[NR, c] = $c }
  END {
    printf "median of %d green pairs: adtest %.2f s (cpu %.2f s), playwright %.2f s (cpu %.2f s), ratio adtest/playwright wall %.3f, cpu %.3f\n",
      NR, med(1), med(2), med(3), med(4), med(5), med(6)
  }'
echo
echo "adtest's step time, its last run:"
"$out/bin/todomvc" timing -adtest "$out/adtest.json"
