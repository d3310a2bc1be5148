#!/usr/bin/env bash
# Installs @playwright/test at the pinned version into the per-user cache
# (never into the repository), every tarball fetched with npm pack and
# checked against its pinned sha256; Playwright's own browser download is
# skipped (the comparisons run it on Debian's Chromium). Prints the install
# directory: its node_modules/.bin/playwright runs the specs copied into
# its run/ directory. Idempotent: nothing to do once installed.
# Used by scripts/todomvc-playwright.sh and scripts/components-playwright.sh.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

pw_version=1.65.1
pw_sha256=(
  "playwright-core-$pw_version.tgz 6f5a60be62a4fddfbe7d10c448d8fbd54547da3358f2f8a04211440471ee863e"
  "playwright-$pw_version.tgz e2ebec5abb40f511c7a4442e83042fd8a4e654c3367e120b76e94a61a8f91e01"
  "playwright-test-$pw_version.tgz 025a0b1ab36fd4e5f4ede6c9397020b9c3805d8f19c75a16989a02d70a88f37b"
)
pw_dir="$(adtest_cache)/playwright-test/$pw_version"

if [ ! -f "$pw_dir/installed" ]; then
  command -v npm >/dev/null 2>&1 || { echo "install-playwright: npm is needed (apt-get install npm)" >&2; exit 1; }
  echo "install-playwright: installing @playwright/test@$pw_version into $pw_dir" >&2
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack --silent "playwright-core@$pw_version" "playwright@$pw_version" "@playwright/test@$pw_version" >/dev/null)
  for line in "${pw_sha256[@]}"; do
    f="${line% *}"; sum="${line#* }"
    if ! echo "$sum  $tmp/$f" | sha256sum -c --status; then
      echo "install-playwright: $f has sha256 $(sha256sum <"$tmp/$f" | cut -d' ' -f1), want $sum" >&2
      exit 1
    fi
  done
  rm -rf "$pw_dir"; mkdir -p "$pw_dir/tarballs" "$pw_dir/run"
  mv "$tmp"/*.tgz "$pw_dir/tarballs/"
  echo '{"private":true}' >"$pw_dir/package.json"
  (cd "$pw_dir" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --silent --offline --no-audit --no-fund \
    "./tarballs/playwright-core-$pw_version.tgz" "./tarballs/playwright-$pw_version.tgz" \
    "./tarballs/playwright-test-$pw_version.tgz" >/dev/null)
  touch "$pw_dir/installed"
fi
echo "$pw_dir"
