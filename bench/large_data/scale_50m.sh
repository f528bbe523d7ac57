#!/bin/sh
# One byte a cell at scale (issue 50, docs/large-data.md): a generated 1,000,000 x 40 table
# (bench/loading/generate.py seed 20241207, binary label) written COPIES times into one CSV
# (50: 50 M rows, about 20 GB, 2 G cells; 16 GB as doubles), trained by gbdt, ROUNDS rounds
# (100), max_depth 6, learning_rate 0.3, 2 threads, under a memory limit of LIMIT_MB (4096):
#   kestrel  `kestrel-train -m gbdt --max-memory LIMIT`: the quantized store, its codes in
#            memory when they, the rows' labels and the fit's own arrays fit the limit
#            together (else on disk); peak RSS of the whole process under /usr/bin/time -v;
#   xgboost  XGBoost 1.7.4's CLI on the same CSV (`data=FILE?format=csv&label_column=0`,
#            tree_method=hist, the same rounds, depth, eta and threads) inside a cgroup-v1
#            memory group of LIMIT_MB (XGBoost has no memory option of its own; its CLI
#            reads a CSV into memory: `#cache` external memory takes LIBSVM files only);
#            stopped after XGB_TIMEOUT seconds (1200).
# WHICH picks the runs (kestrel, xgboost or both) so that each piece stays under twenty
# minutes; each run appends its row to bench/large_data/scale_50m_results.md. The CSV is
# kept in DIR between pieces (KEEP=1) or deleted at the end. Needs root for the cgroup and
# about 21 GB free in DIR (check `df`).
#   bench/large_data/scale_50m.sh BUILD_DIR [WHICH=both] [COPIES=50] [LIMIT_MB=4096] [ROUNDS=100] [DIR]
set -eu
build=${1:?usage: scale_50m.sh BUILD_DIR [WHICH] [COPIES] [LIMIT_MB] [ROUNDS] [DIR]}
which=${2:-both}
copies=${3:-50}
limit_mb=${4:-4096}
rounds=${5:-100}
dir=${6:-${TMPDIR:-/tmp}}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
results=$here/scale_50m_results.md
data=$root/bench/data/generated
one=$data/dense_1000000x40.csv
big=$dir/kestrel-scale-${copies}x.csv
work=$(mktemp -d "$dir/scale50m.XXXXXX")
cg=/sys/fs/cgroup/memory/kestrel-scale-bench
cleanup() {
    rm -rf "$work"
    rmdir "$cg" 2>/dev/null || true
    [ "${KEEP:-0}" = 1 ] || rm -f "$big"
}
trap cleanup EXIT
export TMPDIR="$work"

[ -s "$one" ] || /usr/bin/python3 "$root/bench/loading/generate.py" 1000000 40 20241207 "$one" "$work/one.libsvm"
if [ ! -s "$big" ]; then
    { cat "$one"; i=1; while [ "$i" -lt "$copies" ]; do tail -n +2 "$one"; i=$((i + 1)); done; } > "$big.tmp"
    mv "$big.tmp" "$big"
fi
csv_mb=$(( $(stat -c %s "$big") / 1000000 ))
rows=$((copies * 1000000))
rss_wall() {  # time -v output -> "RSS_MB WALL_S"
    awk '/Maximum resident/ {r=$6/1024} /Elapsed \(wall/ {split($8,t,":"); w=(t[1]*60)+t[2]; if (length(t)==3) w=t[1]*3600+t[2]*60+t[3]} END {printf "%.0f %.1f", r, w}' "$1"
}
[ -s "$results" ] || {
    echo "# gbdt on 50 M rows x 40 under a 4 GB limit"
    echo
    echo "\`bench/large_data/scale_50m.sh\`: $copies copies of a generated 1,000,000 x 40 table ($rows rows,"
    echo "$csv_mb MB of CSV, $((rows * 40 / 1000000)) M cells); gbdt $rounds rounds, max_depth 6, learning_rate 0.3, 2 threads;"
    echo "one run each, whole processes. A limit of $limit_mb MB is $((limit_mb * 1048576)) bytes."
    echo
    echo "| run | when | commit | load before | wall s | peak RSS MB | note |"
    echo "|---|---|---|---|---:|---:|---|"
} > "$results"
commit=$(git -C "$root" describe --always --dirty 2>/dev/null || echo unknown)
params="-p n_estimators=$rounds -p max_depth=6 -p learning_rate=0.3 --threads 2"

if [ "$which" = kestrel ] || [ "$which" = both ]; then
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    when=$(date -u +%Y-%m-%dT%H:%MZ)
    status=ok
    /usr/bin/time -v "$build/apps/kestrel-train" -m gbdt $params --max-memory "${limit_mb}M" --json "$big" \
        -o "$work/kestrel.json" > "$work/kestrel.out" 2> "$work/kestrel.time" || status="failed (exit $?)"
    set -- $(rss_wall "$work/kestrel.time")
    read_as=$(/usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1])).get('rows_read', 'doubles'))" \
        "$work/kestrel.out" 2>/dev/null || echo "?")
    fit_s=$(/usr/bin/python3 -c "import json,sys; print(round(json.load(open(sys.argv[1]))['fit_seconds'], 1))" \
        "$work/kestrel.out" 2>/dev/null || echo "?")
    echo "| kestrel-train --max-memory ${limit_mb}M | $when | $commit | $load | $2 | $1 | $status; rows read: $read_as; fit ${fit_s} s |" >> "$results"
fi

if [ "$which" = xgboost ] || [ "$which" = both ]; then
    tail -n +2 "$big" > "$work/big_noheader.csv"  # XGBoost's CSV parser takes no header
    mkdir -p "$cg"
    echo $((limit_mb * 1024 * 1024)) > "$cg/memory.limit_in_bytes"
    echo 0 > "$cg/memory.max_usage_in_bytes" 2>/dev/null || true
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    when=$(date -u +%Y-%m-%dT%H:%MZ)
    status=ok
    sh -c "echo \$\$ > $cg/cgroup.procs; exec timeout ${XGB_TIMEOUT:-1200} /usr/bin/time -v xgboost /dev/null task=train \
        'data=$work/big_noheader.csv?format=csv&label_column=0' tree_method=hist max_depth=6 eta=0.3 \
        num_round=$rounds nthread=2 model_out=$work/xgb.model" > "$work/xgb.out" 2> "$work/xgb.time" ||
        status="failed (exit $?: 124 is the timeout, 137 the group's OOM killer)"
    cg_peak=$(( $(cat "$cg/memory.max_usage_in_bytes") / 1048576 ))
    set -- $(rss_wall "$work/xgb.time")
    done_rounds=$(grep -c '^\[[0-9:]*\] \[[0-9]*\]' "$work/xgb.out" || true)
    echo "| xgboost 1.7.4 CLI, CSV, in a ${limit_mb} MB cgroup | $when | $commit | $load | $2 | $1 | $status; cgroup peak $cg_peak MB; rounds done: $done_rounds |" >> "$results"
fi
cat "$results"
