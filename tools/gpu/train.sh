#!/usr/bin/env bash
# Trains on your GPU machine for at most SECONDS, then stops the run (SIGTERM, as Ctrl-C does) and
# packs it into OUT_DIR: for a run in parts (a GPU rented by the hour, a queue with a time limit),
# or a run to go on elsewhere (docs/gpu.md, "A run in parts"). OUT_DIR gets best.net (the run's best
# play file), log.txt, and the run as the tar run.tar.000 (or parts run.tar.000, run.tar.001, ...
# of PART_BYTES each): what a resume needs (`ataxx-zero pack`: the newest checkpoint with its
# optimiser, the replay window, CSVs, log), a fraction of the run folder.
# The run lives in $RUN (default runs/gpu): the next call on the same machine resumes it (one that
# names another CONFIG or play file FROM is refused: give it another RUN). On
# another machine, FROM starts it: a folder holding the parts (the run goes on where it stopped),
# or a play file (a new run from its weights, network.init_from).
# Without build-gpu/tools/ataxx-zero it runs `tools/gpu/build.sh ataxx-zero` first (into
# OUT_DIR/build.txt), so that the same command serves a machine that has built and one that has not.
# A run that fails is packed all the same, and the script exits with its status; one that fails
# with inference.cuda_graphs on goes on without them for the seconds left.
# Settings, all optional:
#   CONFIG    a new run's config (default configs/gpu.yaml); its run.max_minutes ends the run and
#             sets when its learning rate drops (lr_drop_at), so give it the minutes you mean to
#             spend in all. CONFIG=configs/gpu-continue.yaml with FROM
#             nets/teachers/ataxx-7x7-6x32.net trains on the 6x32 net the shipped one was taught by.
#   RUN       the run folder (default runs/gpu); BIN the program (default build-gpu/tools/ataxx-zero).
#   PACK_MIB  a cap on the pack in MiB (default none): the window's oldest chunks beyond it are
#             left out, their games counted.
#   PART_BYTES splits the pack into parts of this many bytes (default: one file), for storage or
#             a transfer that limits a file's size.
#   AVERAGE=N also writes OUT_DIR/average.net: the mean of the run's newest N models, batch norms
#             measured again on 50 batches of its replay window (`ataxx-zero export
#             --average`), for a match against best.net.
#   BESIDE="MATCH ARGUMENTS" plays `ataxx-zero match MATCH ARGUMENTS --concurrency 1` meanwhile on
#             the machine's last two cores, the run on the others, into OUT_DIR/beside.txt (the
#             processor named first); it stops 15 s before the run, its unfinished game dropped. On
#             an H100 machine with 16 cores the run lost nothing to it (111 games/s and 0.90 M
#             evals/s on 14 cores). E.g. BESIDE="--p1 nn:model=nets/ataxx-7x7.net,visits=100000000,time=100
#             --p2 uai:cmd=PATH/TO/zataxx,movetime=100 --games 100 --openings configs/openings/balanced-4ply.txt"
#             (Zataxx needs a processor with AVX-512; a game every 10-12 s).
# Usage: tools/gpu/train.sh OUT_DIR SECONDS [FROM]
set -euo pipefail
cd "$(dirname "$0")/../.."
[[ $# -ge 2 ]] || { echo "usage: $0 OUT_DIR SECONDS [FROM]" >&2; exit 2; }
out="$1" seconds="$2" from="${3:-}"
bin="${BIN:-build-gpu/tools/ataxx-zero}"
run="${RUN:-runs/gpu}"
# What started the run in $RUN is kept beside it ($RUN.started-by): a call that names another
# CONFIG or play file FROM is refused, before any build, rather than resuming the run it finds.
if [[ -f "$run/config.yaml" && -f "$run.started-by" ]]; then
  config_was="$(sed -n 's/^CONFIG=//p' "$run.started-by")" from_was="$(sed -n 's/^FROM=//p' "$run.started-by")"
  if [[ -n "${CONFIG:-}" && "$CONFIG" != "$config_was" ]] || [[ -f "$from" && "$from" != "$from_was" ]]; then
    echo "$0: $run holds a run started by CONFIG=$config_was${from_was:+ FROM=$from_was}: call without" \
      "CONFIG and FROM to resume it, or set RUN to a new folder for a new run" >&2
    exit 2
  fi
fi
mkdir -p "$out"
# A machine that has not built the program builds it first.
if [[ ! -x "$bin" ]]; then
  [[ -z "${BIN:-}" ]] || { echo "$0: BIN '$bin' is not an executable file" >&2; exit 2; }
  echo "$0: no $bin on this machine: building it first (tools/gpu/build.sh, into $out/build.txt)"
  tools/gpu/build.sh ataxx-zero > "$out/build.txt" 2>&1 || { tail -n 20 "$out/build.txt" >&2; exit 1; }
fi
# After any build: build.sh makes .deps-root, whose libraries the binary loads.
if [[ -f tools/gpu/env.sh && -d .deps-root ]]; then source tools/gpu/env.sh; fi
# Parts unpack only as a pack writes them: regular files and folders, at the top of the run or
# in its models/, checkpoints/ and games/; no absolute path, no .., no link.
check_pack_members() {
  local name listing names
  local -a path
  refuse() { echo "$0: the parts of $from hold $1: not a run's pack, nothing unpacked" >&2; exit 2; }
  listing="$(cat "$@" | tar -tv)" && names="$(cat "$@" | tar -t)" || refuse "no whole tar archive"
  if grep -v '^[-d]' <<< "$listing" > /dev/null; then refuse "a link or a special file"; fi
  while IFS= read -r name; do
    name="${name#./}"
    name="${name%/}"
    [[ -z "$name" || "$name" == "." ]] && continue
    [[ "$name" != /* && "/$name/" != */../* ]] || refuse "'$name'"
    IFS=/ read -ra path <<< "$name"
    ((${#path[@]} == 1)) || { ((${#path[@]} == 2)) && [[ "${path[0]}" =~ ^(models|checkpoints|games)$ ]]; } ||
      refuse "'$name'"
  done <<< "$names"
}
if [[ -f "$run/config.yaml" ]]; then
  [[ -z "$from" || -f "$from" ]] || echo "$0: $run holds a run already: resuming it, not $from"
  args=(--run-dir "$run")
elif [[ -d "$from" ]]; then
  parts=("$from"/run.tar.*)
  [[ -f "${parts[0]}" ]] || { echo "$0: $from holds no run.tar.* parts" >&2; exit 2; }
  check_pack_members "${parts[@]}"
  mkdir -p "$run"
  cat "${parts[@]}" | tar -x --no-same-owner --no-same-permissions -C "$run"
  echo "unpacked ${#parts[@]} parts of $from into $run"
  args=(--run-dir "$run")
else
  config="${CONFIG:-configs/gpu.yaml}"
  if [[ -n "$from" ]]; then
    [[ -f "$from" ]] || { echo "$0: FROM '$from' is neither a folder of parts nor a play file" >&2; exit 2; }
    mkdir -p "$(dirname "$run")"
    # The path as a YAML single-quoted scalar, put in by awk from the environment: no character of
    # it is read as sed's or awk's syntax.
    quote="'"
    INIT_FROM="  init_from: '${from//$quote/$quote$quote}'" \
      awk '{ print } /^network:/ { print ENVIRON["INIT_FROM"] }' "$config" > "$run-config.yaml"
    [[ $(grep -c "^  init_from:" "$run-config.yaml") -eq 1 ]] ||
      { echo "$0: $config needs a network: section without init_from" >&2; exit 2; }
    config="$run-config.yaml"
  fi
  args=(--config "$config" --run-dir "$run")
  mkdir -p "$(dirname "$run")"
  printf 'CONFIG=%s\nFROM=%s\n' "${CONFIG:-configs/gpu.yaml}" "$from" > "$run.started-by"
fi
pinned=()
beside=""
if [[ -n "${BESIDE:-}" ]]; then
  cores="$(nproc)"
  read -ra match_args <<< "$BESIDE"
  match_cores="$((cores - 2)),$((cores - 1))"
  ((cores < 4)) || pinned=(taskset -c "0-$((cores - 3))")
  ((cores >= 4)) || match_cores="0-$((cores - 1))"
  # The processor the match ran on, for its figures.
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
# CUDA graphs are the one part of a run known to have failed on a GPU (docs/gpu.md): a run that fails
# with them on goes on without them for the seconds left, from its last checkpoint.
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
# packed as far as its files go (a resume starts from its newest checkpoint), then the script exits
# with train's status.
failed=0
if [[ $status -ne 0 && $status -ne 124 ]]; then
  failed=$status
  echo "$0: train exited with $status; packing what the run has" >&2
  [[ -f "$run/models/best" ]] || exit "$failed"
fi
best="$(cat "$run/models/best")"
cp "$run/models/$best.net" "$out/best.net"
cp "$run/log.txt" "$out/"
pack="$run.pack"
rm -rf "$pack" "$out"/run.tar.*
"$bin" pack --run-dir "$run" --into "$pack" --max-mib "${PACK_MIB:-0}"
if [[ -n "${PART_BYTES:-}" ]]; then
  tar -c -C "$pack" . | split -b "$PART_BYTES" -d -a 3 - "$out/run.tar."
else
  tar -c -C "$pack" . > "$out/run.tar.000"
fi
rm -rf "$pack"
echo "best $best -> $out/best.net; the run -> $(ls "$out"/run.tar.* | wc -l) parts in $out"
if [[ -n "${AVERAGE:-}" ]]; then
  "$bin" export "$run" --average "$AVERAGE" --calibration-batches 50 --force --out "$out/average.net" ||
    echo "$0: no average of the newest $AVERAGE models (the run is packed all the same)" >&2
fi
exit "$failed"
