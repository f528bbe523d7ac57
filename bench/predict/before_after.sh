#!/bin/sh
# The scoring paths issue 51 touched, before and after, side by side in one run: the same
# data and the same parameters, each build training its own models (a model file of one
# version is not always readable by the other). Median of 5 wall-clock timings each, on
# THREADS threads:
#   logistic, whole file        reading a 60 MB CSV (the readers' block reads and checks)
#   logistic, piped             the same through a pipe (the stream's one-pass record scan)
#   gbdt 100 x depth 6, whole   the tree walk (AVX-512 masked intrinsics, finite-score check)
#   gbdt --contrib, 20,000 rows TreeSHAP (linear path memory, the parallel region's catch)
#   forest 50 trees, train      the rank buckets' memory check
# Prints a markdown table, new/old ratios (below 1 is faster now).
#   bench/predict/before_after.sh OLD_BUILD NEW_BUILD [THREADS=2]
set -eu
old=${1:?usage: before_after.sh OLD_BUILD NEW_BUILD [THREADS]}; new=${2:?}; threads=${3:-2}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
/usr/bin/python3 "$here/stream_data.py" "$work"
head -n 20001 "$work/score.csv" > "$work/contrib.csv"
for b in old new; do
    eval dir=\$$b
    "$dir/apps/kestrel-train" -q -m gbdt -p n_estimators=100 -p max_depth=6 --threads "$threads" \
        "$work/train.csv" -o "$work/gbdt-$b.json"
    "$dir/apps/kestrel-train" -q -m logistic --threads "$threads" "$work/train.csv" -o "$work/logistic-$b.json"
done
median5() { sort -n | sed -n 3p; }
time_it() { s=$(date +%s.%N); "$@" > /dev/null; e=$(date +%s.%N); echo "$e - $s" | bc; }
run() {  # build-name case
    eval dir=\$$1; p="$dir/apps/kestrel-predict"; t="$dir/apps/kestrel-train"
    case $2 in
        whole) time_it "$p" "$work/logistic-$1.json" "$work/score.csv" --chunk-bytes 0 --threads "$threads" -o /dev/null ;;
        piped) s=$(date +%s.%N); cat "$work/score.csv" | "$p" "$work/logistic-$1.json" - --threads "$threads" -o /dev/null
               e=$(date +%s.%N); echo "$e - $s" | bc ;;
        gbdt) time_it "$p" "$work/gbdt-$1.json" "$work/score.csv" --chunk-bytes 0 --threads "$threads" -o /dev/null ;;
        contrib) time_it "$p" "$work/gbdt-$1.json" "$work/contrib.csv" --contrib --threads "$threads" -o /dev/null ;;
        forest) time_it "$t" -q -m forest -p n_estimators=50 --threads "$threads" "$work/train.csv" -o "$work/f.json" ;;
    esac
}
echo "| case | old median s | new median s | new/old |"
echo "|---|---:|---:|---:|"
for c in whole piped gbdt contrib forest; do
    # Interleaved, so that a change in the machine's load falls on both builds alike.
    : > "$work/t-old"; : > "$work/t-new"
    for i in 1 2 3 4 5; do run old $c >> "$work/t-old"; run new $c >> "$work/t-new"; done
    o=$(median5 < "$work/t-old"); n=$(median5 < "$work/t-new")
    echo "| $c | $o | $n | $(echo "scale=3; $n / $o" | bc) |"
done
