#!/usr/bin/env bash
# The ratings of the levels (`nn:...,skill=S`, UAI's UCI_Elo, the browser view's levels), as rating
# lists rate engines: against fixed references.
#
#  1. The references, on the scale where random is 0 Elo: random, greedy with a share of random
#     moves (0.9, 0.75, 0.5, 0.25), greedy, alpha-beta at depths 2 to 5 and the net at fixed visits
#     without a level (1, then 4 to 2,048 doubling), each against the next two by their expected
#     strength, fitted jointly (OUT/references.txt).
#  2. Each level of 0, 10, ..., 100 (and 45, 55, 65, where tens are far apart), held against
#     those references at their ratings: 200 games against the reference nearest to where it is
#     expected, then against the nearest one on a side of its rating without one, then the next
#     nearest, until it has a reference on each side and its 95 % interval is within +/- 50 (at
#     most four matches), fitted with the references held (OUT/levels.txt).
#
# Every match: 200 games from configs/openings/balanced-4ply.txt, both colours per opening (100
# against the second reference after a player's next). A stopped calibration resumes: the matches
# already played are kept.
#
#   tools/calibrate_levels.sh OUT_DIR [NET]
#
# NET defaults to built-in:ataxx-7x7.net; it is both the levels' and the strong references' net.
# CALIBRATE_GAMES sets the games of a match (200; a multiple of 4: fewer for a rough try),
# CALIBRATE_CONCURRENCY the games played at once (1). ATAXX_ENGINE names the program
# (ataxx-engine from the build folder by default); it is copied into OUT_DIR at the start, so that
# a rebuild meanwhile changes no match.
set -euo pipefail
out=${1:?usage: $0 OUT_DIR [NET]}
net=${2:-built-in:ataxx-7x7.net}
games=${CALIBRATE_GAMES:-200}
concurrency=${CALIBRATE_CONCURRENCY:-1}
[[ $games =~ ^[0-9]+$ && $((games % 4)) -eq 0 && $games -gt 0 ]] ||
  { echo "$0: CALIBRATE_GAMES must be a positive multiple of 4, not '$games'" >&2; exit 2; }
engine=${ATAXX_ENGINE:-./build/tools/ataxx-engine}
openings=configs/openings/balanced-4ply.txt
[[ -x $engine ]] || { echo "$0: no program at $engine (build it, or set ATAXX_ENGINE)" >&2; exit 2; }
mkdir -p "$out/references" "$out/levels"
[[ -x $out/ataxx-engine ]] || cp "$engine" "$out/ataxx-engine"
engine=$out/ataxx-engine

nn() { echo "nn:model=$net,visits=$1"; }
level() { echo "nn:model=$net,skill=$1"; }
# In the order of their expected strength.
references=(random greedy:random=0.9 greedy:random=0.75 greedy:random=0.5 greedy:random=0.25 greedy alphabeta:depth=2
  alphabeta:depth=3 alphabeta:depth=4 "$(nn 1)" alphabeta:depth=5 "$(nn 4)" "$(nn 8)" "$(nn 16)" "$(nn 32)" "$(nn 64)"
  "$(nn 128)" "$(nn 256)" "$(nn 512)" "$(nn 1024)" "$(nn 2048)")

