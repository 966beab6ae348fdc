#!/usr/bin/env bash
# The training A/B of docs/experiments.md, in one command: two configs trained at once on this
# machine for their run.max_minutes, then their best nets matched head to head, 400 visits each,
# 200 games from balanced-4ply (both colours per opening) in two halves at once, and the sum with
# its Elo and 95 % interval. Each arm trains on its own half of the machine's processors (taskset),
# so that one arm's idle time cannot go to the other. A stopped A/B resumes: runs already there
# carry on, matches already played are read again.
#
#   tools/ab_training.sh A.yaml B.yaml OUT_DIR
#
# Runs from the repository root (the configs' relative paths are read from there). The binary is
# copied into OUT_DIR first, so a rebuild meanwhile changes neither arm. ATAXX_ZERO names another.
# AB_PLAY sets both players' options (`visits=400` by default; e.g. `time=100,visits=100000000` for
# equal time, where a net's size is what is measured), AB_GAMES the games (200 by default; a multiple
# of 4: each half plays its openings with both colours), AB_MATCH the match's game and openings
# (`--openings configs/openings/balanced-4ply.txt` by default; `--variant schataxx` for Schataxx
# runs, which then play from the variant's suite).
# AB_SEEDS (e.g. "1 2") makes replicates: both arms trained and matched once per seed (`train
# --seed`), AB_GAMES games each, then the sum of all. Two runs of one config at two seeds can end
# 200 Elo apart after 30 CPU minutes (docs/experiments.md): the interval printed is the matches'
# alone, and only replicates show how much of a difference the runs' own spread makes.
set -euo pipefail
play=${AB_PLAY:-visits=400}
games=${AB_GAMES:-200}
read -ra match_game <<< "${AB_MATCH:---openings configs/openings/balanced-4ply.txt}"
read -ra seeds <<< "${AB_SEEDS:-}"

