#!/usr/bin/env bash
# Installs what kestrel needs to build and test on Debian 12, from Debian's packages
# (chromium: the tests render kestrel's SVG plots in it, headless; groff-base, man-db,
# bash-completion, zsh and pkgconf: the install test checks the man pages, completions and
# pkg-config file; dpkg-dev and lintian: scripts/package.sh builds and checks the .deb;
# libopenmpi-dev and openmpi-bin: the MPI module and the multi-rank tests, docs/distributed.md;
# universal-ctags: the long_functions test measures functions by their end lines;
# clang-tidy: scripts/tidy.sh checks names and bug-prone patterns, a stage of scripts/test.sh;
# zlib1g-dev, libzstd-dev, liblzma-dev, libbz2-dev: the readers of gzip, zstd, xz and bzip2 input;
# gzip, zstd, xz-utils, bzip2: the tests and the bench compress their fixtures with them;
# python3-numpy, -scipy, -sklearn, -pytest, -pandas: the Python package's tests, docs/python.md;
# python3-onnx, xgboost, python3-xgboost: the exchange tests check exported ONNX files with
# onnx.checker and exported or imported XGBoost JSON models with XGBoost 1.7, docs/exchange.md).
set -euo pipefail
packages=(g++ cmake ninja-build libcli11-dev libeigen3-dev nlohmann-json3-dev doctest-dev libfast-float-dev liblbfgspp-dev libspectra-dev libnanoflann-dev coinor-libclp-dev libopenblas-dev liblapacke-dev locales chromium
          groff-base man-db bash-completion zsh pkgconf dpkg-dev lintian libopenmpi-dev openmpi-bin
          universal-ctags clang-tidy zlib1g-dev libzstd-dev liblzma-dev libbz2-dev gzip zstd xz-utils bzip2
          python3-numpy python3-scipy python3-sklearn python3-pytest python3-pandas
          python3-onnx xgboost python3-xgboost)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  echo "setup: installing ${missing[*]}" >&2
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# The locale-independence tests run under de_DE.UTF-8 (decimal comma).
if ! locale -a 2>/dev/null | grep -qi '^de_DE\.utf-\?8$'; then
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  echo "setup: generating the de_DE.UTF-8 locale" >&2
  $sudo_cmd sed -i 's/^# *\(de_DE.UTF-8 UTF-8\)/\1/' /etc/locale.gen
  grep -q '^de_DE.UTF-8 UTF-8' /etc/locale.gen || echo 'de_DE.UTF-8 UTF-8' | $sudo_cmd tee -a /etc/locale.gen >/dev/null
  $sudo_cmd locale-gen >/dev/null
fi
# onnxruntime-node bundles a CPU ONNX Runtime; the exchange tests score exported ONNX models
# with it (docs/exchange.md). Its install script downloads from a host these machines cannot
# reach and is not needed for the CPU runtime, hence --ignore-scripts.
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ort_prefix="$repo/.deps/onnxruntime"
ort_version=1.31.1
if ! grep -qs "\"version\": \"$ort_version\"" "$ort_prefix/node_modules/onnxruntime-node/package.json"; then
  if ! command -v npm >/dev/null; then
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
  fi
  echo "setup: installing onnxruntime-node $ort_version into $ort_prefix" >&2
  npm install --prefix "$ort_prefix" --ignore-scripts --no-audit --no-fund --loglevel=error \
    "onnxruntime-node@$ort_version" >/dev/null
fi
