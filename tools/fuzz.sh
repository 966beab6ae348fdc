#!/usr/bin/env bash
# Builds the libFuzzer harnesses of fuzz/ (clang, AddressSanitizer + UndefinedBehaviorSanitizer)
# and runs them, each from its committed seed corpus (copied: the corpus in git does not grow).
#
#   tools/fuzz.sh NAME [SECONDS] [RUNS]
#
# NAME is fen, move, uai, run_config, chunk, model_file, play_file, schataxx, play_session, analysis or
# all; each runs for SECONDS (default 60)
# or RUNS executions, whichever ends first. An input that crashes, hangs or breaks a
# property is saved under build-fuzz*/artifacts/NAME/ and the script fails. ATAXX_FUZZ_WHOLE_MODELS=1
# adds whole model files to model_file's seeds (deeper, far slower); ATAXX_FUZZ_TIMEOUT sets the
# seconds after which an input counts as a hang (default 10: raise it on a machine busy with more).
set -euo pipefail
cd "$(dirname "$0")/.."

names=(fen move uai run_config chunk model_file play_file schataxx play_session analysis)
name=${1:?usage: tools/fuzz.sh NAME [SECONDS] [RUNS] (NAME: ${names[*]} or all)}
seconds=${2:-60}
runs=${3:--1}
if [[ $name == all ]]; then selected=("${names[@]}"); else selected=("$name"); fi
for n in "${selected[@]}"; do
  [[ " ${names[*]} " == *" $n "* ]] || { echo "fuzz: unknown harness '$n' (${names[*]})" >&2; exit 2; }
done

bash tools/setup.sh clang libclang-rt-14-dev >/dev/null
# The harnesses that link torch have a build of their own (GCC): see fuzz/CMakeLists.txt.
build_of() { [[ $1 == model_file || $1 == uai || $1 == play_session || $1 == analysis ]] && echo fuzz-torch || echo fuzz; }
for preset in $(for n in "${selected[@]}"; do build_of "$n"; done | sort -u); do
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" --target fuzzers
done

for n in "${selected[@]}"; do
  build=build-$(build_of "$n")
  work=$build/corpus/$n
  artifacts=$build/artifacts/$n
  mkdir -p "$work" "$artifacts"
  cp -n fuzz/corpus/"$n"/* "$work"/
  extra=()
  asan_options=
  [[ $build == build-fuzz-torch ]] && extra=(-use_value_profile=1)
  # LibTorch leaks a little on every archive it rejects (tools/sanitizers/lsan.supp); checking for
  # leaks after each such input makes the run ten times slower. Our own code's leaks are the asan
  # test preset's job.
  [[ $n == model_file ]] && extra+=(-detect_leaks=0) && asan_options=detect_leaks=0
  # Whole play files and checkpoints (850 KB each) as seeds too: slower runs that reach the weights.
  [[ $n == model_file && ${ATAXX_FUZZ_WHOLE_MODELS:-0} == 1 ]] && "$build"/fuzz/fuzz_make_seeds "$work"
  echo "== fuzz_$n: up to $seconds s${3:+ or $runs runs}"
  export LSAN_OPTIONS=suppressions=$PWD/tools/sanitizers/lsan.supp:print_suppressions=0
  log=$build/fuzz_$n.log
  timeout=${ATAXX_FUZZ_TIMEOUT:-10}  # a hang; and what counts as a slow unit (saved, and a failure)
  status=0
  ASAN_OPTIONS=$asan_options "$build"/fuzz/fuzz_"$n" "$work" -max_total_time="$seconds" -runs="$runs" -timeout="$timeout" -report_slow_units="$timeout" -rss_limit_mb=4096 \
    -artifact_prefix="$artifacts"/ -print_final_stats=1 "${extra[@]}" >"$log" 2>&1 || status=$?
  grep -E "^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)|^Done|ERROR|SUMMARY|property failed" "$log" || true
  if ((status != 0)) || compgen -G "$artifacts/*" >/dev/null; then
    echo "fuzz_$n: failed (exit $status), see $log and $artifacts" >&2
    exit 1
  fi
done
