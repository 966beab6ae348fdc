#!/usr/bin/env bash
# tools/gpu/train.sh on the CPU: a BIN that is not there fails at once, as does a call naming
# another config than the run's in RUN; then two 30-second calls as
# on two machines (two run folders): the first trains a new run and packs it as tar parts
# (PART_BYTES), the second unpacks them, trains on from there, packs it as one file and writes the
# mean of its newest two models too (AVERAGE) and a match played beside it (BESIDE); a third, of a
# run with CUDA graphs on, fails (no CUDA on the CPU), goes on without them, is killed and is still
# packed.
# Usage: gpu_train_carries_a_run.sh BINARY SOURCE_DIR SCRATCH_DIR
set -euo pipefail
binary="$1" source_dir="$2" scratch="$3"
rm -rf "$scratch"
mkdir -p "$scratch"
fail() { echo "FAILED: $*" >&2; exit 1; }
# A candidate sooner on a loaded machine: a CI run with four other loads beside it had played 64 of
# tiny.yaml's 300 samples in the first call's 30 s, and under ASan one trained 20 of its 40 steps.
sed -e 's/max_generations: 3/max_generations: 10000/' -e 's/min_samples: 300/min_samples: 128/' \
  -e 's/steps_per_candidate: 40/steps_per_candidate: 10/' \
  "$source_dir/configs/tiny.yaml" > "$scratch/tiny.yaml"
export CONFIG="$scratch/tiny.yaml"
# A BIN that is not there is said so at once, before any run or build starts.
status=0
BIN="$scratch/no-such-binary" "$source_dir/tools/gpu/train.sh" "$scratch/back-0" 30 2> "$scratch/no-binary.err" || status=$?
[[ $status -eq 2 ]] && grep -q "is not an executable file" "$scratch/no-binary.err" ||
  fail "a missing BIN gave status $status: $(cat "$scratch/no-binary.err")"
export BIN="$binary"

# Parts that a pack did not write are refused before anything is unpacked: a member outside the
# run, a link.
mkdir -p "$scratch/crafted" "$scratch/escape-parts" "$scratch/link-parts"
echo "outside" > "$scratch/crafted/a"
tar -c -C "$scratch/crafted" --transform 's|^\./a$|../escaped.txt|' ./a > "$scratch/escape-parts/run.tar.000"
ln -s /etc/passwd "$scratch/crafted/passwd"
tar -c -C "$scratch/crafted" ./passwd > "$scratch/link-parts/run.tar.000"
for crafted in escape-parts link-parts; do
  status=0
  RUN="$scratch/crafted-run/gpu" "$source_dir/tools/gpu/train.sh" "$scratch/back-$crafted" 30 "$scratch/$crafted" \
    2> "$scratch/$crafted.err" || status=$?
  [[ $status -eq 2 ]] && grep -q "not a run's pack, nothing unpacked" "$scratch/$crafted.err" ||
    fail "parts of $crafted gave status $status: $(cat "$scratch/$crafted.err")"
  [[ ! -e "$scratch/crafted-run" && ! -e "$scratch/escaped.txt" ]] || fail "parts of $crafted were unpacked"
done

PART_BYTES=20000 RUN="$scratch/first/gpu" "$source_dir/tools/gpu/train.sh" "$scratch/back-1" 30
ls "$scratch/back-1"/run.tar.001 "$scratch/back-1/best.net" "$scratch/back-1/log.txt" > /dev/null
parts="$(ls "$scratch/back-1"/run.tar.* | wc -l)"
candidates() { ls "$1/models" | grep -c '^gen-.*\.net$' || true; }
step_of() { grep -o "candidate gen-[0-9]*: step [0-9]*" "$1/log.txt" | tail -1 | grep -o '[0-9]*$'; }
first_step="$(step_of "$scratch/first/gpu")"
[[ -n "$first_step" ]] || fail "the first call trained no candidate in 30 s"
minutes_before="$(cat "$scratch/first/gpu/elapsed_minutes")"

# A play file FROM starts a new run from its weights, whatever its path holds.
odd="$scratch/a&b|c'd \\1"
mkdir -p "$odd"
cp "$scratch/back-1/best.net" "$odd/start.net"
RUN="$scratch/odd/gpu" "$source_dir/tools/gpu/train.sh" "$scratch/back-odd" 10 "$odd/start.net" > "$scratch/odd.out" 2>&1 ||
  fail "a FROM of an odd path: $(cat "$scratch/odd.out")"
q="'"
grep -qxF "  init_from: '${odd//$q/$q$q}/start.net'" "$scratch/odd/gpu-config.yaml" ||
  fail "init_from is not FROM: $(grep init_from "$scratch/odd/gpu-config.yaml")"

