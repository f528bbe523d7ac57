#!/usr/bin/env bash
# Regenerates the model_json seed corpus: one small model file per registered model
# (a 3-class problem when the model classifies, else a regression), written compact so
# the fuzzer spends its mutations on content, not indentation. Run it after adding a
# model (docs/fuzzing.md); the hand-picked variants (probability, sparse, scaled,
# nested bases) already in the folder are kept.
#   tests/fuzz/make_model_seeds.sh BUILD_DIR        (a normal build with the apps)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
train=${1:?usage: make_model_seeds.sh BUILD_DIR}/apps/kestrel-train
out=$root/tests/fuzz/corpus/model_json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Tiny fixed data: 15 rows, 3 classes, 3 features; 12 rows of a linear target.
{
  echo "label,x1,x2,x3"
  for i in $(seq 0 14); do c=$((i % 3)); echo "c$c,$c.$((i * 7 % 10)),$((i % 4 - c)).5,0.$((i * 3 % 10))"; done
} >"$tmp/cls.csv"
{
  echo "label,x1,x2"
  for i in $(seq 0 11); do echo "$((i * 2 - 5)).25,0.$((i * 7 % 10)),$((i % 5))"; done
} >"$tmp/reg.csv"
for m in $("$train" --list-models | awk '{print $1}'); do
  for data in cls reg; do
    if "$train" -q --threads 1 -m "$m" -p n_estimators=3 "$tmp/$data.csv" -o "$tmp/$m.json" 2>/dev/null ||
       "$train" -q --threads 1 -m "$m" "$tmp/$data.csv" -o "$tmp/$m.json" 2>/dev/null; then
      /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["provenance"].pop("date",None); print(json.dumps(d,separators=(",",":")),end="")' \
        "$tmp/$m.json" >"$out/${m}_$data.json"
      echo "seed: ${m}_$data.json ($(wc -c <"$out/${m}_$data.json") bytes)"
      break
    fi
  done
done
