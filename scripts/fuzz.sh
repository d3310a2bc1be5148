#!/usr/bin/env bash
# Runs every Fuzz target of the module for FUZZTIME (default 20s) each,
# one after another, prints each target's final exec count, and fails a
# target that stalled.
#
# A target fails the run when go test -fuzz fails, except for one known false
# failure: Go 1.26's fuzz coordinator can report "context deadline exceeded"
# when the -fuzztime deadline races a worker's in-flight call (golang/go#75804,
# fixed in Go 1.27). That case writes no reproducer; a real crash always writes
# one under testdata/fuzz/<Target>/. So: nonzero exit + the deadline message +
# no new reproducer = reported as that race and not counted as a failure.
#
# Minimizing: when a worker finds an input that widens coverage, the
# coordinator sends it back to a worker to be minimized, and that worker
# reports its executions only when the minimization ends: -fuzzminimizetime,
# 60s by default. Two such inputs take both workers of a 2-core machine, and
# the progress lines then say "execs: N (0/sec)" to the end of a 20s budget
# (goroutine dumps of the stalled workers: one in minimizeInput, one idle or
# in mutate). FUZZMINIMIZETIME (default 2s) bounds it well under a third of
# the budget.
#
# A worker minimizing an input it found executes nothing else meanwhile: a
# last third with few execs but new inputs reported is minimization, not a
# stall (a gate run's FuzzParse: 9 s without execs while its new inputs went
# from 14 to 18). A hung input stops both counts.
#
# Stall check: from the progress lines ("fuzz: elapsed: Ns, execs: N
# (X/sec)") the exec count is interpolated at a third and two thirds of the
# fuzzing time (after the seed corpus or baseline coverage run). A target
# fails when its last third executed nothing, or ten times fewer inputs than
# its first: a loaded machine halves or thirds a rate, a stall drops it to
# zero. A slow start is not a stall: with the CPU saturated (load 60 on 2
# cores, CPU pressure 99%) the parser targets ran 0 inputs in their first
# two thirds and 2000 in the last, while the cheap scanner targets ran
# 20-40k a third. A fuzzing phase shorter than 6s (two progress lines) is too short to
# judge and says so.
set -uo pipefail
fuzztime=${FUZZTIME:-20s}
minimizetime=${FUZZMINIMIZETIME:-2s}
go=${GO:-go}
failed=0

# budget: FUZZTIME in seconds, 0 when it is a count (100x). Progress lines
# past it are the coordinator waiting for its workers to stop, not fuzzing:
# on a loaded machine that wait alone can log 0/sec for 20s.
budget=0
case $fuzztime in
  *[0-9]s) budget=${fuzztime%s} ;;
  *[0-9]m) budget=$(( ${fuzztime%m} * 60 )) ;;
esac

