#!/bin/sh
# kestrel side of the raw-table rows (docs/benchmarks.md, "Raw tables"): kestrel-train on the raw
# data/tables/NAME/train.csv (whole process: read, encode, fit, write; median of 3), then
# kestrel-predict --metrics on test.csv. Usage: kestrel_tables.sh BIN_DIR NAME LABEL MODEL [train flags...]
# TABLES=DIR reads DIR/NAME instead (the tables of make_debian_tables.sh).
set -eu
bin=$1 name=$2 label=$3 model=$4
shift 4
root=$(cd "$(dirname "$0")/../.." && pwd)
tables=${TABLES:-$root/data/tables}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
times=""
for i in 1 2 3; do
  s=$(date +%s.%N)
  "$bin/kestrel-train" -m "$model" "$@" "$tables/$name/train.csv" --label-col "$label" -o "$out/m.json" --quiet
  e=$(date +%s.%N)
  times="$times $(echo "$e - $s" | bc)"
done
median=$(echo $times | tr ' ' '\n' | sort -n | sed -n 2p)
score=$("$bin/kestrel-predict" "$out/m.json" "$tables/$name/test.csv" --label-col "$label" --metrics --json -o /dev/null |
  python3 -c 'import json,sys; j=json.load(sys.stdin); print("%.4f" % j.get("accuracy", j.get("r2")))')
printf '%s\t%s\t%s\t%ss\n' "$name" "$model" "$score" "$median"
