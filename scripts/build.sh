#!/usr/bin/env bash
# Configures and builds kestrel (Release) into build/ or the directory given.
# Extra arguments go to cmake's configure step. The library and the commands build as unity
# builds (CMake joins each target's sources into batches): Eigen's and JSON's templates are
# compiled once per batch instead of once per file, half the compile time on 2 cores.
# KESTREL_UNITY=0 builds file by file, which is faster for the edit-compile loop
# (docs/install.md).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}
shift || true
unity=ON
[ "${KESTREL_UNITY:-1}" = "0" ] && unity=OFF
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-Release} -DCMAKE_UNITY_BUILD=$unity "$@" >/dev/null
cmake --build "$dir" -j"$(nproc)"