# match P1 P2 GAMES DIR: plays it once, into DIR/P1-vs-P2.pgn.
match() {
  local pgn
  pgn=$4/$(printf '%s' "$1-vs-$2" | tr -c 'a-zA-Z0-9=.-' '_').pgn
  [[ -s $pgn.done ]] && return
  rm -f "$pgn"
  "$engine" match --p1 "$1" --p2 "$2" --games "$3" --concurrency "$concurrency" --openings "$openings" \
    --pgn "$pgn" --quiet | grep '^Score' | tail -1 | tee "$pgn.done"
}
# finished DIR...: the PGNs of the matches played to their end in those folders (a stopped one's
# games are left out until it is played again).
finished() {
  local dir done
  for dir in "$@"; do
    for done in "${dir%/}"/*.pgn.done; do
      [[ -s $done ]] && printf '%s\0' "${done%.done}"
    done
  done
}
# elo_of NAME RATINGS_FILE, error_of NAME RATINGS_FILE: from `ratings`' table, whose rows are the
# rank, the name (blanks and all: a NET path may hold them), then Elo, +/-, games and score.
rating_column() {
  awk -v n="$1" -v from_end="$3" '{
    name = $0
    sub(/^ *[0-9-]+  /, "", name)
    sub(/ +[-+0-9]+ +[-0-9]+ +[0-9]+ +[0-9.]+%$/, "", name)
    if (name == n) print $(NF - from_end) + 0
  }' "$2"
}
elo_of() { rating_column "$1" "$2" 3; }
error_of() { rating_column "$1" "$2" 2; }

for ((i = 0; i + 1 < ${#references[@]}; ++i)); do
  match "${references[i]}" "${references[i + 1]}" "$games" "$out/references"
  ((i + 2 < ${#references[@]})) && match "${references[i]}" "${references[i + 2]}" $((games / 2)) "$out/references"
done
mapfile -d '' pgns < <(finished "$out/references")
"$engine" ratings "${pgns[@]}" --anchor random >"$out/references.txt"
cat "$out/references.txt"
# held REF|REF|...: the ratings options that hold those references at their ratings.
held() {
  local r
  local -a names
  IFS='|' read -ra names <<<"$1"
  for r in "${names[@]}"; do printf '%s\0' --fixed "$r=$(elo_of "$r" "$out/references.txt")"; done
}
# rate DIR USED OUT_FILE: a level's rating against the references of USED.
rate() {
  local -a options pgns
  mapfile -d '' options < <(held "$2")
  mapfile -d '' pgns < <(finished "$1")
  "$engine" ratings "${pgns[@]}" "${options[@]}" >"$3"
}

# nearest_reference ELO SIDE USED: the reference nearest to ELO (SIDE: above, below or any) not in USED.
nearest_reference() {
  local best="" best_distance=1000000 r elo distance
  for r in "${references[@]}"; do
    [[ "|$3|" == *"|$r|"* ]] && continue
    elo=$(elo_of "$r" "$out/references.txt")
    [[ $2 == above ]] && awk -v a="$elo" -v b="$1" 'BEGIN { exit !(a <= b) }' && continue
    [[ $2 == below ]] && awk -v a="$elo" -v b="$1" 'BEGIN { exit !(a > b) }' && continue
    distance=$(awk -v a="$elo" -v b="$1" 'BEGIN { d = a - b; print (d < 0 ? -d : d) }')
    if awk -v d="$distance" -v b="$best_distance" 'BEGIN { exit !(d < b) }'; then best=$r best_distance=$distance; fi
  done
  echo "$best"
}

# played DIR: the references a level has met in its matches so far, |-separated.
played() {
  local f
  for f in "$1"/*.done; do
    [[ -e $f ]] || continue
    sed -E 's/^Score of .* vs (.*): [0-9]+ - [0-9]+ - [0-9]+ .*/\1/' "$f"
  done | paste -sd'|'
}
# sides ELO USED: "below", "above", "both" or "none": where the references of USED stand.
sides() {
  local below=0 above=0 r
  local -a names
  IFS='|' read -ra names <<<"$2"
  for r in "${names[@]}"; do
    if awk -v a="$(elo_of "$r" "$out/references.txt")" -v b="$1" 'BEGIN { exit !(a > b) }'; then above=1; else below=1; fi
  done
  case $below$above in 11) echo both ;; 10) echo below ;; 01) echo above ;; *) echo none ;; esac
}

expected=0
all_used=""
for skill in 0 10 20 30 40 45 50 55 60 65 70 80 90 100; do
  player=$(level "$skill")
  dir=$out/levels/skill-$skill
  mkdir -p "$dir"
  used=$(played "$dir")
  elo=$expected error=1000
  # A reference on each side of the level, and its interval within 50: at most four matches.
  for _ in 1 2 3 4 5; do
    if [[ -n $used ]]; then
      rate "$dir" "$used" "$dir/ratings.txt"
      elo=$(elo_of "$player" "$dir/ratings.txt")
      error=$(error_of "$player" "$dir/ratings.txt")
    fi
    stand=$(sides "$elo" "$used")
    [[ $stand == both && $error -le 50 ]] && break
    [[ $used == *"|"*"|"*"|"* ]] && break
    case $stand in below) side=above ;; above) side=below ;; *) side=any ;; esac
    next=$(nearest_reference "$elo" "$side" "$used")
    [[ -z $next ]] && next=$(nearest_reference "$elo" any "$used")
    [[ -z $next ]] && break
    match "$player" "$next" "$games" "$dir"
    used+="${used:+|}$next"
  done
  cat "$dir/ratings.txt"
  expected=$((elo + 200))
  all_used+="${all_used:+|}$used"
done
mapfile -d '' options < <(held "$all_used")
mapfile -d '' pgns < <(finished "$out"/levels/*/)
"$engine" ratings "${pgns[@]}" "${options[@]}" | tee "$out/levels.txt"
