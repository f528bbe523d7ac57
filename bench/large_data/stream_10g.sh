#!/bin/sh
# Streaming logistic on a 10 GB file at bounded memory (issue 50, docs/large-data.md): a
# generated 2,000,000 x 20 table (gen_linear.py, seed 11; 370 MB) written COPIES times into
# one file (27: 10 GB), trained by `kestrel-train -m logistic` as a stream (--max-memory 4G:
# the file is over half of it), against the in-memory fit of one copy with C multiplied by
# COPIES. LIBLINEAR's objective ½‖w‖² + C Σ loss makes the two the same problem (k copies of a
# row at C are one row at kC), so their models should agree to the solvers' rounding; both
# score the same generated test rows (seed 12). One run each, whole processes, 2 threads.
# Reports wall time, peak RSS, passes, rows a second per pass against the in-memory fit's,
# test accuracy and the largest decision-value difference. Writes
# bench/large_data/stream_10g_results.md. The big file goes to DIR (default $TMPDIR or /tmp;
# check `df` first) and is deleted at the end.
#   bench/large_data/stream_10g.sh BUILD_DIR [COPIES=27] [DIR]
set -eu
build=${1:?usage: stream_10g.sh BUILD_DIR [COPIES] [DIR]}
copies=${2:-27}
dir=${3:-${TMPDIR:-/tmp}}
rows=${KESTREL_BENCH_ROWS:-2000000}  # for a smoke run
features=20
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "$dir/stream10g.XXXXXX"); trap 'rm -rf "$work"' EXIT
out="$work/report"
say() { echo "$*"; echo "$*" >> "$out"; }
export PATH="$build/apps:$PATH"
. "$here/stream_common.sh"

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
gen "$rows" "$features" clf "$work/one.csv" 11
gen 200000 "$features" clf "$work/test.csv" 12
{ cat "$work/one.csv"; i=1; while [ "$i" -lt "$copies" ]; do tail -n +2 "$work/one.csv"; i=$((i + 1)); done; } > "$work/big.csv"
size=$(stat -c %s "$work/big.csv")

/usr/bin/time -v kestrel-train -m logistic -p C="$copies" --threads 2 "$work/one.csv" -o "$work/whole.json" \
    > /dev/null 2> "$work/whole.time"
/usr/bin/time -v kestrel-train -m logistic --max-memory 4G --threads 2 --json "$work/big.csv" -o "$work/stream.json" \
    > "$work/stream.out" 2> "$work/stream.time"
passes=$(/usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1])).get('stream_passes', 'whole'))" "$work/stream.out")
kestrel-predict "$work/whole.json" "$work/test.csv" -o "$work/whole.pred" --decision
kestrel-predict "$work/stream.json" "$work/test.csv" -o "$work/stream.pred" --decision
set -- $(rss_wall "$work/whole.time"); w_rss=$1; w_wall=$2
set -- $(rss_wall "$work/stream.time"); s_rss=$1; s_wall=$2
say "# Streaming logistic on a $((size / 1000000000)) GB file"
say ""
say "$copies copies of a $rows x $features generated table ($((size / 1000000)) MB, $((rows * copies)) rows), trained as a"
say "stream under --max-memory 4G, against the in-memory fit of one copy with C = $copies (the same"
say "objective). Load before: $load_before; after: $(cut -d' ' -f1-3 /proc/loadavg). One run each, 2 threads."
say ""
say "| fit | rows | wall s | peak RSS MB | passes | rows/s per pass | test accuracy | largest decision difference |"
say "|---|---|---|---|---|---|---|---|"
say "| in memory, one copy, C = $copies | $rows | $w_wall | $w_rss | 1 read | $(echo "$rows / $w_wall" | bc) (read + fit) | $(metric clf "$work/test.csv" "$work/whole.pred") | |"
say "| stream, $copies copies | $((rows * copies)) | $s_wall | $s_rss | $passes | $(echo "$rows * $copies * $passes / $s_wall" | bc) | $(metric clf "$work/test.csv" "$work/stream.pred") | $(maxdiff "$work/whole.pred" "$work/stream.pred") |"
cp "$out" "$here/stream_10g_results.md"
