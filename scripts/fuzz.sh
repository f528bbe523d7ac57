#!/usr/bin/env bash
# Builds kestrel's libFuzzer targets (clang, ASan + UBSan) and runs them one at a time.
#   scripts/fuzz.sh [TARGET|all] [SECONDS]      default: all, 60 seconds each
# Targets: csv_reader libsvm_reader model_json libsvm_model grid kernel_spec params compressed_input
# table_cache
# (see docs/fuzzing.md). Inputs that crash, hang or trip a sanitizer are written to
# tests/fuzz/regressions/TARGET/, which the normal test suite replays; the growing
# working corpus lives in BUILD/fuzz-corpus/TARGET (seeded from tests/fuzz/corpus).
# Environment: KESTREL_FUZZ_BUILD (build folder, default build-fuzz), FUZZ_TIMEOUT
# (seconds one input may take, default 25: generous, as a loaded machine stretches
# wall-clock time and real hangs never end), FUZZ_RSS_MB (memory limit, default 2048),
# FUZZ_ARGS (extra libFuzzer flags).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${KESTREL_FUZZ_BUILD:-$root/build-fuzz}
which=${1:-all}
seconds=${2:-60}
all_targets=(csv_reader libsvm_reader model_json libsvm_model grid kernel_spec params compressed_input table_cache)

# Longest input per target: room for the seeds' largest realistic file, short enough
# that each execution takes milliseconds.
max_len() {
  case $1 in
    csv_reader | libsvm_reader | compressed_input | table_cache) echo 4096 ;;
    model_json) echo 12288 ;;
    libsvm_model) echo 8192 ;;
    grid | params) echo 512 ;;
    kernel_spec) echo 256 ;;
  esac
}

if [ "$which" = all ]; then
  targets=("${all_targets[@]}")
else
  case " ${all_targets[*]} " in
    *" $which "*) targets=("$which") ;;
    *) echo "fuzz.sh: unknown target '$which' (valid: all ${all_targets[*]})" >&2; exit 1 ;;
  esac
fi

# clang, its sanitizer/libFuzzer runtimes and its OpenMP runtime: Debian 12 packages,
# needed only here (the normal build uses GCC).
packages=(clang libclang-rt-14-dev libomp-14-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  echo "fuzz.sh: installing ${missing[*]}" >&2
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# -O1 without NDEBUG: Eigen's and libstdc++'s index checks stay on (cmake/KestrelFuzz.cmake).
if [ ! -f "$build/build.ninja" ]; then
  CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" -DKESTREL_FUZZ=ON -DKESTREL_TESTS=OFF >/dev/null
fi
ninja -C "$build" -j"${FUZZ_BUILD_JOBS:-2}" "${targets[@]/#/fuzz_}"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=0:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
for t in "${targets[@]}"; do
  work=$build/fuzz-corpus/$t
  regressions=$root/tests/fuzz/regressions/$t
  mkdir -p "$work" "$regressions"
  log=$build/fuzz-$t.log
  echo "fuzz.sh: $t for ${seconds}s (log: $log)" >&2
  # One process (no -jobs/-workers: the machines this runs on are shared, and -jobs
  # would move the output into ./fuzz-N.log). The first corpus folder
  # receives new inputs; the seeds and past regressions are read from.
  # shellcheck disable=SC2086
  if ! "$build/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -max_len="$(max_len "$t")" \
      -timeout="${FUZZ_TIMEOUT:-25}" -report_slow_units=1000000 -rss_limit_mb="${FUZZ_RSS_MB:-2048}" \
      -dict="$root/tests/fuzz/dicts/$t.dict" -artifact_prefix="$regressions/" -print_final_stats=1 \
      ${FUZZ_ARGS:-} "$work" "$root/tests/fuzz/corpus/$t" "$regressions" >"$log" 2>&1; then
    echo "fuzz.sh: $t FOUND A PROBLEM; the input is in $regressions (see $log)" >&2
    status=1
  fi
  grep -E '^#[0-9]+ *DONE|stat::number_of_executed_units|stat::peak_rss_mb' "$log" | sed "s/^/  $t: /" >&2 || true
done
exit $status
