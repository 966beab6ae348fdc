#!/usr/bin/env bash
# Run on the CUDA machine after build.sh: trains for at most SECONDS (a device call lasts at most
# 10 minutes), stopping the run with SIGTERM as a user would, then copies what should come back to
# OUT_DIR: the best play file, the run's config, CSVs and log.
# The run lives in runs/gpu: a later call on the same (still warm) machine resumes it. A fresh
# machine has no run: INIT_NET, a play file brought back earlier, starts a new one from its
# weights (network.init_from). CONFIG (default configs/gpu.yaml) sets the run's budget and its
# learning-rate drop; raise its run.max_minutes only if the device time to spend it is at hand.
# Usage: tools/gpu/train.sh OUT_DIR SECONDS [INIT_NET]
set -euo pipefail
cd "$(dirname "$0")/../.."
[[ $# -ge 2 ]] || { echo "usage: $0 OUT_DIR SECONDS [INIT_NET]" >&2; exit 2; }
out="$1" seconds="$2" init="${3:-}"
source tools/gpu/env.sh
bin="${BIN:-build-gpu/tools/ataxx-zero}"
run=runs/gpu
mkdir -p "$out"
if [[ -f "$run/config.yaml" ]]; then
  args=(--run-dir "$run")
else
  config="${CONFIG:-configs/gpu.yaml}"
  if [[ -n "$init" ]]; then
    [[ -f "$init" ]] || { echo "$0: INIT_NET '$init' does not exist" >&2; exit 2; }
    mkdir -p runs
    sed "s|^network:|network:\n  init_from: $init|" "$config" > runs/gpu-config.yaml
    [[ $(grep -c init_from runs/gpu-config.yaml) -eq 1 ]] ||
      { echo "$0: $config needs a network: section without init_from" >&2; exit 2; }
    config=runs/gpu-config.yaml
  fi
  args=(--config "$config" --run-dir "$run")
fi
status=0
timeout --signal=TERM --kill-after=60 "$seconds" "$bin" train "${args[@]}" || status=$?
# 124: stopped by the timeout (SIGTERM), which the run takes as a clean stop.
[[ $status -eq 0 || $status -eq 124 ]] || { echo "$0: train exited with $status" >&2; exit "$status"; }
best="$(cat "$run/models/best")"
cp "$run/models/$best.net" "$out/best.net"
cp "$run/config.yaml" "$run"/*.csv "$run/log.txt" "$out/"
echo "best $best -> $out/best.net"
