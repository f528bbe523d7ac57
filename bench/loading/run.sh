#!/usr/bin/env bash
# Data-loading benchmark (not a test): kestrel's CSV and LIBSVM readers against
# numpy.loadtxt, pandas.read_csv and svm-scale on a generated dense file of
# ROWS x COLS values (default 400000 x 40, ~160 MB of CSV). Median of RUNS runs,
# warm page cache. Writes bench/loading/results.md and results.json.
#
# Environment: KESTREL_BENCH_ROWS, KESTREL_BENCH_COLS, KESTREL_BENCH_RUNS (3),
#   KESTREL_BENCH_BUILD (build dir, default build-bench), KESTREL_BENCH_THREADS
#   (kestrel threads, default 0 = all cores), KESTREL_BENCH_OUT (results.md path).
# Needs: apt-get install -y python3-numpy python3-pandas libsvm-tools time
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
ROWS=${KESTREL_BENCH_ROWS:-400000}
COLS=${KESTREL_BENCH_COLS:-40}
RUNS=${KESTREL_BENCH_RUNS:-3}
THREADS=${KESTREL_BENCH_THREADS:-0}
SEED=20240601
BUILD=${KESTREL_BENCH_BUILD:-$ROOT/build-bench}
DATA=$ROOT/bench/data/generated
OUT=${KESTREL_BENCH_OUT:-$HERE/results.md}
JSON_OUT=${OUT%.md}.json
PY=/usr/bin/python3
TIME=/usr/bin/time

missing=()
[ -x "$TIME" ] || missing+=(time)
command -v svm-scale >/dev/null || missing+=(libsvm-tools)
$PY -c 'import numpy' 2>/dev/null || missing+=(python3-numpy)
$PY -c 'import pandas' 2>/dev/null || missing+=(python3-pandas)
if [ ${#missing[@]} -gt 0 ]; then
  echo "run.sh: missing packages; install with: apt-get install -y ${missing[*]}" >&2
  exit 1
fi

echo "== building kestrel-read-bench in $BUILD" >&2
if [ -f "$BUILD/CMakeCache.txt" ]; then  # an existing build keeps its own settings
  cmake "$BUILD" -DKESTREL_BENCH=ON >/dev/null
else
  cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKESTREL_BENCH=ON -DKESTREL_TESTS=OFF >/dev/null
fi
cmake --build "$BUILD" --target kestrel-read-bench >/dev/null
READER=$BUILD/bench/loading/kestrel-read-bench

mkdir -p "$DATA"
CSV=$DATA/dense_${ROWS}x${COLS}.csv
SVM=$DATA/dense_${ROWS}x${COLS}.libsvm
STAMP=$DATA/dense_${ROWS}x${COLS}.stamp
want_stamp="$(sha256sum "$HERE/generate.py" | cut -d' ' -f1) $ROWS $COLS $SEED"
if [ ! -s "$CSV" ] || [ ! -s "$SVM" ] || [ "$(cat "$STAMP" 2>/dev/null)" != "$want_stamp" ]; then
  echo "== generating $CSV and its LIBSVM twin" >&2
  $PY "$HERE/generate.py" "$ROWS" "$COLS" "$SEED" "$CSV" "$SVM"
  echo "$want_stamp" > "$STAMP"
fi
cat "$CSV" "$SVM" > /dev/null  # warm the page cache: every loader is measured warm

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# run_one KIND CMD...: KIND "json" reads seconds from the command's JSON output,
# "wall" times the whole process. Prints "seconds rss_kb cpu_seconds" (cpu: user+sys
# of the whole process).
run_one() {
  local kind=$1; shift
  local t0 t1
  t0=$EPOCHREALTIME
  "$TIME" -f "%M %U %S" -o "$TMP/rss" "$@" > "$TMP/stdout"
  t1=$EPOCHREALTIME
  local seconds
  if [ "$kind" = json ]; then
    seconds=$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["seconds"])' "$TMP/stdout")
  else
    seconds=$($PY -c 'import sys; print(float(sys.argv[2]) - float(sys.argv[1]))' "$t0" "$t1")
  fi
  local rss user sys
  read -r rss user sys < <(tail -1 "$TMP/rss")
  echo "$seconds $rss $($PY -c 'import sys; print(round(float(sys.argv[1]) + float(sys.argv[2]), 2))' "$user" "$sys")"
}

median() { printf '%s\n' "$@" | sort -g | sed -n "$((($# + 1) / 2))p"; }

# measure NAME KIND CMD...: medians of seconds, peak RSS and CPU seconds over RUNS runs.
declare -A SECONDS_OF RSS_OF CPU_OF
measure() {
  local name=$1 kind=$2; shift 2
  local s=() r=() c=() sec rss cpu
  for ((i = 0; i < RUNS; i++)); do
    read -r sec rss cpu < <(run_one "$kind" "$@")
    s+=("$sec")
    r+=("$rss")
    c+=("$cpu")
    echo "   $name run $((i + 1)): $sec s, $rss KB, $cpu CPU s" >&2
  done
  SECONDS_OF[$name]=$(median "${s[@]}")
  RSS_OF[$name]=$(median "${r[@]}")
  CPU_OF[$name]=$(median "${c[@]}")
}

LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
echo "== measuring (median of $RUNS); load average $LOAD_BEFORE" >&2
measure kestrel_csv json "$READER" "$CSV" csv "$THREADS"
measure kestrel_libsvm json "$READER" "$SVM" libsvm "$THREADS"
measure numpy_loadtxt json "$PY" "$HERE/anchors.py" numpy "$CSV"
measure pandas_read_csv json "$PY" "$HERE/anchors.py" pandas "$CSV"
measure svm_scale wall sh -c 'svm-scale "$1" > /dev/null' svm-scale "$SVM"

LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)
CSV_BYTES=$(stat -c %s "$CSV")
SVM_BYTES=$(stat -c %s "$SVM")
CPU=$(lscpu | sed -n 's/^Model name: *//p' | head -1)
NPROC=$(nproc)
VERSIONS=$($PY -c 'import numpy, pandas; print(f"numpy {numpy.__version__}, pandas {pandas.__version__}")')
LIBSVM_VERSION=$(dpkg-query -W -f='${Version}' libsvm-tools 2>/dev/null || echo unknown)
REV=$(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo "unknown")

