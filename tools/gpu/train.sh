#!/usr/bin/env bash
# Run on the CUDA machine (where the binary is missing it runs build.sh first): trains for at most
# SECONDS (a device call lasts at most 10 minutes), stopping the run with SIGTERM as a user would,
# then packs what a resume needs (`ataxx-zero pack`: newest checkpoint, the replay window, CSVs,
# log) into OUT_DIR as tar parts that a device call can bring back (run.tar.000, ... of at most
# 16,000,000 bytes each), beside best.net (the best play file) and log.txt.
# The run lives in $RUN (default runs/gpu): a later call on the same, still warm, machine resumes it.
# On a fresh machine FROM starts it: a folder holding the parts an earlier call brought back (the
# run goes on where it stopped), or a play file (a new run from its weights, network.init_from).
# CONFIG (default configs/gpu.yaml) sets a new run's budget and its learning-rate drop; raise its
# run.max_minutes only if the device time to spend it is at hand. A session's run carries the
# 6x32 teacher of the shipped net on with CONFIG=configs/gpu-continue.yaml and FROM
# nets/teachers/ataxx-7x7-6x32.net. PACK_MIB (default 56) caps the pack so that it travels with the
# tree (64 MiB) beside .deps/.
# AVERAGE=N also writes average.net: the mean of the run's newest N models, batch norms measured again
# on 50 batches of its replay window (`ataxx-zero export --average`: 9 s here for a 6x32 net, 29 s
# with export's 200), for a match against best.net.
# BESIDE="MATCH ARGUMENTS" plays `ataxx-zero match MATCH ARGUMENTS --concurrency 1` meanwhile, on the
# machine's last two cores with the run on the others (on an H100 machine's 14 of 16: 111 games/s and
# 0.90 M evals/s, as on all 16), into OUT_DIR/beside.txt; it is stopped 15 s before the run, its
# unfinished game dropped. The machines of the device have had AVX-512, which Zataxx and Autaxx need:
# BESIDE="--p1 nn:model=nets/ataxx-7x7.net,visits=100000000,time=100 --p2 uai:cmd=.deps/engines/zataxx,movetime=100
# --games 100 --openings configs/openings/balanced-4ply.txt" is the bar's match, a game every 10-12 s.
# Without build-gpu/tools/ataxx-zero (a fresh machine) it runs tools/gpu/build.sh first, so that the
# same call works on a warm machine (resuming $RUN) and on a fresh one (unpacking FROM's parts).
# Usage: tools/gpu/train.sh OUT_DIR SECONDS [FROM]
set -euo pipefail
cd "$(dirname "$0")/../.."
[[ $# -ge 2 ]] || { echo "usage: $0 OUT_DIR SECONDS [FROM]" >&2; exit 2; }
out="$1" seconds="$2" from="${3:-}"
bin="${BIN:-build-gpu/tools/ataxx-zero}"
run="${RUN:-runs/gpu}"
mkdir -p "$out"
# A second call can find a fresh machine (a warm one goes back after 30 s idle): it builds first.
if [[ ! -x "$bin" ]]; then
  [[ -z "${BIN:-}" ]] || { echo "$0: BIN '$bin' is not an executable file" >&2; exit 2; }
  echo "$0: no $bin on this machine: building it first (tools/gpu/build.sh, into $out/build.txt)"
  tools/gpu/build.sh ataxx-zero > "$out/build.txt" 2>&1 || { tail -n 20 "$out/build.txt" >&2; exit 1; }
fi
# After any build: build.sh makes .deps-root, whose libraries the binary loads.
if [[ -f tools/gpu/env.sh && -d .deps-root ]]; then source tools/gpu/env.sh; fi
if [[ -f "$run/config.yaml" ]]; then
  [[ -z "$from" ]] || echo "$0: $run holds a run already: resuming it, not $from"
  args=(--run-dir "$run")
elif [[ -d "$from" ]]; then
  parts=("$from"/run.tar.*)
  [[ -f "${parts[0]}" ]] || { echo "$0: $from holds no run.tar.* parts" >&2; exit 2; }
  mkdir -p "$run"
  cat "${parts[@]}" | tar -x -C "$run"
  echo "unpacked ${#parts[@]} parts of $from into $run"
  args=(--run-dir "$run")
else
  config="${CONFIG:-configs/gpu.yaml}"
  if [[ -n "$from" ]]; then
    [[ -f "$from" ]] || { echo "$0: FROM '$from' is neither a folder of parts nor a play file" >&2; exit 2; }
    mkdir -p "$(dirname "$run")"
    sed "s|^network:|network:\n  init_from: $from|" "$config" > "$run-config.yaml"
    [[ $(grep -c "^  init_from:" "$run-config.yaml") -eq 1 ]] ||
      { echo "$0: $config needs a network: section without init_from" >&2; exit 2; }
    config="$run-config.yaml"
  fi
  args=(--config "$config" --run-dir "$run")
fi
pinned=()
beside=""
if [[ -n "${BESIDE:-}" ]]; then
  cores="$(nproc)"
  read -ra match_args <<< "$BESIDE"
  match_cores="$((cores - 2)),$((cores - 1))"
  ((cores < 4)) || pinned=(taskset -c "0-$((cores - 3))")
  ((cores >= 4)) || match_cores="0-$((cores - 1))"
  # The processor the match ran on, for its figures: the device's machines differ.
  { grep -m1 '^model name' /proc/cpuinfo; grep -m1 -o 'avx512[a-z_]*' /proc/cpuinfo || echo "no AVX-512"; } \
    > "$out/beside.txt"
  taskset -c "$match_cores" timeout --signal=TERM "$((seconds > 30 ? seconds - 15 : seconds))" \
    "$bin" match "${match_args[@]}" --concurrency 1 >> "$out/beside.txt" 2>&1 &
  beside=$!
fi
train() {  # $1: seconds, then train's arguments
  local limit="$1"
  shift
  "${pinned[@]}" timeout --signal=TERM --kill-after=60 "$limit" "$bin" train "$@"
}
started=$SECONDS
status=0
train "$seconds" "${args[@]}" || status=$?
# CUDA graphs are the one part of a run known to have failed on the device once (README "GPU"): a run
# that fails with them on goes on without them for the seconds left, from its last checkpoint.
graphs_on='^\(  cuda_graphs:\) true'
if [[ $status -ne 0 && $status -ne 124 && -f "$run/config.yaml" ]] && grep -q "$graphs_on" "$run/config.yaml"; then
  left=$((seconds - (SECONDS - started)))
  echo "$0: train exited with $status with CUDA graphs on: going on without them for $left s" >&2
  sed -i "s/$graphs_on/\1 false/" "$run/config.yaml"
  status=0
  ((left <= 0)) || train "$left" --run-dir "$run" || status=$?
fi
if [[ -n "$beside" ]]; then
  beside_status=0
  wait "$beside" || beside_status=$?
  ((beside_status == 0 || beside_status == 124)) ||
    echo "$0: the match beside the run exited with $beside_status: see $out/beside.txt" >&2
fi
# 124: stopped by the timeout (SIGTERM), which the run takes as a clean stop. A run that failed is
# brought back as far as its files go (a resume starts from its newest checkpoint), then the script
# exits with train's status.
failed=0
if [[ $status -ne 0 && $status -ne 124 ]]; then
  failed=$status
  echo "$0: train exited with $status; bringing back what the run has" >&2
  [[ -f "$run/models/best" ]] || exit "$failed"
fi
best="$(cat "$run/models/best")"
cp "$run/models/$best.net" "$out/best.net"
cp "$run/log.txt" "$out/"
pack="$run.pack"
rm -rf "$pack" "$out"/run.tar.*
"$bin" pack --run-dir "$run" --into "$pack" --max-mib "${PACK_MIB:-56}"
tar -c -C "$pack" . | split -b 16000000 -d -a 3 - "$out/run.tar."
rm -rf "$pack"
echo "best $best -> $out/best.net; the run -> $(ls "$out"/run.tar.* | wc -l) parts in $out"
if [[ -n "${AVERAGE:-}" ]]; then
  "$bin" export "$run" --average "$AVERAGE" --calibration-batches 50 --force --out "$out/average.net" ||
    echo "$0: no average of the newest $AVERAGE models (the run and its parts are back all the same)" >&2
fi
exit "$failed"
