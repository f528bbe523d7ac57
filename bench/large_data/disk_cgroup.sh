#!/bin/sh
# gbdt's quantized store in pages on disk under a real memory limit (issue 50,
# docs/large-data.md "Pages on disk"): a CSV of about 4 GB (COPIES copies of a generated
# 100,000 x 400 table, bench/loading/generate.py seed 20240601; 400 M cells at 10 copies:
# wide, so that the rows' own state, O(rows), fits the limit beside the pages) trained by gbdt
#   - with its store in memory (--max-memory 8G: the file is over a quarter of it, so the
#     store is taken, and its codes fit), no limit;
#   - inside a cgroup-v1 memory group of LIMIT (memory.limit_in_bytes; the page cache counts
#     in it) with --max-memory LIMIT, so that the codes go to disk and the page cache cannot
#     hold them;
#   - and XGBoost 1.7's external memory (`xgboost` CLI, `data=FILE.libsvm#cache`, hist) in
#     the same cgroup, the same rounds, depth, eta and threads.
# Whole processes under /usr/bin/time -v, one run each, SOURCE_DATE_EPOCH pinned so that the
# two kestrel model files can be compared byte for byte. Needs root (the cgroup) and about
# 2.5 x the CSV's size free in DIR. Writes bench/large_data/disk_cgroup_results.md.
# XGBoost is stopped after XGB_TIMEOUT seconds (600).
#   bench/large_data/disk_cgroup.sh BUILD_DIR [COPIES=10] [LIMIT_MB=200] [ROUNDS=20] [DIR]
set -eu
build=${1:?usage: disk_cgroup.sh BUILD_DIR [COPIES] [LIMIT_MB] [ROUNDS] [DIR]}
copies=${2:-10}
limit_mb=${3:-200}
rounds=${4:-20}
dir=${5:-${TMPDIR:-/tmp}}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d "$dir/diskcg.XXXXXX")
cg=/sys/fs/cgroup/memory/kestrel-disk-bench
cleanup() { rm -rf "$work"; rmdir "$cg" 2>/dev/null || true; }
trap cleanup EXIT
export SOURCE_DATE_EPOCH=1700000000
export TMPDIR="$work"

data=$root/bench/data/generated
base=dense_100000x400
one=$data/$base.csv
[ -s "$one" ] || /usr/bin/python3 "$root/bench/loading/generate.py" 100000 400 20240601 "$one" "$data/$base.libsvm"
{ cat "$one"; i=1; while [ "$i" -lt "$copies" ]; do tail -n +2 "$one"; i=$((i + 1)); done; } > "$work/big.csv"
i=0; while [ "$i" -lt "$copies" ]; do cat "$data/$base.libsvm"; i=$((i + 1)); done > "$work/big.libsvm"
csv_mb=$(( $(stat -c %s "$work/big.csv") / 1000000 ))
mkdir -p "$cg"
echo $((limit_mb * 1024 * 1024)) > "$cg/memory.limit_in_bytes"
in_cgroup() { sh -c "echo \$\$ > $cg/cgroup.procs; exec \"\$@\"" sh "$@"; }
rss_wall() {  # time -v output -> "RSS_MB WALL_S"
    awk '/Maximum resident/ {r=$6/1024} /Elapsed \(wall/ {split($8,t,":"); w=(t[1]*60)+t[2]; if (length(t)==3) w=t[1]*3600+t[2]*60+t[3]} END {printf "%.0f %.1f", r, w}' "$1"
}
params="-p n_estimators=$rounds -p max_depth=6 -p learning_rate=0.3 --threads 2"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

/usr/bin/time -v "$build/apps/kestrel-train" -m gbdt $params --max-memory 8G --json "$work/big.csv" \
    -o "$work/memory.json" > "$work/memory.out" 2> "$work/memory.time"
in_memory=$(/usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1])).get('rows_read', 'doubles'))" "$work/memory.out")
echo 0 > "$cg/memory.max_usage_in_bytes" 2>/dev/null || true
in_cgroup /usr/bin/time -v "$build/apps/kestrel-train" -m gbdt $params --max-memory "${limit_mb}M" --json \
    "$work/big.csv" -o "$work/disk.json" > "$work/disk.out" 2> "$work/disk.time"
disk_cg_peak=$(( $(cat "$cg/memory.max_usage_in_bytes") / 1048576 ))
disk_failcnt=$(cat "$cg/memory.failcnt")
same=$(cmp -s "$work/memory.json" "$work/disk.json" && echo "identical" || echo "DIFFERENT")
on_disk=$(/usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1])).get('rows_read', 'doubles'))" "$work/disk.out")

echo 0 > "$cg/memory.max_usage_in_bytes" 2>/dev/null || true
xgb_status=ok
in_cgroup timeout "${XGB_TIMEOUT:-600}" /usr/bin/time -v xgboost /dev/null task=train "data=$work/big.libsvm#$work/dtrain.cache" \
    tree_method=hist max_depth=6 eta=0.3 num_round="$rounds" nthread=2 "model_out=$work/xgb.model" \
    > "$work/xgb.out" 2> "$work/xgb.time" || xgb_status="failed (exit $?; see below)"
xgb_cg_peak=$(( $(cat "$cg/memory.max_usage_in_bytes") / 1048576 ))

set -- $(rss_wall "$work/memory.time"); m_rss=$1; m_wall=$2
set -- $(rss_wall "$work/disk.time"); d_rss=$1; d_wall=$2
set -- $(rss_wall "$work/xgb.time"); x_rss=$1; x_wall=$2
{
    echo "# gbdt's store on disk under a ${limit_mb} MB cgroup"
    echo
    echo "$copies copies of a generated 100,000 x 400 table: $((copies * 100000)) rows, $csv_mb MB of CSV;"
    echo "gbdt $rounds rounds, max_depth 6, learning_rate 0.3, 2 threads; one run each, whole processes."
    echo "Load before: $load_before; after: $(cut -d' ' -f1-3 /proc/loadavg). $(date -u +%Y-%m-%dT%H:%M:%SZ),"
    echo "kestrel $(git -C "$root" describe --always --dirty 2>/dev/null || echo unknown)."
    echo
    echo "| run | wall s | peak RSS MB | cgroup peak MB | note |"
    echo "|---|---:|---:|---:|---|"
    echo "| kestrel, store in memory (--max-memory 8G, no cgroup) | $m_wall | $m_rss | | rows read: $in_memory |"
    echo "| kestrel, store on disk (cgroup ${limit_mb} MB, --max-memory ${limit_mb}M) | $d_wall | $d_rss | $disk_cg_peak | rows read: $on_disk; limit hits (failcnt): $disk_failcnt; model file $same to the in-memory one |"
    echo "| XGBoost 1.7.4 external memory (#cache, hist; same cgroup) | $x_wall | $x_rss | $xgb_cg_peak | $xgb_status |"
    echo
    if [ "$xgb_status" = ok ]; then
        echo "disk / memory wall time: $(echo "scale=2; $d_wall / $m_wall" | bc)x; kestrel on disk / XGBoost external memory: $(echo "scale=2; $d_wall / $x_wall" | bc)x."
    else
        echo "disk / memory wall time: $(echo "scale=2; $d_wall / $m_wall" | bc)x; XGBoost's external memory did not finish in the group (exit 137: killed by the group's OOM killer)."
        echo; echo "XGBoost's last lines:"; echo '```'; tail -n 5 "$work/xgb.out" "$work/xgb.time" | head -20; echo '```'
    fi
} | tee "$here/disk_cgroup_results.md"