$PY - "$OUT" "$JSON_OUT" <<PYEOF
import json, sys
out_md, out_json = sys.argv[1], sys.argv[2]
rows, cols = $ROWS, $COLS
csv_bytes, svm_bytes = $CSV_BYTES, $SVM_BYTES
seconds = {$(for k in "${!SECONDS_OF[@]}"; do printf '"%s": %s, ' "$k" "${SECONDS_OF[$k]}"; done)}
rss = {$(for k in "${!RSS_OF[@]}"; do printf '"%s": %s, ' "$k" "${RSS_OF[$k]}"; done)}
cpu = {$(for k in "${!CPU_OF[@]}"; do printf '"%s": %s, ' "$k" "${CPU_OF[$k]}"; done)}
matrix_bytes = rows * cols * 8
entries = [
    ("kestrel_csv", "kestrel read_table (CSV)", csv_bytes, "read_table only, in process"),
    ("numpy_loadtxt", "numpy.loadtxt", csv_bytes, "in process, after import"),
    ("pandas_read_csv", "pandas.read_csv (C engine)", csv_bytes, "in process, after import"),
    ("kestrel_libsvm", "kestrel read_table (LIBSVM)", svm_bytes, "read_table only, in process"),
    ("svm_scale", "svm-scale (LIBSVM tools)", svm_bytes, "whole process, output to /dev/null"),
]
mbps = {k: b / 1e6 / seconds[k] for k, _, b, _ in entries}
result = {"rows": rows, "cols": cols, "csv_bytes": csv_bytes, "libsvm_bytes": svm_bytes,
          "runs": $RUNS, "threads": $THREADS, "loaders": {}}
lines = [
    "# Data loading benchmark",
    "",
    f"Generated by \`bench/loading/run.sh\`: dense {rows} x {cols} float64 features (7 significant",
    f"digits, integer label), seed $SEED; CSV {csv_bytes / 1e6:.1f} MB, LIBSVM twin {svm_bytes / 1e6:.1f} MB.",
    f"Median of $RUNS runs, warm page cache. Machine: $CPU, $NPROC cores; kestrel threads: $THREADS (0 = all).",
    f"Anchors: $VERSIONS, libsvm-tools $LIBSVM_VERSION. kestrel revision: $REV.",
    f"Load average (1, 5, 15 min) before: $LOAD_BEFORE; after: $LOAD_AFTER (other work shares the cores).",
    "",
    "| loader | input | seconds | MB/s | peak RSS (MB) | RSS / float64 matrix | process CPU s | measured |",
    "|---|---|---:|---:|---:|---:|---:|---|",
]
for key, name, nbytes, how in entries:
    ratio = rss[key] * 1024 / matrix_bytes
    fmt = "CSV" if nbytes == csv_bytes else "LIBSVM"
    lines.append(f"| {name} | {fmt} | {seconds[key]:.3f} | {mbps[key]:.0f} | {rss[key] / 1024:.0f} | {ratio:.2f} "
                 f"| {cpu[key]:.2f} | {how} |")
    result["loaders"][key] = {"seconds": seconds[key], "mb_per_s": mbps[key], "peak_rss_kb": rss[key],
                              "rss_over_matrix": ratio, "cpu_seconds": cpu[key], "bytes": nbytes}
ratios = [
    ("kestrel CSV / numpy.loadtxt", mbps["kestrel_csv"] / mbps["numpy_loadtxt"]),
    ("kestrel CSV / pandas.read_csv", mbps["kestrel_csv"] / mbps["pandas_read_csv"]),
    ("kestrel LIBSVM / svm-scale", mbps["kestrel_libsvm"] / mbps["svm_scale"]),
]
lines += ["", "| speed ratio (MB/s) | kestrel / anchor |", "|---|---:|"]
lines += [f"| {name} | {r:.2f}x |" for name, r in ratios]
result["ratios"] = {name: r for name, r in ratios}
targets = [
    ("kestrel CSV >= 340 MB/s", mbps["kestrel_csv"] >= 340),
    ("kestrel LIBSVM >= 280 MB/s", mbps["kestrel_libsvm"] >= 280),
    ("kestrel CSV peak RSS <= 1.5x the float64 matrix", rss["kestrel_csv"] * 1024 <= 1.5 * matrix_bytes),
]
lines += ["", "| target | met |", "|---|---|"]
lines += [f"| {name} | {'yes' if ok else 'no'} |" for name, ok in targets]
result["targets"] = {name: ok for name, ok in targets}
lines += ["",
    "svm-scale reads its input twice (min/max pass, then scaling) and writes the scaled file;",
    "it is timed as a whole process. MB = 10^6 bytes of input text. Peak RSS and process CPU",
    "(user + sys, all threads) from /usr/bin/time; for numpy and pandas they include the Python",
    "interpreter and its imports. When the load average exceeds the core count, wall-clock MB/s",
    "understates what the readers do on idle cores: input MB / process CPU s bounds the",
    "per-core rate.", ""]
result["load_average"] = {"before": "$LOAD_BEFORE", "after": "$LOAD_AFTER"}
open(out_md, "w").write("\n".join(lines))
json.dump(result, open(out_json, "w"), indent=1)
PYEOF
cat "$OUT"