# A call naming another config or play file than the run's is refused, not resumed into the run
# its RUN holds, and packs nothing; the same call again, or one without FROM, resumes it.
refused() {  # $1: what differs; the rest: the environment of the call
  local status=0
  env "${@:2}" RUN="$scratch/odd/gpu" "$source_dir/tools/gpu/train.sh" "$scratch/back-other" 10 "${from_arg[@]}" \
    2> "$scratch/other.err" || status=$?
  [[ $status -eq 2 ]] && grep -qF "holds a run started by CONFIG=$CONFIG FROM=$odd/start.net: call without" "$scratch/other.err" ||
    fail "another $1 for a run gave status $status: $(cat "$scratch/other.err")"
  [[ ! -e "$scratch/back-other/best.net" ]] || fail "a refused call packed the run"
}
from_arg=("$odd/start.net")
refused CONFIG CONFIG="$source_dir/configs/gpu.yaml"
from_arg=("$scratch/back-1/best.net")
refused "play file"
RUN="$scratch/odd/gpu" "$source_dir/tools/gpu/train.sh" "$scratch/back-odd" 5 "$odd/start.net" > "$scratch/odd.out" 2>&1 ||
  fail "the same call again did not resume: $(cat "$scratch/odd.out")"
RUN="$scratch/odd/gpu" "$source_dir/tools/gpu/train.sh" "$scratch/back-odd" 5 > "$scratch/odd.out" 2>&1 ||
  fail "the same CONFIG without FROM did not resume: $(cat "$scratch/odd.out")"
sessions="$(grep -cF "run $scratch/odd/gpu: candidate" "$scratch/odd/gpu/log.txt" || true)"
[[ $sessions -eq 3 ]] || fail "the odd run has $sessions sessions in its log, not 3 (a start and two resumes)"

BESIDE="--p1 random --p2 greedy --games 20" AVERAGE=2 RUN="$scratch/second/gpu" \
  "$source_dir/tools/gpu/train.sh" "$scratch/back-2" 30 "$scratch/back-1" | tee "$scratch/second.out"
grep -q "^Finished game 20 " "$scratch/back-2/beside.txt" || fail "no match beside the run: $(cat "$scratch/back-2/beside.txt")"
grep -q "^model name" "$scratch/back-2/beside.txt" || fail "the match's processor is not named"
grep -q "unpacked $parts parts of $scratch/back-1" "$scratch/second.out" || fail "the second call did not unpack the $parts parts"
[[ "$(ls "$scratch/back-2"/run.tar.*)" == "$scratch/back-2/run.tar.000" ]] || fail "no PART_BYTES, yet the pack was split"
second="$scratch/second/gpu"
"$binary" match --p1 "nn:model=$scratch/back-2/average.net,visits=4" --p2 random --games 2 > "$scratch/average.out" ||
  fail "AVERAGE=2 wrote no play file of the newest two models: $(cat "$scratch/average.out")"
grep -q "run $second: candidate" "$second/log.txt" || fail "no resume in the second run's log"
[[ "$(step_of "$second")" -gt "$first_step" ]] || fail "the second call trained no further than step $first_step"
awk -v a="$(cat "$second/elapsed_minutes")" -v b="$minutes_before" 'BEGIN { exit !(a > b) }' ||
  fail "the run's minutes did not go on from $minutes_before"
# The first call's log travels with the run, and its games are counted.
grep -q "run $scratch/first/gpu: candidate" "$second/log.txt" || fail "the first call's log was lost"
echo "carried: step $first_step -> $(step_of "$second"), $(candidates "$second") play files in the second run"

# A run that fails with CUDA graphs on (here at its start: the CPU has none) goes on without them;
# killed once it has a candidate, it is still packed as far as it got, and the script says it failed.
{ cat "$scratch/tiny.yaml"; printf 'inference:\n  cuda_graphs: true\n'; } > "$scratch/tiny-graphs.yaml"
CONFIG="$scratch/tiny-graphs.yaml" RUN="$scratch/graphs/gpu" "$source_dir/tools/gpu/train.sh" "$scratch/back-3" 120 \
  > "$scratch/graphs.out" 2>&1 &
script=$!
for _ in $(seq 120); do
  [[ -n "$(step_of "$scratch/graphs/gpu" 2>/dev/null)" ]] && break
  sleep 1
done
pkill -KILL -f "^$binary train --run-dir $scratch/graphs/gpu\$" || fail "no run without CUDA graphs to kill: $(cat "$scratch/graphs.out")"
status=0
wait "$script" || status=$?
grep -q "with CUDA graphs on: going on without them" "$scratch/graphs.out" || fail "no word of the fallback"
grep -q "^  cuda_graphs: false" "$scratch/graphs/gpu/config.yaml" || fail "the run's config still has CUDA graphs on"
[[ -n "$(step_of "$scratch/graphs/gpu")" ]] || fail "the run without CUDA graphs trained no candidate"
echo "fell back: the run without CUDA graphs reached step $(step_of "$scratch/graphs/gpu")"
[[ $status -ne 0 ]] || fail "train.sh exited 0 after its run was killed"
grep -q "packing what the run has" "$scratch/graphs.out" || fail "no word of the failure: $(cat "$scratch/graphs.out")"
ls "$scratch/back-3"/run.tar.000 "$scratch/back-3/best.net" > /dev/null
echo "killed: packed with status $status"
