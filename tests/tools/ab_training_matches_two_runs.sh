#!/usr/bin/env bash
# tools/ab_training.sh at test size: two tiny runs differing in their learning rate, their best nets
# matched over 4 games in two halves; run again, it resumes and reads the halves it played; an AB_GAMES
# that is no multiple of 4 or not the finished halves', and a config the trainer refuses, each stop it
# with a clear error; AB_SEEDS makes replicates (the runs of each seed matched, then the sum); each
# arm trains on its own processors; AB_MATCH gives the match its game (Schataxx runs matched).
# Usage: ab_training_matches_two_runs.sh BINARY SOURCE_DIR SCRATCH_DIR
set -euo pipefail
binary="$1" source_dir="$2" scratch="$3"
rm -rf "$scratch"
mkdir -p "$scratch"
fail() { echo "FAILED: $*" >&2; exit 1; }
seq_cpus() {  # LIST ("0-3,6"): one processor a line, sorted as text
  tr , '\n' <<< "$1" | awk -F- '{ for (cpu = $1; cpu <= ($2 == "" ? $1 : $2); cpu++) print cpu }' | sort
}
# The binary, through a wrapper noting the processors each run trains on: "RUN_FOLDER CPU_LIST".
cat > "$scratch/noting-zero" <<EOF
#!/usr/bin/env bash
if [[ \$1 == train ]]; then
  for arg; do [[ \${previous:-} == --run-dir ]] && run=\$(basename "\$arg"); previous=\$arg; done
  echo "\$run \$(awk '/^Cpus_allowed_list/ { print \$2 }' /proc/self/status)" >> "$scratch/processors"
fi
exec "$binary" "\$@"
EOF
chmod +x "$scratch/noting-zero"
ab() { ATAXX_ZERO="$scratch/noting-zero" AB_GAMES=4 AB_PLAY=visits=8 "$source_dir/tools/ab_training.sh" "$@"; }
sed -e 's/^  games: 4$/  games: 0/' -e 's/^  max_generations: 3$/  max_generations: 1/' "$source_dir/configs/tiny.yaml" > "$scratch/a.yaml"
sed 's/^  learning_rate: 0.05$/  learning_rate: 0.01/' "$scratch/a.yaml" > "$scratch/b.yaml"
cmp -s "$scratch/a.yaml" "$scratch/b.yaml" && fail "the arms' configs do not differ"

ab "$scratch/a.yaml" "$scratch/b.yaml" "$scratch/ab" > "$scratch/first.out" || fail "the A/B failed: $(cat "$scratch/first.out")"
cat "$scratch/first.out"
grep -Eq "^A: $scratch/a.yaml: [0-9]+ games, [0-9]+ steps, value loss [0-9.]+, [0-9.]+ plies a game and [0-9]+ % draws lately, best $scratch/ab/a/models/gen-[0-9]+\.net$" "$scratch/first.out" ||
  fail "no summary of arm A"
grep -Eq "^B: $scratch/b.yaml: [0-9]+ games, [0-9]+ steps, value loss [0-9.]+, [0-9.]+ plies a game and [0-9]+ % draws lately, best $scratch/ab/b/models/gen-[0-9]+\.net$" "$scratch/first.out" ||
  fail "no summary of arm B"
result=$(grep '^A vs B: ' "$scratch/first.out") || fail "no match result"
[[ $result =~ \(([0-9.]+)-([0-9.]+)\ of\ 4\) ]] || fail "not 4 games: $result"
awk -v a="${BASH_REMATCH[1]}" -v b="${BASH_REMATCH[2]}" 'BEGIN { exit !(a + b == 4) }' || fail "the points are not 4: $result"
# Two halves of 2 games: opening 1 with both colours, then opening 2 (its log named by it).
for start in 1 2; do
  grep -Eq '^Score of .*\] 2$' "$scratch/ab/match-$start.out" || fail "the half from opening $start did not play 2 games"
done
# Each arm on processors of its own where there are two or more.
cpus_a=$(awk '$1 == "a" { print $2; exit }' "$scratch/processors")
cpus_b=$(awk '$1 == "b" { print $2; exit }' "$scratch/processors")
[[ -n $cpus_a && -n $cpus_b ]] || fail "the arms' processors were not noted: $(cat "$scratch/processors")"
if (($(nproc) >= 2)); then
  [[ -z $(comm -12 <(seq_cpus "$cpus_a") <(seq_cpus "$cpus_b")) ]] || fail "the arms share processors: a $cpus_a, b $cpus_b"
fi

# Again: the runs resume (each has reached its max_generations) and the halves are read, not played again.
halves_before=$(cat "$scratch/ab/match-1.out" "$scratch/ab/match-2.out" | md5sum)
ab "$scratch/a.yaml" "$scratch/b.yaml" "$scratch/ab" > "$scratch/again.out" || fail "the resumed A/B failed: $(cat "$scratch/again.out")"
[[ $(grep '^A vs B: ' "$scratch/again.out") == "$result" ]] || fail "the resumed A/B's result differs: $(cat "$scratch/again.out")"
[[ $(cat "$scratch/ab/match-1.out" "$scratch/ab/match-2.out" | md5sum) == "$halves_before" ]] || fail "the halves were played again"

