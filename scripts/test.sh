#!/usr/bin/env bash
# Installs, builds (warnings are errors) and runs every test. With
# KESTREL_SANITIZERS=1 it then runs the same suite built with AddressSanitizer +
# UndefinedBehaviorSanitizer (to become the default once the whole suite has been
# verified clean under them: issue 9). `.ci/run` calls this.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
jobs=$(nproc)

echo "== build (Release, -Werror)"
scripts/build.sh build -DKESTREL_WERROR=ON -DKESTREL_TESTS=ON
echo "== tests"
(cd build && ctest --output-on-failure -j"$jobs")

if [ "${KESTREL_SANITIZERS:-0}" = "1" ]; then
  echo "== build (address + undefined sanitizers)"
  BUILD_TYPE=RelWithDebInfo scripts/build.sh build-asan -DKESTREL_WERROR=ON -DKESTREL_TESTS=ON -DKESTREL_SANITIZE=ON
  echo "== tests under sanitizers"
  (cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
     ctest --output-on-failure -j"$jobs")
fi
