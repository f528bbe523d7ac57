#!/usr/bin/env bash
# Regenerates the example plots of docs/plots.md (docs/img/*.svg) from the bundled data.
#   scripts/docs_plots.sh [BUILD_DIR]     (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-build}/apps"
img=docs/img
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$img"

# Binary: logistic regression on heart_scale, scored on its test split.
"$bin/kestrel-train" -q -m logistic data/heart_scale/train.csv -o "$tmp/heart.json"
"$bin/kestrel-predict" "$tmp/heart.json" data/heart_scale/test.csv -o "$tmp/pred.csv" \
  --plot roc="$img/roc.svg" --plot pr="$img/pr.svg" --plot confusion="$img/confusion.svg" > /dev/null
# Reliability diagram of a calibrated SVM.
"$bin/kestrel-train" -q -m svc --calibrate sigmoid data/heart_scale/train.csv -o "$tmp/heart-cal.json"
"$bin/kestrel-predict" "$tmp/heart-cal.json" data/heart_scale/test.csv -o "$tmp/pred.csv" \
  --plot calibration="$img/calibration.svg" > /dev/null
# Multiclass: one-vs-rest curves of the out-of-fold probabilities on iris.
"$bin/kestrel-cv" -q -m logistic -k 5 data/iris/train.csv --plot roc="$img/roc-iris.svg" > /dev/null
# Grid search of an RBF SVM, as LIBSVM's grid.py.
"$bin/kestrel-gridsearch" -q -m svc -g 'C=2^-3:2^11:2' -g 'gamma=2^-13:2^1:2' -k 5 \
  data/heart_scale/train.csv --plot "$img/grid.svg" > /dev/null
# Learning curve of the same SVM.
if "$bin/kestrel-cv" --help | grep -q -- --learning-curve; then
  "$bin/kestrel-cv" -q -m svc -p C=2 -p gamma=0.03125 -k 5 --learning-curve 0.1:1.0:10 \
    data/heart_scale/train.csv --plot learning="$img/learning-curve.svg" > /dev/null
fi
# Explanations: permutation importance, SHAP summary and partial dependence with ICE curves
# of a gradient-boosted model on iris.
if [ -x "$bin/kestrel-explain" ]; then
  "$bin/kestrel-train" -q -m gbdt -p n_estimators=50 data/iris/train.csv -o "$tmp/iris-gbdt.json"
  "$bin/kestrel-explain" "$tmp/iris-gbdt.json" data/iris/test.csv --importance --shap-summary \
    --ice petal_length --ice-rows 30 --plot importance="$img/importance.svg" --plot shap="$img/shap-summary.svg" \
    --plot pdp="$img/pdp-ice.svg" > /dev/null
fi
ls -l "$img"
