#!/usr/bin/env bash
# Installs the benchmark anchors from Debian packages and builds kestrel in Release into
# build-bench/. Safe to re-run: apt-get skips what is installed, cmake rebuilds incrementally.
# Usage: bench/setup.sh [--no-build]
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${KESTREL_BENCH_BUILD:-$repo/build-bench}"
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi

# The anchors every family is judged against (see docs/benchmarks.md), plus the measuring tools.
anchors=(
  libsvm-tools liblinear-tools
  python3-numpy python3-pandas python3-sklearn
  r-base-core r-cran-ranger r-cran-glmnet r-cran-data.table
  hyperfine time libopenblas0-pthread
  # the public tables of bench/tables/make_debian_tables.sh and make_unseen_tables.sh
  r-cran-modeldata r-cran-mlbench r-cran-cardata
)
# XGBoost is packaged as a Python module and as a CLI; take whichever this release carries.
optional=(python3-xgboost xgboost)

export DEBIAN_FRONTEND=noninteractive
# Another apt-get (a shared machine, unattended upgrades) may hold the lock: wait for it.
apt_opts=(-o DPkg::Lock::Timeout=900)
"${sudo_cmd[@]}" apt-get "${apt_opts[@]}" update -qq
wanted=("${anchors[@]}")
for pkg in "${optional[@]}"; do
  candidate="$(apt-cache policy "$pkg" | awk '/Candidate:/ {print $2}')"
  if [[ -n "$candidate" && "$candidate" != "(none)" ]]; then wanted+=("$pkg"); fi
done
"${sudo_cmd[@]}" apt-get "${apt_opts[@]}" install -y -qq --no-install-recommends "${wanted[@]}"

# Build dependencies come from the project's own setup script when it is there.
if [[ -x "$repo/scripts/setup.sh" ]]; then
  "$repo/scripts/setup.sh"
elif [[ -f "$repo/scripts/setup.sh" ]]; then
  bash "$repo/scripts/setup.sh"
else
  "${sudo_cmd[@]}" apt-get "${apt_opts[@]}" install -y -qq --no-install-recommends \
    build-essential cmake ninja-build libeigen3-dev nlohmann-json3-dev libcli11-dev \
    doctest-dev libfast-float-dev liblbfgspp-dev
fi

if [[ "${1:-}" == "--no-build" ]]; then exit 0; fi

generator=()
if command -v ninja >/dev/null; then generator=(-G Ninja); fi
cmake -S "$repo" -B "$build_dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DKESTREL_BENCH=ON -DKESTREL_TESTS=OFF --no-warn-unused-cli >/dev/null
cmake --build "$build_dir" -j"$(nproc)" --target kestrel-train kestrel-predict kestrel-cv kestrel-gridsearch
echo "kestrel built in $build_dir/apps"
