#!/bin/sh
# kestrel-predict --contrib against XGBoost predict(pred_contribs=True) (docs/explanations.md):
# the same synthetic data, the same number of trees and depth, median of 3 timings of the
# contributions alone (the model trained once per tool beforehand), both on THREADS threads.
# Prints the figures and writes them, with the machine's load, to bench/explain/results.md
# (copied into bench/RESULTS.md by `bench/run --report`). Best on an idle machine:
#   bench/explain/contrib_bench.sh BUILD_DIR [ROWS=100000] [TREES=100] [DEPTH=6] [THREADS=2]
set -eu
build=${1:?usage: contrib_bench.sh BUILD_DIR [ROWS] [TREES] [DEPTH] [THREADS]}
rows=${2:-100000}; trees=${3:-100}; depth=${4:-6}; threads=${5:-2}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
/usr/bin/python3 "$here/xgboost_contrib.py" gen "$work" "$rows"
"$build/apps/kestrel-train" -q -m gbdt -p n_estimators="$trees" -p max_depth="$depth" -p learning_rate=0.1 -p min_data_in_leaf=0 \
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
ratio=$(echo "scale=2; $k / $x" | bc)
report="rows=$rows trees=$trees depth=$depth threads=$threads
- kestrel-predict --contrib (whole process: read the model and CSV, explain, write the CSV): median ${k}s
- xgboost predict(pred_contribs=True) (in memory, after DMatrix construction): median ${x}s
- time ratio kestrel / xgboost: ${ratio}x"
echo "$report"
{
    echo "# TreeSHAP contributions: kestrel-predict --contrib against XGBoost pred_contribs"
    echo
    echo "$(date -u +%Y-%m-%dT%H:%M:%SZ), kestrel $(git -C "$here" describe --always --dirty 2>/dev/null || echo unknown)," \
         "XGBoost $(/usr/bin/python3 -c 'import xgboost; print(xgboost.__version__)'), $(nproc) cores; load average" \
         "(1, 5, 15 min) before: $load_before; after: $(cut -d' ' -f1-3 /proc/loadavg)." \
         "Command: \`bench/explain/contrib_bench.sh BUILD $rows $trees $depth $threads\`."
    echo
    echo "- $report"
    echo
    echo "Both models are gbdt / XGBoost hist regressions with the same number of trees and depth on"
    echo "the same 10-feature synthetic data (bench/explain/xgboost_contrib.py), so the trees have"
    echo "the same sizes but not the same splits. kestrel's time includes reading the CSV and writing"
    echo "a CSV of n x 11 numbers; XGBoost's is the call alone, so the ratio favours XGBoost."
} > "$here/results.md"