if [[ $# -ne 3 ]]; then
  echo "usage: $0 A.yaml B.yaml OUT_DIR" >&2
  exit 2
fi
for config in "$1" "$2"; do
  [[ -f $config ]] || { echo "$0: no such config: $config" >&2; exit 2; }
done
[[ $games =~ ^[0-9]+$ && $((games % 4)) -eq 0 && $games -gt 0 ]] ||
  { echo "$0: AB_GAMES must be a positive multiple of 4, not '$games'" >&2; exit 2; }
for seed in "${seeds[@]}"; do
  [[ $seed =~ ^[0-9]+$ ]] || { echo "$0: AB_SEEDS must be seeds (numbers), not '$seed'" >&2; exit 2; }
done
[[ ${#seeds[@]} -eq 0 || $(printf '%s\n' "${seeds[@]}" | sort -u | wc -l) -eq ${#seeds[@]} ]] ||
  { echo "$0: AB_SEEDS names a seed twice: '${AB_SEEDS}'" >&2; exit 2; }
config_a=$(realpath "$1") config_b=$(realpath "$2") out=$(realpath -m "$3")
binary=$(realpath -m "${ATAXX_ZERO:-$(dirname "$0")/../build/tools/ataxx-zero}")
cd "$(dirname "$0")/.."
mkdir -p "$out"
[[ -x $out/ataxx-zero ]] || cp "$binary" "$out/ataxx-zero"
bin=$out/ataxx-zero

# A replicate: "" (the configs' own seeds; runs a and b, logs match-N.out) or a seed S (runs a-sS
# and b-sS, logs match-sS-N.out).
run() { echo "$1${2:+-s$2}"; }  # ARM SEED: the run's folder in OUT_DIR
match_log() { echo "$out/match-${1:+s$1-}$2.out"; }  # SEED OPENING_START
best() { echo "$out/$1/models/$(cat "$out/$1/models/best").net"; }

# The processors this script may use, and those of arm a (the first half) and arm b (the second; an
# odd one out is left idle): the one for both where there is one.
read -ra allowed < <(awk '/^Cpus_allowed_list/ {
    n = split($2, ranges, ",")
    for (i = 1; i <= n; i++) {
      split(ranges[i], ends, "-")
      for (cpu = ends[1]; cpu <= (ends[2] == "" ? ends[1] : ends[2]); cpu++) printf "%d ", cpu
    }
    print ""
  }' /proc/self/status)
cpus() {  # ARM
  local half=$((${#allowed[@]} / 2)) list
  if ((${#allowed[@]} < 2)); then list=("${allowed[@]}")
  elif [[ $1 == a ]]; then list=("${allowed[@]:0:half}")
  else list=("${allowed[@]:half:half}")
  fi
  (IFS=,; echo "${list[*]}")
}

train() {  # ARM RUN CONFIG SEED: a fresh run from CONFIG, or the one in OUT_DIR/RUN resumed
  local from=(--config "$3" ${4:+--seed "$4"})
  [[ -f $out/$2/config.yaml ]] && from=()
  taskset -c "$(cpus "$1")" "$bin" train "${from[@]}" --run-dir "$out/$2" >> "$out/$2.out" 2>&1 ||
    { echo "$0: the run $out/$2 failed: see $out/$2.out" >&2; return 1; }
}
both() {  # PID PID: waits for both, fails if either failed
  local failed=0
  wait "$1" || failed=1
  wait "$2" || failed=1
  return $failed
}
half() {  # SEED OPENING_START: one half of the replicate's match, unless a finished one is there
  local log
  log=$(match_log "$1" "$2")
  if grep -q '^Elo difference' "$log" 2>/dev/null; then
    grep -Eq "^Score of .*\] $((games / 2))\$" "$log" && return
    echo "$0: $log is a finished half of another number of games than AB_GAMES=$games asks" >&2
    return 1
  fi
  "$bin" match --p1 "nn:model=$(best "$(run a "$1")"),$play" --p2 "nn:model=$(best "$(run b "$1")"),$play" \
    --games $((games / 2)) --opening-start "$2" "${match_game[@]}" --concurrency 1 \
    --quiet > "$log" 2>&1 || { echo "$0: the match from opening $2 failed: see $log" >&2; return 1; }
}
second_start=$((games / 4 + 1))  # the first opening the first half did not play
replicate() {  # SEED: both arms trained at once, then both halves of their match at once
  train a "$(run a "$1")" "$config_a" "$1" & run_a=$!
  train b "$(run b "$1")" "$config_b" "$1" & run_b=$!
  both $run_a $run_b || exit 1
  half "$1" 1 & half_1=$!
  half "$1" $second_start & half_2=$!
  both $half_1 $half_2 || exit 1
}

# ARM CONFIG SEED, from the run's last rows of metrics.csv (generation, step, games, ..., value
# loss) and selfplay.csv (..., its recent games' plies a game and share of draws: an arm whose games
# turned to draws, a collapsed run, shows here; runs from before those columns say nothing of them).
arm_summary() {
  local steps games value_loss plies draws lately="" folder
  folder=$(run "$1" "$3")
  IFS=, read -r _ steps games _ _ _ _ _ _ value_loss _ < <(tail -n 1 "$out/$folder/metrics.csv")
  IFS=, read -r _ _ _ _ plies draws _ < <(tail -n 1 "$out/$folder/selfplay.csv")
  [[ -n $draws ]] && lately=", $plies plies a game and $(awk -v s="$draws" 'BEGIN { printf "%.0f", 100 * s }') % draws lately"
  echo "${1^^}${3:+ (seed $3)}: $2: $games games, $steps steps, value loss $value_loss$lately, best $(best "$folder")"
}
# LABEL LOG...: the logs' last "Score of ...: W - L - D" lines, summed; Elo from the score and its
# normal interval.
score() {
  local label=$1
  shift
  for log in "$@"; do grep '^Score of' "$log" | tail -n 1; done |
    sed -E 's/.*: ([0-9]+) - ([0-9]+) - ([0-9]+).*/\1 \2 \3/' |
    awk -v label="$label" '
       { w += $1; l += $2; d += $3; parts = parts sep $1 "-" $2 ($3 ? "-" $3 : ""); sep = " and " }
       function elo(p) { return p <= 0 ? "-inf" : p >= 1 ? "+inf" : sprintf("%+.0f", -400 * log(1 / p - 1) / log(10)) }
       END {
         n = w + l + d; p = (w + d / 2) / n
         var = (w * (1 - p) ^ 2 + l * p ^ 2 + d * (0.5 - p) ^ 2) / n
         se = sqrt(var / n)
         printf "%s: %s, %d-%d-%d (%.1f-%.1f of %d), Elo %s (%s to %s at 95 %%)\n", label, parts,
                w, l, d, w + d / 2, l + d / 2, n, elo(p), elo(p - 1.96 * se), elo(p + 1.96 * se)
       }'
}

if [[ ${#seeds[@]} -eq 0 ]]; then
  replicate ""
  arm_summary a "$config_a" ""
  arm_summary b "$config_b" ""
  score "A vs B" "$(match_log "" 1)" "$(match_log "" $second_start)"
  exit 0
fi
logs=()
for seed in "${seeds[@]}"; do
  replicate "$seed"
  logs+=("$(match_log "$seed" 1)" "$(match_log "$seed" $second_start)")
done
for seed in "${seeds[@]}"; do
  arm_summary a "$config_a" "$seed"
  arm_summary b "$config_b" "$seed"
  score "A vs B (seed $seed)" "$(match_log "$seed" 1)" "$(match_log "$seed" $second_start)"
done
score "A vs B" "${logs[@]}"
