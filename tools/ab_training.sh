#!/usr/bin/env bash
# The training A/B of docs/experiments.md, in one command: two configs trained at once on this
# machine for their run.max_minutes, then their best nets matched head to head, 400 visits each,
# 200 games from balanced-4ply (both colours per opening) in two halves at once, and the sum with
# its Elo and 95 % interval. A stopped A/B resumes: runs already there carry on, matches already
# played are read again.
#
#   tools/ab_training.sh A.yaml B.yaml OUT_DIR
#
# Runs from the repository root (the configs' relative paths are read from there). The binary is
# copied into OUT_DIR first, so a rebuild meanwhile changes neither arm. ATAXX_ZERO names another.
# AB_PLAY sets both players' options (`visits=400` by default; e.g. `time=100,visits=100000000` for
# equal time, where a net's size is what is measured), AB_GAMES the games (200 by default; a multiple
# of 4: each half plays its openings with both colours).
set -euo pipefail
play=${AB_PLAY:-visits=400}
games=${AB_GAMES:-200}

if [[ $# -ne 3 ]]; then
  echo "usage: $0 A.yaml B.yaml OUT_DIR" >&2
  exit 2
fi
for config in "$1" "$2"; do
  [[ -f $config ]] || { echo "$0: no such config: $config" >&2; exit 2; }
done
[[ $games =~ ^[0-9]+$ && $((games % 4)) -eq 0 && $games -gt 0 ]] ||
  { echo "$0: AB_GAMES must be a positive multiple of 4, not '$games'" >&2; exit 2; }
config_a=$(realpath "$1") config_b=$(realpath "$2") out=$(realpath -m "$3")
binary=$(realpath -m "${ATAXX_ZERO:-$(dirname "$0")/../build/tools/ataxx-zero}")
cd "$(dirname "$0")/.."
mkdir -p "$out"
[[ -x $out/ataxx-zero ]] || cp "$binary" "$out/ataxx-zero"
bin=$out/ataxx-zero

train() {  # ARM CONFIG: a fresh run from CONFIG, or the one in OUT_DIR/ARM resumed
  if [[ -f $out/$1/config.yaml ]]; then
    "$bin" train --run-dir "$out/$1"
  else
    "$bin" train --config "$2" --run-dir "$out/$1"
  fi >> "$out/$1.out" 2>&1 || { echo "$0: the run $out/$1 failed: see $out/$1.out" >&2; return 1; }
}
both() {  # PID PID: waits for both, fails if either failed
  local failed=0
  wait "$1" || failed=1
  wait "$2" || failed=1
  return $failed
}
train a "$config_a" & run_a=$!
train b "$config_b" & run_b=$!
both $run_a $run_b || exit 1

best() { echo "$out/$1/models/$(cat "$out/$1/models/best").net"; }
half() {  # OPENING_START: one half of the match, unless a finished one is there
  local log=$out/match-$1.out
  if grep -q '^Elo difference' "$log" 2>/dev/null; then
    grep -Eq "^Score of .*\] $((games / 2))\$" "$log" && return
    echo "$0: $log is a finished half of another number of games than AB_GAMES=$games asks" >&2
    return 1
  fi
  "$bin" match --p1 "nn:model=$(best a),$play" --p2 "nn:model=$(best b),$play" --games $((games / 2)) \
    --opening-start "$1" --openings configs/openings/balanced-4ply.txt --concurrency 1 --quiet > "$log" 2>&1 ||
    { echo "$0: the match from opening $1 failed: see $log" >&2; return 1; }
}
second_start=$((games / 4 + 1))  # the first opening the first half did not play
half 1 & half_1=$!
half $second_start & half_2=$!
both $half_1 $half_2 || exit 1

arm_summary() {  # ARM CONFIG, from the run's last metrics row: generation, step, games, ...
  local steps games
  IFS=, read -r _ steps games _ < <(tail -n 1 "$out/$1/metrics.csv")
  echo "${1^^}: $2: $games games, $steps steps, best $(best "$1")"
}
arm_summary a "$config_a"
arm_summary b "$config_b"
# The halves' last "Score of ...: W - L - D" lines, summed; Elo from the score and its normal interval.
for start in 1 $second_start; do grep '^Score of' "$out/match-$start.out" | tail -n 1; done |
  sed -E 's/.*: ([0-9]+) - ([0-9]+) - ([0-9]+).*/\1 \2 \3/' |
  awk '{ w += $1; l += $2; d += $3; halves = halves sep $1 "-" $2 ($3 ? "-" $3 : ""); sep = " and " }
       function elo(p) { return p <= 0 ? "-inf" : p >= 1 ? "+inf" : sprintf("%+.0f", -400 * log(1 / p - 1) / log(10)) }
       END {
         n = w + l + d; p = (w + d / 2) / n
         var = (w * (1 - p) ^ 2 + l * p ^ 2 + d * (0.5 - p) ^ 2) / n
         se = sqrt(var / n)
         printf "A vs B: %s, %d-%d-%d (%.1f-%.1f of %d), Elo %s (%s to %s at 95 %%)\n", halves,
                w, l, d, w + d / 2, l + d / 2, n, elo(p), elo(p - 1.96 * se), elo(p + 1.96 * se)
       }'
