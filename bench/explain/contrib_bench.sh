#!/bin/sh
# kestrel-predict --contrib against XGBoost predict(pred_contribs=True) (docs/explanations.md):
# the same synthetic data, the same number of trees and depth, median of 3 timings of the
# contributions alone (the model trained once per tool beforehand), both on THREADS threads.
# Run on an idle machine (not while anything builds):
#   bench/explain/contrib_bench.sh BUILD_DIR [ROWS=100000] [TREES=100] [DEPTH=6] [THREADS=2]
set -eu
build=${1:?usage: contrib_bench.sh BUILD_DIR [ROWS] [TREES] [DEPTH] [THREADS]}
rows=${2:-100000}; trees=${3:-100}; depth=${4:-6}; threads=${5:-2}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
/usr/bin/python3 "$here/xgboost_contrib.py" gen "$work" "$rows"
"$build/apps/kestrel-train" -q -m gbdt -p n_estimators="$trees" -p max_depth="$depth" -p learning_rate=0.1 \
    --threads "$threads" "$work/train.csv" -o "$work/gbdt.json"
times=""
for i in 1 2 3; do
    s=$(date +%s.%N)
    "$build/apps/kestrel-predict" "$work/gbdt.json" "$work/test.csv" --contrib --threads "$threads" -o "$work/contrib.csv"
    e=$(date +%s.%N)
    times="$times $(echo "$e - $s" | bc)"
done
k=$(echo $times | tr ' ' '\n' | sort -n | sed -n 2p)
x=$(/usr/bin/python3 "$here/xgboost_contrib.py" time "$work" "$trees" "$depth" "$threads")
echo "rows=$rows trees=$trees depth=$depth threads=$threads"
echo "kestrel-predict --contrib (read, explain, write CSV): ${k}s"
echo "xgboost predict(pred_contribs=True) (in memory):      ${x}s"
