#!/usr/bin/env bash
# The newcomer's first run: install, build, then train / predict with a report /
# 5-fold cross-validate on the bundled iris data.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh build -DKESTREL_TESTS=OFF
bin=build/apps
mkdir -p out
set -x
$bin/kestrel-train -m logistic --scale standard data/iris/train.csv -o out/iris-logistic.json
$bin/kestrel-predict out/iris-logistic.json data/iris/test.csv -o out/iris-predictions.csv --metrics
$bin/kestrel-cv -m logistic --scale standard -k 5 data/iris/train.csv
