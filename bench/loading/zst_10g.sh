#!/bin/sh
# Peak RSS of kestrel-predict streaming a 10 GB .zst against the same rows plain (issue 46):
# the loading bench's generated 200,000 x 40 CSV (bench/loading/generate.py, 85 MB) written
# COPIES times (120: 10.2 GB of text) through `zstd -1 -T2` (4.4 GB), then decompressed to a
# plain twin; a logistic model trained on one copy scores both, output to /dev/null, under
# /usr/bin/time. Needs about 15 GB free in DIR; the files are deleted at the end.
#   bench/loading/zst_10g.sh BUILD_DIR [COPIES=120] [DIR]
set -eu
build=${1:?usage: zst_10g.sh BUILD_DIR [COPIES] [DIR]}
copies=${2:-120}
dir=${3:-${TMPDIR:-/tmp}}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
one=$root/bench/data/generated/dense_200000x40.csv
[ -s "$one" ] || /usr/bin/python3 "$here/generate.py" 200000 40 20240601 "$one" "${one%.csv}.libsvm"
work=$(mktemp -d "$dir/zst10g.XXXXXX"); trap 'rm -rf "$work"' EXIT
"$build/apps/kestrel-train" -q -m logistic "$one" -o "$work/m.json"
{ cat "$one"; i=1; while [ "$i" -lt "$copies" ]; do tail -n +2 "$one"; i=$((i + 1)); done; } | zstd -q -1 -T2 -o "$work/big.csv.zst"
zstd -q -d "$work/big.csv.zst" -o "$work/big.csv"
echo "rows: $((copies * 200000)); text: $(stat -c %s "$work/big.csv") bytes; zstd: $(stat -c %s "$work/big.csv.zst") bytes"
for f in big.csv.zst big.csv; do
    /usr/bin/time -f "$f: %e s wall, %U s user, peak RSS %M KB" "$build/apps/kestrel-predict" "$work/m.json" "$work/$f" -o /dev/null
done
