#!/bin/sh
# Training on rows spread over MPI ranks (kestrel-train --shard, docs/distributed.md):
# each distributed trainer run as one process on 1 and on 2 threads and as `mpirun -np 2`
# ranks of 1 thread each reading their own halves of the file, median of 3 wall times
# each, interleaved. Efficiency = (one process, 2 threads) / (2 ranks x 1 thread). The
# ranks' model must equal the one-process model within the documented tolerance (the
# largest relative difference per number is printed). Then the bytes each rank sends
# (KESTREL_MPI_TRAFFIC) per boosting round and per Newton iteration, as rows, features,
# bins and ranks change. Writes bench/distributed/train_results.md.
#   bench/distributed/train_bench.sh BUILD_DIR
set -eu
build=${1:?usage: train_bench.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
out="$work/report"
say() { echo "$*"; echo "$*" >> "$out"; }
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
export PATH="$build/apps:$PATH"
mpi() { n=$1; shift; mpirun --allow-run-as-root --oversubscribe -np "$n" "$@"; }
median3() { sort -n | sed -n 2p; }
time_it() { s=$(date +%s.%N); "$@" > /dev/null 2>&1; e=$(date +%s.%N); echo "$e - $s" | bc; }

# Documented generator: rows x features standard normal, a label from a fixed linear
# score plus noise (regression: the score; classification: its sign), seed 7.
gen() {  # rows features task file
    /usr/bin/python3 - "$@" <<'PY'
import sys, numpy as np
n, d, task, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
rng = np.random.default_rng(7)
X = rng.standard_normal((n, d))
w = np.linspace(-1, 1, d)
s = X @ w + 0.5 * np.sin(3 * X[:, 0]) + 0.3 * rng.standard_normal(n)
y = s if task == "reg" else (s > 0).astype(int)
with open(path, "w") as f:
    f.write("label," + ",".join(f"x{j}" for j in range(d)) + "\n")
    np.savetxt(f, np.column_stack([y, X]), delimiter=",", fmt=["%.6g" if task == "reg" else "%d"] + ["%.6g"] * d)
PY
}
maxdiff() { /usr/bin/python3 - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
worst = 0.0
def walk(x, y):
    global worst
    if isinstance(x, dict):
        for k in x:
            if k not in ("provenance", "feature_mean"): walk(x[k], y[k])
    elif isinstance(x, list):
        for u, v in zip(x, y): walk(u, v)
    elif isinstance(x, (int, float)) and not isinstance(x, bool):
        worst = max(worst, abs(x - y) / max(1.0, abs(x), abs(y)))
walk(a, b)
print(f"{worst:.1e}")
PY
}

gen 200000 20 reg "$work/reg.csv"
gen 200000 20 cls "$work/cls.csv"

say "| fit | 1 process x 1 thread | 1 process x 2 threads | 2 ranks x 1 thread (--shard) | efficiency against 2 threads | largest difference |"
say "|---|---|---|---|---|---|"
run_case() {  # name file model-args...
    name=$1; file=$2; shift 2
    : > "$work/t1"; : > "$work/t2"; : > "$work/tm"
    for i in 1 2 3; do
        time_it kestrel-train -q "$@" "$file" -o "$work/one.json" --threads 1 >> "$work/t1"
        time_it kestrel-train -q "$@" "$file" -o "$work/one.json" --threads 2 >> "$work/t2"
        time_it mpi 2 kestrel-train -q --shard "$@" "$file" -o "$work/many.json" --threads 1 >> "$work/tm"
    done
    t1=$(median3 < "$work/t1"); t2=$(median3 < "$work/t2"); tm=$(median3 < "$work/tm")
    say "| $name | ${t1} s | ${t2} s | ${tm} s | $(echo "scale=2; $t2 / $tm" | bc) | $(maxdiff "$work/one.json" "$work/many.json") |"
}
run_case "ridge, 200,000 x 20" "$work/reg.csv" -m ridge
run_case "logistic (TRON), 200,000 x 20" "$work/cls.csv" -m logistic -p C=1
run_case "linear_svm (primal), 200,000 x 20" "$work/cls.csv" -m linear_svm -p solver=primal -p C=1
run_case "gbdt, 100 rounds, depth 6, 200,000 x 20" "$work/cls.csv" -m gbdt -p n_estimators=100

say ""
say "Bytes sent per rank (KESTREL_MPI_TRAFFIC: point-to-point sends plus broadcast payloads), gbdt depth 6, 20 rounds:"
say ""
say "| rows | features | max_bins | ranks | rank 0 sent | rank 1 sent | per round (rank 1) |"
say "|---|---|---|---|---|---|---|"
traffic() {  # rows features bins ranks
    gen "$1" "$2" cls "$work/t.csv"
    KESTREL_MPI_TRAFFIC=1 mpi "$4" kestrel-train -q --shard -m gbdt -p n_estimators=20 -p max_bins="$3" "$work/t.csv" \
        -o "$work/t.json" --threads 1 2> "$work/traffic" > /dev/null
    r0=$(sed -n 's/^kestrel: rank 0 sent \([0-9]*\) bytes.*broadcasts of \([0-9]*\) bytes/\1 \2/p' "$work/traffic" | awk '{print $1 + $2}')
    r1=$(sed -n 's/^kestrel: rank 1 sent \([0-9]*\) bytes.*broadcasts of \([0-9]*\) bytes/\1 \2/p' "$work/traffic" | awk '{print $1 + $2}')
    say "| $1 | $2 | $3 | $4 | $r0 | $r1 | $((r1 / 20)) |"
}
traffic 50000 20 255 2
traffic 200000 20 255 2
traffic 200000 40 255 2
traffic 200000 20 63 2
traffic 200000 20 255 3
say ""
say "Per Newton iteration (logistic, TRON, 200,000 rows):"
for d in 20 40; do
    gen 200000 "$d" cls "$work/l.csv"
    KESTREL_MPI_TRAFFIC=1 mpi 2 kestrel-train --shard -m logistic -p C=1 "$work/l.csv" -o "$work/l.json" --threads 1 \
        2> "$work/traffic" > /dev/null
    say "- $d features: $(grep 'rank 1 sent' "$work/traffic" | sed 's/^kestrel: //')"
done

{
    echo "# Training on rows spread over MPI ranks"
    echo
    echo "$(date -u +%Y-%m-%dT%H:%M:%SZ), kestrel $(git -C "$here" describe --always --dirty 2>/dev/null || echo unknown)," \
         "$(mpirun --version | head -1), $(nproc) cores; load average (1, 5, 15 min) before: $load_before;" \
         "after: $(cut -d' ' -f1-3 /proc/loadavg). Command: \`bench/distributed/train_bench.sh BUILD\`."
    echo
    cat "$out"
} > "$here/train_results.md"
