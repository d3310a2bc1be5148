# Shell helpers of the set-up and comparison scripts, sourced by each
# (`. "$(dirname "$0")/lib.sh"`): it only defines functions. WHO, the first
# argument of most, is the script's name for its messages.

# adtest_cache prints the per-user cache the test subjects go into (the rule
# of internal/userdir: $ADTEST_CACHE_DIR, else $XDG_CACHE_HOME/adtest, else
# ~/.cache/adtest).
adtest_cache() { echo "${ADTEST_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/adtest}"; }

# pin FILE NAME prints the value of the Go string constant NAME = "..." in
# FILE (the versions and sha256s are pinned in Go, beside their users).
pin() { sed -n "s/^[[:space:]]*$2[[:space:]]*= \"\(.*\)\"$/\1/p" "$1"; }

# ensure_npm WHO WHAT installs npm with apt-get when it is missing, saying
# what it is needed for.
ensure_npm() {
  command -v npm >/dev/null 2>&1 && return 0
  echo "$1: installing npm (to fetch $2)" >&2
  local sudo=""; if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq npm >/dev/null
}

# fetched SHA DIR succeeds when DIR holds the extracted tarball whose sha256
# is SHA (its stamp, extracted.sha256, says so).
fetched() { [ -n "$1" ] && [ "$(cat "$2/extracted.sha256" 2>/dev/null)" = "$1" ]; }

# npm_fetch WHO NAME VERSION SHA DIR PINNED_IN [keep] fetches NAME@VERSION
# with npm pack, checks its sha256 against SHA (pinned in PINNED_IN), and
# extracts it into DIR (replaced), stamped with SHA; with keep the tarball
# stays in DIR too. A wrong sha256 ends the script.
npm_fetch() {
  local who="$1" name="$2" ver="$3" sha="$4" dir="$5" pinned="$6" keep="${7:-}"
  echo "$who: fetching $name@$ver into $dir" >&2
  local tmp tgz
  tmp="$(mktemp -d)"
  tgz="$(cd "$tmp" && npm pack --silent "$name@$ver" | tail -n 1)"
  if ! echo "$sha  $tmp/$tgz" | sha256sum -c --status; then
    echo "$who: $name@$ver has sha256 $(sha256sum <"$tmp/$tgz" | cut -d' ' -f1), want $sha (pinned in $pinned)" >&2
    rm -rf "$tmp"; exit 1
  fi
  rm -rf "$dir"; mkdir -p "$dir"
  tar -xzf "$tmp/$tgz" -C "$dir"
  if [ -n "$keep" ]; then mv "$tmp/$tgz" "$dir/"; fi
  rm -rf "$tmp"
  echo "$sha" >"$dir/extracted.sha256"
}

# wait_url WHO PID FILE prints the URL a server started in the background
# (PID) writes as the first line of FILE once it listens; it fails when the
# server exits first or prints nothing within 10 s.
wait_url() {
  local who="$1" pid="$2" file="$3" url=""
  for _ in $(seq 200); do
    url="$(head -n 1 "$file" 2>/dev/null || true)"
    [ -n "$url" ] && break
    kill -0 "$pid" 2>/dev/null || { echo "$who: the server did not start" >&2; return 1; }
    sleep 0.05
  done
  [ -n "$url" ] || { echo "$who: the server printed no URL" >&2; return 1; }
  echo "$url"
}
