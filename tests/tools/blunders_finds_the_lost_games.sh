#!/usr/bin/env bash
# tools/blunders.py on a short match that greedy loses to a depth-3 alpha-beta: one line per game
# greedy lost, with its decisive move and the replay, and clear errors for bad input.
# Usage: blunders_finds_the_lost_games.sh BINARY SOURCE_DIR SCRATCH_DIR
set -euo pipefail
binary="$1" source_dir="$2" scratch="$3"
rm -rf "$scratch"
mkdir -p "$scratch"
fail() { echo "FAILED: $*" >&2; exit 1; }

"$binary" match --p1 greedy --p2 alphabeta:depth=3 --games 4 --pgn "$scratch/games.pgn" --quiet
# greedy is Black (x) in odd rounds: a game it lost is 0-1 there, 1-0 in even rounds.
greedy_lost="$(awk -F'"' '/^\[Black /{x=$2} /^\[Result /{if ((x=="greedy") == ($2=="0-1")) n++} END{print n+0}' "$scratch/games.pgn")"
[[ "$greedy_lost" -gt 0 ]] || fail "greedy lost none of 4 games to alphabeta:depth=3"

judge="$binary uai --player alphabeta"
python3 "$source_dir/tools/blunders.py" "$scratch/games.pgn" --player greedy --judge "$judge" --judge-depth 2 \
  --engine "$binary uai --player alphabeta" --engine-ms 20 | tee "$scratch/out.txt"
# Each lost game starts playable (judged near 0), so each has a decisive move.
[[ "$(grep -c '^game .*: ply .* lost .* | 20 ms: ' "$scratch/out.txt")" == "$greedy_lost" ]] ||
  fail "not one line for each of the $greedy_lost games greedy lost"
grep -qE "^[0-9]+ games; the decisive move lost [0-9]+ at the median; replayed at 20 ms, [0-9]+ avoided \(lost 50 or less\)$" "$scratch/out.txt" ||
  fail "no summary line"
[[ "$(grep -c '^game ' "$scratch/out.txt")" == "$(grep -oE '^[0-9]+ games' "$scratch/out.txt" | grep -oE '[0-9]+')" ]] ||
  fail "the summary counts other games than it printed"

expect_error() {  # expected message, then the arguments
  local message="$1"; shift
  if python3 "$source_dir/tools/blunders.py" "$@" > "$scratch/error.txt" 2>&1; then fail "accepted: $*"; fi
  grep -q "$message" "$scratch/error.txt" || fail "for $*: $(cat "$scratch/error.txt")"
}
expect_error 'no player named like "nobody"' "$scratch/games.pgn" --player nobody --judge "$judge"
expect_error 'both players of game 1 are named like "e"' "$scratch/games.pgn" --player e --judge "$judge"
expect_error 'cannot start "no-such-engine"' "$scratch/games.pgn" --player greedy --judge no-such-engine
expect_error '"true" does not answer as a UAI engine' "$scratch/games.pgn" --player greedy --judge true
expect_error 'No such file' "$scratch/none.pgn" --player greedy --judge "$judge"
echo "blunders: $(tail -1 "$scratch/out.txt")"
