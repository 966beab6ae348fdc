#!/usr/bin/env bash
# tools/result_lag.py on a short match that a depth-1 alpha-beta loses to a depth-3 one: one line
# per decided game with the ply each side's scores settled at, the lost positions searched again,
# the summary, and clear errors for bad input.
# Usage: result_lag_measures_each_game.sh BINARY SOURCE_DIR SCRATCH_DIR
set -euo pipefail
binary="$1" source_dir="$2" scratch="$3"
rm -rf "$scratch"
mkdir -p "$scratch"
fail() { echo "FAILED: $*" >&2; exit 1; }
lag() { python3 "$source_dir/tools/result_lag.py" "$@"; }

"$binary" match --p1 alphabeta:depth=1 --p2 alphabeta:depth=3 --games 4 --pgn "$scratch/games.pgn" --quiet
lag "$scratch/games.pgn" --player depth=1 --engine "$binary uai --player alphabeta:depth=2" --engine-ms 20,40 |
  tee "$scratch/out.txt"
lost="$(grep -c '^game .* lost: depth=1 at ply [0-9]*, the other at [0-9]*' "$scratch/out.txt" || true)"
[[ "$lost" -gt 0 ]] || fail "no lost game measured"
[[ "$(grep -cE '; ply [0-9]+ in the game [+-][0-9.]+, at 20 ms [+-][0-9.]+, at 40 ms [+-][0-9.]+$' "$scratch/out.txt")" == "$lost" ]] ||
  fail "not every lost position searched again at both times"
grep -qE "^depth=1 lost: $lost; the loser saw it -?[0-9]+ plies after the winner at the median \(mean -?[0-9.]+\)$" "$scratch/out.txt" ||
  fail "no summary of the lost games"
grep -qE "^searched again at 40 ms: [+-][0-9.]+ at the mean, [0-9]+ of $lost at -1 or below$" "$scratch/out.txt" ||
  fail "no summary of the searches"
# In every game the winner's scores settle no later than the end, and a side settles on its own plies.
awk '/^game /{ split($0, a, /at ply |, the other at |;/); if ((a[2] - a[3]) % 2 == 0) bad = 1 } END { exit bad }' \
  "$scratch/out.txt" || fail "a side settled on the other's ply"

# A move played without a search (a forced pass) has no score: it neither ends nor breaks a run.
cat > "$scratch/pass.pgn" <<'PGN'
[Event "t"]
[Round "1"]
[Black "loser"]
[White "winner"]
[Result "0-1"]
[FEN "x5o/7/7/7/7/7/o5x x 0 1"]

1. b6 {+0.50/5 0.100s} f6 {+0.20/5 0.100s} 2. a5 {-1.20/5 0.100s} f5 {+1.50/5 0.100s}
3. 0000 {0.001s} f4 {+2.00/5 0.100s} 0-1
PGN
lag "$scratch/pass.pgn" --player loser > "$scratch/pass.txt"
grep -q '^game   1 lost: loser at ply 3, the other at 4$' "$scratch/pass.txt" || fail "the pass: $(cat "$scratch/pass.txt")"
grep -q '^loser lost: 1; the loser saw it -1 plies after the winner' "$scratch/pass.txt" || fail "the pass: $(cat "$scratch/pass.txt")"

# A player is found by its whole name before a part of one: depth=1 is in depth=10 too.
sed -e 's/^\[Black "loser"\]/[Black "ab:depth=10"]/' -e 's/^\[White "winner"\]/[White "ab:depth=1"]/' \
  "$scratch/pass.pgn" > "$scratch/names.pgn"
lag "$scratch/names.pgn" --player ab:depth=1 > "$scratch/names.txt"
grep -q '^game   1 won : ab:depth=1 at ply 4, the other at 3$' "$scratch/names.txt" ||
  fail "the whole name: $(cat "$scratch/names.txt")"

"$binary" match --p1 greedy --p2 random --games 2 --pgn "$scratch/unscored.pgn" --quiet
expect_error() {  # expected message, then the arguments
  local message="$1"; shift
  if lag "$@" > "$scratch/error.txt" 2>&1; then fail "accepted: $*"; fi
  grep -q "$message" "$scratch/error.txt" || fail "for $*: $(cat "$scratch/error.txt")"
}
expect_error 'no player named like "nobody"' "$scratch/games.pgn" --player nobody
expect_error 'both players of game 1 are named like "depth"' "$scratch/names.pgn" --player depth
expect_error 'has no scores in its comments' "$scratch/unscored.pgn" --player greedy
expect_error 'cannot start "no-such-engine"' "$scratch/games.pgn" --player depth=1 --engine no-such-engine
expect_error 'No such file' "$scratch/none.pgn" --player depth=1
echo "result_lag: $(grep lost: "$scratch/out.txt" | tail -1)"