ATAXX_ZERO="$binary" AB_GAMES=8 "$source_dir/tools/ab_training.sh" "$scratch/a.yaml" "$scratch/b.yaml" "$scratch/ab" \
  2> "$scratch/eight.err" && fail "the halves of 4 games were taken for halves of 8"
grep -q "is a finished half of another number of games than AB_GAMES=8 asks" "$scratch/eight.err" ||
  fail "no word of the halves' number of games: $(cat "$scratch/eight.err")"

# Replicates: both arms at seeds 3 and 4 (`train --seed`), a match of 4 games each, and their sum.
AB_SEEDS="3 4" ab "$scratch/a.yaml" "$scratch/b.yaml" "$scratch/seeds" > "$scratch/seeds.out" ||
  fail "the A/B of two seeds failed: $(cat "$scratch/seeds.out")"
cat "$scratch/seeds.out"
for seed in 3 4; do
  for arm in a b; do
    grep -Eq "^${arm^^} \(seed $seed\): $scratch/$arm.yaml: [0-9]+ games, [0-9]+ steps, value loss [0-9.]+, [0-9.]+ plies a game and [0-9]+ % draws lately, best $scratch/seeds/$arm-s$seed/models/gen-[0-9]+\.net$" \
      "$scratch/seeds.out" || fail "no summary of arm $arm at seed $seed"
    grep -Eq "^  seed: $seed( |$)" "$scratch/seeds/$arm-s$seed/config.yaml" || fail "the run $arm-s$seed is not of seed $seed"
  done
  grep -Eq "^A vs B \(seed $seed\): .*\(([0-9.]+)-([0-9.]+) of 4\)" "$scratch/seeds.out" || fail "no match of 4 games at seed $seed"
done
grep -Eq "^A vs B: .* and .* and .* and .*\(([0-9.]+)-([0-9.]+) of 8\)" "$scratch/seeds.out" || fail "no sum of the two seeds' 8 games"
"$binary" train --run-dir "$scratch/seeds/a-s3" --seed 5 2> "$scratch/reseed.err" && fail "a run of seed 3 went on at seed 5"
grep -q "already holds a run of seed 3, not 5" "$scratch/reseed.err" || fail "no word of the seed: $(cat "$scratch/reseed.err")"
AB_SEEDS="3 3" ab "$scratch/a.yaml" "$scratch/b.yaml" "$scratch/twice" 2> "$scratch/twice.err" && fail "a seed named twice was accepted"
grep -q "AB_SEEDS names a seed twice" "$scratch/twice.err" || fail "no word of the seed named twice: $(cat "$scratch/twice.err")"

# Schataxx runs, their nets matched from the variant's suite (AB_MATCH): Ataxx's openings would not
# read as Schataxx positions.
for arm in a b; do sed 's/^run:$/run:\n  game: schataxx/' "$scratch/$arm.yaml" > "$scratch/schataxx-$arm.yaml"; done
AB_MATCH="--variant schataxx" ab "$scratch/schataxx-a.yaml" "$scratch/schataxx-b.yaml" "$scratch/schataxx" \
  > "$scratch/schataxx.out" || fail "the Schataxx A/B failed: $(cat "$scratch/schataxx.out")"
grep -Eq "^A vs B: .*\(([0-9.]+)-([0-9.]+) of 4\)" "$scratch/schataxx.out" || fail "no Schataxx match: $(cat "$scratch/schataxx.out")"
grep -Eq "^  game: schataxx( |$)" "$scratch/schataxx/a/config.yaml" || fail "the Schataxx arm is not a Schataxx run"

AB_GAMES=6 "$source_dir/tools/ab_training.sh" "$scratch/a.yaml" "$scratch/b.yaml" "$scratch/six" 2> "$scratch/six.err" &&
  fail "AB_GAMES=6 was accepted"
grep -q "AB_GAMES must be a positive multiple of 4, not '6'" "$scratch/six.err" || fail "no word of AB_GAMES: $(cat "$scratch/six.err")"

sed 's/^  learning_rate: 0.05$/  learning_rate: -1/' "$scratch/a.yaml" > "$scratch/bad.yaml"
ab "$scratch/bad.yaml" "$scratch/b.yaml" "$scratch/bad" 2> "$scratch/bad.err" && fail "a refused config was run"
grep -q "the run $scratch/bad/a failed: see $scratch/bad/a.out" "$scratch/bad.err" || fail "no word of the failed run: $(cat "$scratch/bad.err")"
grep -qi "learning_rate" "$scratch/bad/a.out" || fail "the run's log does not name the bad key: $(cat "$scratch/bad/a.out")"
ls "$scratch/bad"/match-*.out 2> /dev/null && fail "a match was played after a failed run"
echo "A/B: $result; resumed alike; replicates at two seeds summed; bad input refused"
