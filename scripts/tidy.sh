#!/usr/bin/env bash
# Runs clang-tidy (.clang-tidy: the naming rules and the bug-prone checks) over every source of
# lib/ and apps/, and fails on any finding. It parses the unity batches of a configure of its
# own (no precompiled header: clang cannot read GCC's), so Eigen's and JSON's headers are
# parsed once per batch of sources. Usage: scripts/tidy.sh [BUILD_DIR] (default build-tidy).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build-tidy}
tidy=$(command -v run-clang-tidy-14 || command -v run-clang-tidy)
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=16 \
  -DCMAKE_DISABLE_PRECOMPILE_HEADERS=ON -DKESTREL_TESTS=OFF -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
root=$(pwd)
# Findings in the library's and the commands' own files (the batches include them as headers).
"$tidy" -p "$dir" -j "$(nproc)" -quiet -header-filter="^$root/(lib|apps)/" "$dir/(lib|apps)/" 2>&1 |
  grep -vE '^[0-9]+ warnings? (and [0-9]+ errors? )?generated|^Suppressed [0-9]+ warnings|^Use -header-filter|^clang-tidy-14 |^Running clang-tidy' |
  tee "$dir/tidy.log" >&2 || true
if grep -qE '(warning|error): ' "$dir/tidy.log"; then
  echo "clang-tidy: $(grep -cE '(warning|error): ' "$dir/tidy.log") findings (listed above, and in $dir/tidy.log)" >&2
  exit 1
fi
echo "clang-tidy: every source of lib/ and apps/ is clean"
