#!/bin/sh
# Linear models trained from a stream (docs/large-data.md, "Linear models from a stream"):
# each model trained on the same generated file read whole and read as a stream (forced by
# --max-memory at 60% of the file's size, under which the whole read is refused), whole
# processes under /usr/bin/time, one run each (a pass is a whole read of the file: the stream's
# time is its passes times one read). Reports wall time, peak RSS, the stream's passes, rows
# a second per pass against the whole fit's rows a second, and the test metric of both models
# with their largest prediction difference. Writes bench/large_data/stream_results.md.
#   bench/large_data/stream_bench.sh BUILD_DIR [ROWS] [FEATURES]
set -eu
build=${1:?usage: stream_bench.sh BUILD_DIR [ROWS] [FEATURES]}
rows=${2:-2000000}
features=${3:-20}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
out="$work/report"
say() { echo "$*"; echo "$*" >> "$out"; }
export PATH="$build/apps:$PATH"

. "$here/stream_common.sh"

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
gen "$rows" "$features" clf "$work/clf.csv" 11
gen 200000 "$features" clf "$work/clf_test.csv" 12
gen "$rows" "$features" reg "$work/reg.csv" 13
gen 200000 "$features" reg "$work/reg_test.csv" 14
size=$(stat -c %s "$work/clf.csv")
limit=$((size * 6 / 10))
say "# Linear models from a stream: $rows x $features dense CSV ($((size / 1000000)) MB), stream forced by --max-memory $((limit / 1000000))M"
say ""
say "Machine load before: $load_before; after: LOAD_AFTER. One run each (whole processes, 2 threads)."
say ""
say "| model | path | wall s | peak RSS MB | passes | rows/s per pass | test metric | largest prediction difference |"
say "|---|---|---|---|---|---|---|---|"
run_pair() {  # label task file test params...
    label=$1; task=$2; file=$3; test=$4; shift 4
    /usr/bin/time -v kestrel-train "$@" --threads 2 "$file" -o "$work/whole.json" > /dev/null 2> "$work/whole.time"
    set -- "$@" --max-memory "$limit"
    /usr/bin/time -v kestrel-train "$@" --threads 2 --json "$file" -o "$work/stream.json" > "$work/stream.out" 2> "$work/stream.time"
    passes=$(/usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1])).get('stream_passes', 'whole'))" "$work/stream.out")
    scores=""; [ "$task" = clf ] && scores=--decision
    kestrel-predict "$work/whole.json" "$test" -o "$work/whole.pred" $scores
    kestrel-predict "$work/stream.json" "$test" -o "$work/stream.pred" $scores
    set -- $(rss_wall "$work/whole.time"); w_rss=$1; w_wall=$2
    set -- $(rss_wall "$work/stream.time"); s_rss=$1; s_wall=$2
    w_rate=$(echo "$rows / $w_wall" | bc)
    s_rate=$(echo "$rows * $passes / $s_wall" | bc 2>/dev/null || echo "-")
    say "| $label | whole | $w_wall | $w_rss | 1 read | $w_rate (read + fit) | $(metric "$task" "$test" "$work/whole.pred") | |"
    say "| $label | stream | $s_wall | $s_rss | $passes | $s_rate | $(metric "$task" "$test" "$work/stream.pred") | $(maxdiff "$work/whole.pred" "$work/stream.pred") |"
}
run_pair "logistic (tron)" clf "$work/clf.csv" "$work/clf_test.csv" -m logistic
run_pair "logistic (lbfgs)" clf "$work/clf.csv" "$work/clf_test.csv" -m logistic -p solver=lbfgs
run_pair "linear_svm (primal)" clf "$work/clf.csv" "$work/clf_test.csv" -m linear_svm -p solver=primal
run_pair "ridge" reg "$work/reg.csv" "$work/reg_test.csv" -m ridge
sed -i "s|LOAD_AFTER|$(cut -d' ' -f1-3 /proc/loadavg)|" "$out"
cp "$out" "$here/stream_results.md"