# stallcheck TARGET LOGFILE: prints the final exec count and the per-third
# counts; exits 1 on a stall.
stallcheck() {
  awk -v target="$1" -v budget="$budget" '
    /^fuzz: elapsed: [0-9]+s, .*completed, now fuzzing/ {
      match($0, /elapsed: [0-9]+s/); t0 = substr($0, RSTART + 9, RLENGTH - 10) + 0
      match($0, /: [0-9]+\/[0-9]+ completed/); s = substr($0, RSTART + 2, RLENGTH - 12)
      split(s, f, "/"); n0 = f[1] + 0; started = 1; k = 0
      t[k] = t0; n[k] = n0; ni[k] = 0; k++
      next
    }
    started && /^fuzz: elapsed: [0-9]+s, execs: [0-9]+ / {
      match($0, /elapsed: [0-9]+s/); tt = substr($0, RSTART + 9, RLENGTH - 10) + 0
      match($0, /execs: [0-9]+/); nn = substr($0, RSTART + 7, RLENGTH - 7) + 0
      ii = 0
      if (match($0, /new interesting: [0-9]+/)) ii = substr($0, RSTART + 17, RLENGTH - 17) + 0
      if (budget > 0 && tt > budget) next
      t[k] = tt; n[k] = nn; ni[k] = ii; k++
    }
    # found(x): the new interesting inputs reported by elapsed x.
    function found(x,   i, v) {
      v = 0
      for (i = 0; i < k && t[i] <= x; i++) v = ni[i]
      return v
    }
    # at(x): the exec count at elapsed x, linear between progress lines.
    function at(x,   i) {
      for (i = 1; i < k; i++)
        if (t[i] >= x) {
          if (t[i] == t[i-1]) return n[i]
          return n[i-1] + (n[i] - n[i-1]) * (x - t[i-1]) / (t[i] - t[i-1])
        }
      return n[k-1]
    }
    END {
      if (!started || k < 2) { printf "fuzz %s: no progress lines: cannot check for a stall\n", target; exit 1 }
      span = t[k-1] - t[0]
      a = at(t[0] + span / 3); b = at(t[0] + 2 * span / 3)
      first = a - n[0]; mid = b - a; last = n[k-1] - b
      printf "fuzz %s: %d execs in %ds of fuzzing; by thirds %d, %d, %d\n", target, n[k-1], span, first, mid, last
      if (span < 6) { printf "fuzz %s: %ds of fuzzing is too short to judge a stall (raise FUZZTIME)\n", target, span; exit 0 }
      if (last < 1 || last * 10 < first) {
        # Workers that minimize the inputs they found report no execs
        # meanwhile; new inputs reported in the last third mean they worked.
        more = ni[k-1] - found(t[0] + 2 * span / 3)
        if (more > 0) {
          printf "fuzz %s: the last third ran %d inputs (the first %d) while %d new inputs were found and minimized: not a stall\n", target, last, first, more
          exit 0
        }
        printf "fuzz %s: STALLED: the last third of the fuzzing time ran %d inputs, the first %d, and found nothing new\n", target, last, first
        exit 1
      }
    }' "$2"
}

# targets: "PKG<tab>DIR<tab>TARGET" for every func FuzzX(f *testing.F) in the test
# files go list names for a package (its build constraints applied), found
# without building a test binary per package to ask it (that listing alone
# took 25-45 s of the gate).
targets() {
  $go list -f '{{.ImportPath}}{{"\t"}}{{.Dir}}{{"\t"}}{{join .TestGoFiles " "}} {{join .XTestGoFiles " "}}' ./... |
    while IFS=$'\t' read -r pkg dir files; do
      files=${files% }
      [ -n "$files" ] || continue
      (cd "$dir" && grep -hoE '^func Fuzz[A-Za-z0-9_]*\([A-Za-z_]+ \*testing\.F\)' $files) |
        sed -E 's/^func (Fuzz[A-Za-z0-9_]*).*/\1/' |
        while read -r target; do printf '%s\t%s\t%s\n' "$pkg" "$dir" "$target"; done
    done
}

# Targets run one after another, each with every core as a fuzz worker.
# Side by side with one worker each (tried) they stall: a worker that
# minimizes an input it found executes nothing meanwhile (up to
# -fuzzminimizetime), and with a fresh cache a target finds one every few
# seconds, so a lone worker's exec count stood still for 9 s of a 20 s
# budget under a busy core, and the stall check failed it. With two
# workers one fuzzes while the other minimizes.
mapfile -t list < <(targets)
if [ "${#list[@]}" -eq 0 ]; then
  echo "fuzz: no Fuzz targets found" >&2
  exit 1
fi
for line in "${list[@]}"; do
  IFS=$'\t' read -r pkg dir target <<<"$line"
  echo "fuzz $pkg $target ($fuzztime)"
  corpus="$dir/testdata/fuzz/$target"
  before=$(ls "$corpus" 2>/dev/null | sort)
  out=$(mktemp)
  $go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" -fuzzminimizetime "$minimizetime" "$pkg" 2>&1 | tee "$out"
  rc=${PIPESTATUS[0]}
  after=$(ls "$corpus" 2>/dev/null | sort)
  if [ "$rc" -ne 0 ]; then
    if [ "$before" = "$after" ] && grep -q '^    context deadline exceeded$' "$out"; then
      echo "fuzz $target: go's -fuzztime deadline race (golang/go#75804), no reproducer written: not a failure"
    else
      echo "fuzz $target: FAILED (see the reproducer under $corpus)"
      failed=1
    fi
  fi
  if ! stallcheck "$target" "$out"; then
    failed=1
  fi
  rm -f "$out"
done
echo "fuzz: ${#list[@]} targets, $fuzztime each"
exit $failed
