#!/usr/bin/env bash
# The grid.py equivalent for LIBLINEAR: 5-fold cross-validation (liblinear-train -v 5) at each
# C = 2^-5, 2^-4, ..., 2^5, one point after another, as grid.py runs svm-train -v 5.
# Usage: liblinear_grid.sh DATA.libsvm [liblinear-train options...]
set -euo pipefail
data="$1"; shift
for e in $(seq -5 5); do
  c="$(awk -v e="$e" 'BEGIN { printf "%.10g", 2^e }')"
  acc="$(liblinear-train "$@" -c "$c" -v 5 -q "$data" | awk -F'= ' '/Accuracy/ {print $2}')"
  echo "C=2^$e accuracy=$acc"
done
