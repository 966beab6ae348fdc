#!/usr/bin/env bash
# The ratings of the levels (`nn:...,skill=S`, UAI's UCI_Elo, the browser view's levels) on the
# scale where random is 0 Elo: the levels 0, 10, ..., 100 of a net and a chain of fixed references
# (random, greedy, alphabeta at depths 1 to 4) in matches between neighbours, from
# balanced-4ply with both colours per opening, every game fitted jointly (`ataxx-zero ratings`).
# A stopped calibration resumes: the matches already played are kept.
#
#   tools/calibrate_levels.sh OUT_DIR [NET]
#
# NET defaults to built-in:ataxx-7x7.net. CALIBRATE_GAMES sets the games of each match (100 by
# default, even), CALIBRATE_CONCURRENCY the games played at once (1). ATAXX_ENGINE names the
# program (ataxx-engine from the build folder by default); it is copied into OUT_DIR at the start,
# so that a rebuild meanwhile changes no match.
set -euo pipefail
out=${1:?usage: $0 OUT_DIR [NET]}
net=${2:-built-in:ataxx-7x7.net}
games=${CALIBRATE_GAMES:-100}
concurrency=${CALIBRATE_CONCURRENCY:-1}
engine=${ATAXX_ENGINE:-./build/tools/ataxx-engine}
[[ $games =~ ^[0-9]+$ && $((games % 2)) -eq 0 && $games -gt 0 ]] ||
  { echo "$0: CALIBRATE_GAMES must be a positive even number, not '$games'" >&2; exit 2; }
[[ -x $engine ]] || { echo "$0: no program at $engine (build it, or set ATAXX_ENGINE)" >&2; exit 2; }
mkdir -p "$out"
[[ -x $out/ataxx-engine ]] || cp "$engine" "$out/ataxx-engine"
engine=$out/ataxx-engine

level() { echo "nn:model=$net,skill=$1"; }
ab() { echo "alphabeta:depth=$1"; }
# Neighbours: each reference with the next, each level with the next, and each level with the
# references about as strong (a match won every game says little; the chains carry the scale).
pairs=(
  "random|greedy" "greedy|$(ab 1)" "$(ab 1)|$(ab 2)" "$(ab 2)|$(ab 3)" "$(ab 3)|$(ab 4)"
  "$(level 0)|random" "$(level 0)|greedy" "$(level 20)|greedy" "$(level 20)|$(ab 1)" "$(level 40)|$(ab 1)"
  "$(level 40)|$(ab 2)" "$(level 60)|$(ab 2)" "$(level 60)|$(ab 3)" "$(level 80)|$(ab 3)" "$(level 80)|$(ab 4)"
  "$(level 100)|$(ab 4)"
)
for skill in 0 10 20 30 40 50 60 70 80 90; do pairs+=("$(level "$skill")|$(level $((skill + 10)))"); done

for pair in "${pairs[@]}"; do
  p1=${pair%%|*} p2=${pair##*|}
  pgn=$out/$(echo "$p1-vs-$p2" | tr -c 'a-zA-Z0-9=.-' '_').pgn
  [[ -s $pgn.done ]] && continue
  rm -f "$pgn"
  "$engine" match --p1 "$p1" --p2 "$p2" --games "$games" --concurrency "$concurrency" \
    --openings configs/openings/balanced-4ply.txt --pgn "$pgn" --quiet | grep '^Score' | tail -1 | tee "$pgn.done"
done
"$engine" ratings "$out"/*.pgn --anchor random | tee "$out/ratings.txt"
