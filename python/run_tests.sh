#!/usr/bin/env bash
# ctest "python": the Python package's pytest suite (python/tests), with the package from
# the source tree and the library from the build.
#   run_tests.sh LIBRARY BUILD_DIR PYTHON...
# The first interpreter given that has numpy, scipy, scikit-learn and pytest runs it:
# CMake's Python3 first, then Debian's /usr/bin/python3 (scripts/setup.sh installs the
# modules for it, and a pyenv or venv interpreter found first may not have them).
# Exit 77 (skipped) when none has them.
set -euo pipefail
lib=$1
build=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
for py in "$@"; do
  [ -n "$py" ] && [ -x "$py" ] || continue
  if "$py" -c 'import numpy, scipy, sklearn, pytest' 2>/dev/null; then
    cd "$here"
    export PYTHONPATH="$here" KESTREL_LIBRARY="$lib" KESTREL_BUILD_DIR="$build"
    exec "$py" -m pytest -q -p no:cacheprovider tests
  fi
done
echo "python: skipped: no interpreter among ($*) has numpy, scipy, sklearn and pytest (scripts/setup.sh installs them)" >&2
exit 77
