#!/usr/bin/env bash
# Installs, builds (warnings are errors) and runs every test (the "install" ctest checks
# `cmake --install`, the example program, man pages and completions), builds and checks
# the .deb (scripts/package.sh), then builds and runs the
# same suite under AddressSanitizer + UndefinedBehaviorSanitizer, where any report
# fails the run (docs/reliability.md). KESTREL_SANITIZERS=0 skips the second stage.
# `.ci/run` calls this.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
jobs=$(nproc)
stage() { echo "== $1 (the previous stage took $(( SECONDS - stage_start )) s)"; stage_start=$SECONDS; }
stage_start=$SECONDS

stage "build (Release, -Werror)"
scripts/build.sh build -DKESTREL_WERROR=ON -DKESTREL_TESTS=ON
stage "tests"
(cd build && ctest --output-on-failure -j"$jobs")
stage "clang-tidy (scripts/tidy.sh: naming rules and bug-prone checks, .clang-tidy)"
scripts/tidy.sh build-tidy
stage "Debian package (scripts/package.sh)"
scripts/package.sh build

if [ "${KESTREL_SANITIZERS:-1}" = "1" ]; then
  # -O1 keeps the build and the run short; a Debug build type keeps Eigen's own bounds
  # assertions on. No -Werror here: GCC 12 reports false maybe-uninitialized warnings
  # under -fsanitize, and warnings are already enforced by the Release build above.
  stage "build (address + undefined sanitizers, -O1)"
  BUILD_TYPE=Debug scripts/build.sh build-asan -DKESTREL_WERROR=OFF -DKESTREL_TESTS=ON -DKESTREL_SANITIZE=ON \
    "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g1"
  stage "tests under sanitizers"
  (cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:halt_on_error=1:check_initialization_order=1 \
     UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ctest --output-on-failure -j"$jobs")
fi
stage "done"
